"""Tiling window managers (i3 on X11, sway on Wayland): a Fuse the bot starts is floated.

A tiler sizes a new window to its tile. fuse-gtk then draws its picture at whatever
scale fits (i3: 3x where 2x was asked), or, beyond its maximum size, draws none at all
(sway). fuse-sdl's window has equal minimum and maximum sizes, so both float it already
(../shared/FUSE-FACTS.md, section 9). i3 and sway share one IPC protocol: a command
``[id=WINDOW] floating enable, resize set ..., move position center`` floats the window
at the size asked, and Fuse draws at the asked scale again. The socket is named by i3's
root window property ``I3_SOCKET_PATH``, or by ``SWAYSOCK``/``I3SOCK`` in the person's
environment (for their own display only). A Fuse the person runs is never touched.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import struct
from collections.abc import Mapping
from typing import Any

from Xlib import X
from Xlib import display as xdisplay

from bot.x11.display import open_display

log = logging.getLogger(__name__)

MAGIC = b"i3-ipc"
RUN_COMMAND = 0
GET_VERSION = 7
HEADER = struct.Struct("<II")
TIMEOUT_S = 2.0


class IpcError(Exception):
    """The window manager's socket did not answer as i3 and sway do."""


def ipc_socket(
    dpy: xdisplay.Display, display: str, env: Mapping[str, str] | None = None
) -> str | None:
    """The socket of the tiling window manager that manages ``display``, if any."""
    env = os.environ if env is None else env
    path = _root_socket_path(dpy)
    if path:
        return path
    if display == env.get("DISPLAY"):  # the person's own display: their session's tiler
        for name in ("SWAYSOCK", "I3SOCK"):
            if env.get(name):
                return env[name]
    return None


def _root_socket_path(dpy: xdisplay.Display) -> str | None:
    atom = dpy.intern_atom("I3_SOCKET_PATH", only_if_exists=True)
    if atom == X.NONE:
        return None
    prop = dpy.screen().root.get_full_property(atom, X.AnyPropertyType)
    if prop is None or not prop.value:
        return None
    value = prop.value
    return (value.decode() if isinstance(value, bytes) else str(value)).rstrip("\0")


def ask(path: str, kind: int, payload: str = "") -> Any:
    """One message to the window manager at ``path``; its JSON reply."""
    body = payload.encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(TIMEOUT_S)
        try:
            sock.connect(path)
            sock.sendall(MAGIC + HEADER.pack(len(body), kind) + body)
            head = _read(sock, len(MAGIC) + HEADER.size)
            if not head.startswith(MAGIC):
                raise IpcError(f"{path} does not speak the i3 IPC protocol")
            length, _ = HEADER.unpack(head[len(MAGIC) :])
            return json.loads(_read(sock, length))
        except (OSError, ValueError) as exc:
            raise IpcError(f"{path}: {exc}") from None


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise IpcError("the window manager closed its socket")
        data += chunk
    return data


def wm_name(path: str) -> str:
    """'sway' or 'i3' (from the version the socket reports)."""
    try:
        version = ask(path, GET_VERSION)
    except IpcError:
        return "a tiling window manager"
    text = json.dumps(version).lower()
    return "sway" if "sway" in text else "i3"


def float_window(path: str, window_id: int, width: int, height: int) -> bool:
    """Float X window ``window_id`` at ``width`` x ``height`` in the middle of the screen;
    whether the window manager did it all."""
    command = (
        f"[id={window_id}] floating enable, "
        f"resize set width {width} px height {height} px, move position center"
    )
    try:
        replies = ask(path, RUN_COMMAND, command)
    except IpcError as exc:
        log.warning("could not float the Fuse window: %s", exc)
        return False
    failed = [r.get("error", "?") for r in replies if not r.get("success")]
    if failed:
        log.warning("the window manager would not float Fuse: %s", "; ".join(failed))
        return False
    return True


def float_fuse(display: str, window_id: int, size: tuple[int, int]) -> str | None:
    """Float the Fuse the bot started when a tiler manages ``display``; its name, or None
    when no tiler does (or it refused)."""
    dpy = open_display(display)
    try:
        path = ipc_socket(dpy, display)
    finally:
        dpy.close()
    if path is None:
        return None
    name = wm_name(path)
    if not float_window(path, window_id, *size):
        return None
    log.info("%s tiles windows: the Fuse window floats at %dx%d", name, *size)
    return name
