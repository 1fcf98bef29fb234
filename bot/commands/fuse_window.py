"""The one window chooser: the Fuse window a command plays in (``--attach``) or reads
(``show``), named with ``--window ID|TITLE`` or else the only Fuse on the display."""

from __future__ import annotations

import os
from dataclasses import dataclass

from bot.errors import DisplayError
from bot.x11.display import open_display
from bot.x11.window import choose_window


@dataclass(frozen=True)
class FuseWindow:
    display: str
    id: int


def find_fuse_window(display: str | None, name: str | None, no_display: DisplayError) -> FuseWindow:
    """The window named ``name`` (an X window id or a title, or part of one), else the only
    fuse-sdl or fuse-gtk window, on ``display`` (``$DISPLAY`` when None). ``no_display`` is
    raised when there is no display; ``DisplayError`` lists the windows when the choice is
    not one."""
    display = display or os.environ.get("DISPLAY")
    if not display:
        raise no_display
    dpy = open_display(display)
    try:
        return FuseWindow(display, choose_window(dpy, name).id)
    finally:
        dpy.close()


def attach_window(display: str | None, name: str | None) -> int:
    """The window of the person's Fuse, to play in (``--attach``, ``--window``)."""
    no_display = DisplayError(
        "--attach needs the display your Fuse is on", hint="give --display :N"
    )
    return find_fuse_window(display, name, no_display).id
