"""Finding the Fuse window on an X display and its geometry (python-xlib)."""

from __future__ import annotations

from dataclasses import dataclass

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import XError
from Xlib.ext import res

FUSE_CLASS = "fuse-sdl"


@dataclass(frozen=True)
class Region:
    """A rectangle in root-window coordinates."""

    left: int
    top: int
    width: int
    height: int


def window_pid(dpy: xdisplay.Display, window_id: int) -> int | None:
    """The PID of the local client that created ``window_id`` (X-Resource), if known."""
    mask = dpy.display.info.resource_id_mask
    base = window_id & ~mask
    try:
        reply = dpy.res_query_client_ids([{"client": base, "mask": res.LocalClientPIDMask}])
    except XError:
        return None
    for entry in reply.ids:
        if entry.spec.mask == res.LocalClientPIDMask and entry.value:
            return int(entry.value[0])
    return None


def _wm_class(window) -> tuple[str, ...]:
    try:
        return tuple(window.get_wm_class() or ())
    except XError:
        return ()


def fuse_windows(dpy: xdisplay.Display) -> list:
    """Every mapped top-level window of class ``fuse-sdl`` (searched two levels deep, so a
    window manager's frame around it is looked through)."""
    found = []
    root = dpy.screen().root
    for top in root.query_tree().children:
        for window in (top, *top.query_tree().children):
            try:
                mapped = window.get_attributes().map_state == X.IsViewable
            except XError:
                continue
            if mapped and FUSE_CLASS in _wm_class(window):
                found.append(window)
    return found


def find_fuse_window(dpy: xdisplay.Display, pid: int | None = None):
    """The one Fuse window (of process ``pid`` when given); None when there is none or
    when, without a PID, several Fuse windows make the choice ambiguous."""
    windows = fuse_windows(dpy)
    if pid is not None:
        windows = [w for w in windows if window_pid(dpy, w.id) == pid]
    return windows[0] if len(windows) == 1 else None


def region_of(dpy: xdisplay.Display, window) -> Region:
    """Where ``window``'s client area lies on the root window."""
    geometry = window.get_geometry()
    pos = window.translate_coords(dpy.screen().root, 0, 0)
    return Region(-pos.x, -pos.y, geometry.width, geometry.height)


def window_title(window) -> str:
    try:
        name = window.get_wm_name()
    except XError:
        return ""
    return name.decode("latin-1") if isinstance(name, bytes) else (name or "")
