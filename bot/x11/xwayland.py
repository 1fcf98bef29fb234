"""What the bot knows of XWayland, the X server of a Wayland desktop (GNOME, KDE Plasma,
weston, sway): how to tell it from a plain X server, its version, and what differs there.

Fuse runs on it as an X client. Its root window has no picture (rootless: GetImage on it
fails with BadMatch), but each top-level window keeps its own; the compositor owns the
keyboard focus (it undoes an X client's SetInputFocus), and an X focus of None means a
Wayland window has it. From XWayland 23.2 a compositor may send XTest events through the
desktop's remote-control portal, which asks the person once per session (keys sent to
Fuse's window, the default, are not XTest events).
"""

from __future__ import annotations

import os
from enum import Enum

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import XError
from Xlib.ext import randr

X_CLIENT_FUSE = "GDK_BACKEND=x11 fuse-gtk ... (or fuse-sdl ...)"
NO_X_DISPLAY_HINT = (
    "start Fuse as an X client, on XWayland's display: "
    f"{X_CLIENT_FUSE}, then give --display (or DISPLAY) that display; or run headless "
    "with --headless"
)
PORTAL_XWAYLAND = (23, 2)  # from here XTest may go through the remote-control portal


class DisplayType(Enum):
    """What kind of X server a display is (``display_type``)."""

    X11 = "x11"  # a plain X server (Xorg, Xvfb): the root window has the picture
    XWAYLAND = "xwayland"  # a Wayland desktop's X server: no root picture, focus is not ours
    NONE = "none"  # no X display at all (or none that opens)


def wayland_session() -> bool:
    """True when the desktop session is Wayland (X programs run on its XWayland)."""
    return os.environ.get("XDG_SESSION_TYPE") == "wayland" or bool(
        os.environ.get("WAYLAND_DISPLAY")
    )


def is_xwayland(dpy: xdisplay.Display) -> bool:
    """Whether the X server on ``dpy`` is XWayland: it has the XWAYLAND extension (from
    23.1), or its RandR outputs are named XWAYLAND0, XWAYLAND1, ... (every version)."""
    if dpy.has_extension("XWAYLAND"):
        return True
    if not dpy.has_extension("RANDR"):
        return False
    root = dpy.screen().root
    try:
        resources = randr.get_screen_resources(root)
        names = [
            randr.get_output_info(root, output, resources.config_timestamp).name
            for output in resources.outputs
        ]
    except XError:
        return False
    return any(name.startswith("XWAYLAND") for name in names)


def xwayland_version(dpy: xdisplay.Display) -> tuple[int, int, int]:
    """XWayland's version from the server's vendor release (22.1.9 is 12201009)."""
    release = dpy.display.info.release_number
    return (release // 100000) % 100, (release // 1000) % 100, release % 1000


def root_readable(dpy: xdisplay.Display) -> bool:
    """Whether the root window's pixels can be read (not under rootless XWayland)."""
    try:
        dpy.screen().root.get_image(0, 0, 1, 1, X.ZPixmap, 0xFFFFFFFF)
    except XError:
        return False
    return True


def portal_note(version: tuple[int, int, int]) -> str | None:
    """What a person sees on an XWayland new enough to send XTest keys through the
    desktop's remote-control portal (GNOME 45 and later, KDE Plasma 6), else None."""
    if version[:2] < PORTAL_XWAYLAND:
        return None
    shown = ".".join(map(str, version))
    return (
        f"XWayland {shown}: your desktop may ask once whether to allow remote control of "
        "the keyboard (a remote desktop / input capture dialog); allow it, or the bot's "
        "keys will not reach Fuse"
    )
