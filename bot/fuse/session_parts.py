"""The values a ``Session`` is made of, besides its live parts: the segments of its run
(one per Fuse started), where Fuse's files go, how keys reach Fuse's window, and the key
timing; what the session assembler (``bot.fuse.assembly``) hands a session and the
session uses again when it restarts Fuse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.fuse.emulator import Fuse
from logo_bot.bot.profile import Profile
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.grab import Grabber, open_grabber
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming
from logo_bot.bot.x11.picture_watch import PictureWatch
from logo_bot.bot.x11.tiling import check_drawn, float_fuse
from logo_bot.bot.x11.x11_keys import X11Keys, key_driver


@dataclass(frozen=True)
class Segment:
    """One run of Fuse within a session (a restart starts the next one) and its files."""

    number: int
    started_at: float  # time.monotonic() when Fuse showed its window (its frame 0 follows)
    started_wall: float  # time.time() at the same moment
    speed: int
    rzx: Path | None
    movie: Path | None


def segment_path(path: Path | None, number: int) -> Path | None:
    """``run.rzx`` for the first segment, ``run-2.rzx`` for the second, ..."""
    if path is None or number == 1:
        return path
    return path.with_name(f"{path.stem}-{number}{path.suffix}")


KeyWrapper = Callable[[KeyDriver], KeyDriver]


@dataclass(frozen=True)
class FuseFiles:
    """Where Fuse's input recording, movie and logs go (the first segment's names)."""

    rzx: Path | None = None
    movie: Path | None = None
    log_dir: Path | None = None


@dataclass(frozen=True)
class Controls:
    """How keys reach a Fuse window: the backend (window, xtest or pyautogui), whether
    the bot may take the focus back, and whether the display is XWayland (where the
    compositor owns the focus and the covering windows are not X windows)."""

    backend: str
    take_focus: bool
    xwayland: bool

    def fit(
        self,
        display: str,
        window_id: int,
        grabber: Grabber,
        picture: PictureWatch,
        timing: KeyTiming,
        policy: FocusPolicy,
    ) -> tuple[X11Keys, CoverWatch | None]:
        """The key driver for ``window_id`` with its cover watch and the ``picture`` watch
        (a key held until seen waits for Fuse to draw), and Fuse given the focus once, as
        a window manager gives a new window (not under XWayland, where only the person or
        the desktop gives it)."""
        keys = key_driver(self.backend, display, window_id, timing, self.take_focus, policy)
        keys.picture = picture
        cover = None
        if not self.xwayland:
            # None under XWayland: the picture is read from the window's own pixmap,
            # which a window over it does not change
            cover = CoverWatch(grabber.display_name, window_id, lambda: grabber.picture)
            keys.cover = cover
            keys.focus()
        return keys, cover


def key_timing(profile: Profile, speed: int) -> KeyTiming:
    """The profile's key timing at ``speed`` percent."""
    hold, gap = profile.timing.for_speed(speed)
    return KeyTiming(hold, gap, profile.timing.rollover)


def open_picture(xserver: XServer, fuse: Fuse, scale: int) -> Grabber:
    """The grabber of the Fuse the bot started, once its picture can show: on the
    person's display a tiling window manager floats it at the size of the scale asked
    (``bot.x11.tiling``), and a window sized so that Fuse draws no picture is said at once
    (exit 7)."""
    if xserver.process is None:
        float_fuse(xserver.display, fuse.window_id, scale)
    grabber = open_grabber(xserver.display, fuse.window_id)
    try:
        check_drawn(xserver.display, fuse.window_id, grabber.sees_picture, "run the bot again")
    except BaseException:
        grabber.close()
        raise
    return grabber
