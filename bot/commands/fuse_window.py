"""The one window chooser: the Fuse window a command plays in (``--attach``) or reads
(``show``), named with ``--window ID|TITLE`` or else the only Fuse on the display."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.fuse.attached import FuseProcess, native_wayland_fuses
from logo_bot.bot.x11.display import display_type, open_display
from logo_bot.bot.x11.window import choose_window, fuse_windows
from logo_bot.bot.x11.xwayland import NO_X_DISPLAY_HINT, X_CLIENT_FUSE, DisplayType, wayland_session


@dataclass(frozen=True)
class FuseWindow:
    display: str
    id: int


def pick_fuse_window(
    display: str | None,
    name: str | None,
    no_display: DisplayError,
    on_none: Callable[[str], None] | None = None,
) -> FuseWindow:
    """The window named ``name`` (an X window id or a title, or part of one), else the only
    fuse-sdl or fuse-gtk window, on ``display`` (``$DISPLAY`` when None). ``no_display`` is
    raised when there is no display; ``DisplayError`` lists the windows when the choice is
    not one (``on_none(display)`` may say better why there is none)."""
    display = display or os.environ.get("DISPLAY")
    if not display:
        raise no_display
    dpy = open_display(display)
    try:
        return FuseWindow(display, choose_window(dpy, name).id)
    except DisplayError:
        if on_none is not None and name is None and not fuse_windows(dpy):
            on_none(display)
        raise
    finally:
        dpy.close()


def attach_window(display: str | None, name: str | None) -> int:
    """The window of the person's Fuse, to play in (``--attach``, ``--window``). In a
    Wayland session, a Fuse that runs but has no X window is a native Wayland window,
    which the bot can neither see nor press keys in: ``DisplayError`` says how to start
    it as an X client."""
    wayland = wayland_session()
    no_display = DisplayError(
        "--attach needs the display your Fuse is on",
        hint=NO_X_DISPLAY_HINT if wayland else "give --display :N",
    )
    window = pick_fuse_window(display, name, no_display, on_none=native_wayland_fuse)
    return window.id


def wayland_fuses(display: str) -> list[FuseProcess]:
    """In a Wayland session (or on XWayland): the Fuse processes of this session that are
    native Wayland windows, with no window on X display ``display`` or any other (a Fuse
    on another X display, such as a headless run's on its Xvfb, is none of them)."""
    if not (wayland_session() or display_type(display) is DisplayType.XWAYLAND):
        return []
    return native_wayland_fuses(os.environ.get("WAYLAND_DISPLAY") or None)


def native_wayland_fuse(display: str) -> None:
    """Raise ``DisplayError`` when Fuse runs as a native Wayland window (``wayland_fuses``)."""
    fuses = wayland_fuses(display)
    if fuses:
        raise DisplayError(
            f"Fuse is running (pid {fuses[0].pid}) but has no window on X display {display}: "
            "it is a native Wayland window, which the bot can neither see nor press keys in",
            hint=f"close it and start it as an X client: {X_CLIENT_FUSE}",
        )
