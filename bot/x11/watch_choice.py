"""Which picture watch a session gets: the one that reads the picture too where the
grabber reads a plain X server's root window (from the screen file of the bot's own Xvfb,
``framebuffer_watch``, else through shared memory, ``reading_watch``), else the DAMAGE
watch, or polling where there is no DAMAGE (``damage.watch_picture``)."""

from __future__ import annotations

import logging
from functools import partial

from logo_bot.bot.x11.damage import watch_picture
from logo_bot.bot.x11.framebuffer import Framebuffer
from logo_bot.bot.x11.framebuffer_watch import FramebufferWatch
from logo_bot.bot.x11.grab import Grabber, MssGrabber
from logo_bot.bot.x11.picture_watch import PictureWatch
from logo_bot.bot.x11.reading_watch import ReadingWatch
from logo_bot.bot.x11.shm import ShmUnavailable

log = logging.getLogger(__name__)


def watch_window(
    display: str, window_id: int, grabber: Grabber, framebuffer: Framebuffer | None = None
) -> PictureWatch:
    """The watch of the session's picture (see the module); ``framebuffer``: the screen
    of the Xvfb the bot started, mapped."""
    if isinstance(grabber, MssGrabber):
        # a display without DAMAGE is polled at once, as by watch_picture alone
        if framebuffer is not None:
            reader = partial(FramebufferWatch, grabber=grabber, framebuffer=framebuffer)
            return watch_picture(display, window_id, watch=reader)
        try:
            return watch_picture(display, window_id, watch=partial(ReadingWatch, grabber=grabber))
        except ShmUnavailable as exc:
            log.info("the picture watch does not read the window: %s", exc)
    return watch_picture(display, window_id)
