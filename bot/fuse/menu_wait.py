"""Waiting, with no key down and none pressed, while Fuse's own menu or dialog shows over
the picture (``bot.see.fuse_menu``): a person opened it (F1 in fuse-sdl) and may be
changing Fuse's settings, its scale or filter among them. A key would go to the menu,
not to the game. Fuse pauses the emulation meanwhile, and with it the game's clock, so
the bot can wait long; when the menu closes the picture is looked at afresh (the window
may have another size, the picture another scale or filter) and play goes on from it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from logo_bot.bot.errors import FuseMenuOpen
from logo_bot.bot.see.fuse_menu import PICTURE_WIDTH_1X, fuse_menu_shows
from logo_bot.bot.x11.framebuffer_watch import Sighting

log = logging.getLogger(__name__)

# The longest Fuse may take to show its menu once it has paused the game (as it takes
# F1): it draws it when the host gives it the time, measured up to 120 ms later at a
# load of 7 on 2 cores, whatever the emulation's speed. A key not seen to act is looked
# at this long for the menu before it counts as a correction.
MENU_DRAWN_S = 0.3
WAIT_S = 600.0  # ten minutes: a person choosing options, well past a forgotten menu
WAKE_S = 1.0  # with no drawing at all, look again this often (a watch may miss one)
SAID = "Fuse's own menu is open over the game: no key is pressed until it closes"


def wait_menu_closed(
    frame: np.ndarray,
    look: Callable[[], np.ndarray],
    wait_drawn: Callable[[float], bool],
    release: Callable[[], None],
    emit: Callable[..., Any],
    wait_s: float = WAIT_S,
) -> tuple[np.ndarray, float]:
    """``frame`` when it shows no menu of Fuse's; else, once the menu has closed, the
    picture then and the seconds waited. Keys held down are let go first (Fuse would
    repeat them into the menu); ``emit`` tells the focus listeners ("fuse_menu", then
    "regained" with the reason "fuse_menu"). ``FuseMenuOpen`` after ``wait_s``."""
    if not fuse_menu_shows(frame):
        return frame, 0.0
    started = time.monotonic()
    release()
    log.warning("%s (Escape in Fuse closes it)", SAID)
    emit("fuse_menu")
    deadline = started + wait_s
    while fuse_menu_shows(frame):
        now = time.monotonic()
        if now >= deadline:
            raise FuseMenuOpen(
                f"Fuse's own menu stayed open over the game for {wait_s / 60:.0f} minutes",
                hint="close it (Escape in Fuse), then run the bot again: "
                "the run can resume from the last level code",
            )
        wait_drawn(min(deadline, now + WAKE_S))
        frame = look()
    waited = time.monotonic() - started
    log.info("Fuse's menu closed after %.1f s: the bot looks at the picture again", waited)
    emit("regained", how="closed", waited_s=round(waited, 2), reason="fuse_menu")
    return frame, waited


def sighted_menu(picture: Sighting) -> bool:
    """Whether Fuse drew its menu in what a sighting says was drawn since the last one
    (all of the picture when it does not say): read at Fuse's own size, one pixel of
    each block."""
    areas = picture.areas
    if areas == ():
        return False
    left, top, right, bottom = 0, 0, picture.width, picture.height
    if areas is not None:
        left, top = min(a[0] for a in areas), min(a[1] for a in areas)
        right, bottom = max(a[0] + a[2] for a in areas), max(a[1] + a[3] for a in areas)
    step = max(1, picture.width // PICTURE_WIDTH_1X)
    left, top = left - left % step, top - top % step
    stride = picture.stride
    screen = np.asarray(picture.pixels)
    rows = screen[(picture.top + top) * stride : (picture.top + bottom) * stride]
    x = picture.left + left
    own = rows.reshape(-1, stride)[::step, x : picture.left + right : step]
    rgb = np.stack([own >> 16, own >> 8, own], axis=-1).astype(np.uint8)
    return fuse_menu_shows(rgb)
