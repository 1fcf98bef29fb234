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
import time
from collections.abc import Callable, Mapping
from typing import Any

from Xlib import X
from Xlib import display as xdisplay

from logo_bot.bot import interrupts
from logo_bot.bot.errors import Unreadable
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.fuse_sizes import fuse_sizes

log = logging.getLogger(__name__)

MAGIC = b"i3-ipc"
RUN_COMMAND = 0
GET_VERSION = 7
HEADER = struct.Struct("<II")
TIMEOUT_S = 2.0
DECORATION_PX = 64  # a size this close to the one asked lacks the frame's borders and title


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


def run_command(path: str, command: str, quiet: bool = False) -> bool:
    """One command for the window manager; whether each of its parts succeeded (a part
    that failed is logged as a warning, unless ``quiet``)."""
    try:
        replies = ask(path, RUN_COMMAND, command)
    except IpcError as exc:
        if not quiet:
            log.warning("could not float the Fuse window: %s", exc)
        return False
    failed = [r.get("error", "?") for r in replies if not r.get("success")]
    if failed and not quiet:
        log.warning("the window manager would not float Fuse: %s", "; ".join(failed))
    return not failed


def float_window(
    path: str, dpy: xdisplay.Display, window_id: int, size: tuple[int, int], timeout_s: float = 3
) -> bool:
    """Float X window ``window_id`` at ``size`` in the middle of the screen; whether it
    has that size. fuse-gtk's size hints (resize steps of one scale from a base size it
    changes as it is resized) make a tiler refuse a size until fuse-gtk has redrawn at
    the floating size, and sway sizes the frame around the window (borders and title):
    the size is asked again, with the frame added, until the window has it."""
    criteria = f"[id={window_id}]"
    deadline = time.monotonic() + timeout_s
    # sway manages a new X window a little after it is mapped: until then no node matches
    while not run_command(path, f"{criteria} floating enable", quiet=True):
        if time.monotonic() > deadline:
            return run_command(path, f"{criteria} floating enable")  # said why, this time
        interrupts.sleep(0.05)
    width, height = size
    asked = size
    window = dpy.create_resource_object("window", window_id)
    while True:
        run_command(
            path,
            f"{criteria} resize set width {asked[0]} px height {asked[1]} px, move position center",
        )
        interrupts.sleep(0.15)
        geometry = window.get_geometry()
        if (geometry.width, geometry.height) == size:
            return True
        short = (width - geometry.width, height - geometry.height)
        if all(abs(d) <= DECORATION_PX for d in short):  # sway sizes the frame: add it
            asked = (asked[0] + short[0], asked[1] + short[1])
        if time.monotonic() > deadline:
            log.warning(
                "the Fuse window floats at %dx%d, not %dx%d: the bot reads it as it is",
                geometry.width,
                geometry.height,
                width,
                height,
            )
            return False


def float_fuse(display: str, window_id: int, scale: int) -> str | None:
    """Float the Fuse the bot started when a tiler manages ``display``, at the size its
    picture needs at ``scale`` (read from the window's own size hints: fuse-gtk's bars are
    as tall as the desktop's font makes them); the tiler's name, or None when there is
    none."""
    dpy = open_display(display)
    try:
        path = ipc_socket(dpy, display)
        if path is None:
            return None
        name = wm_name(path)
        size = fuse_sizes(dpy.create_resource_object("window", window_id)).at(scale)
        if float_window(path, dpy, window_id, size):
            log.info("%s tiles windows: the Fuse window floats at %dx%d", name, *size)
        return name
    finally:
        dpy.close()


def check_drawn(
    display: str, window_id: int, found: Callable[[], bool], again: str = "attach again"
) -> None:
    """``Unreadable`` when Fuse draws no picture in a window the desktop sized beyond what
    Fuse allows (sway tiles fuse-gtk so, and fuse-gtk then paints its picture black): the
    message names the desktop and how to float Fuse there. ``found`` says whether the
    picture shows in the window (looked for again at each call); a second without one is
    taken as none. ``again``: what the person does once they have floated it."""
    deadline = time.monotonic() + 1.0
    while not found():
        if time.monotonic() >= deadline:
            break
        interrupts.sleep(0.1)
    else:
        return
    dpy = open_display(display)
    try:
        window = dpy.create_resource_object("window", window_id)
        geometry = window.get_geometry()
        sizes = fuse_sizes(window)
        path = ipc_socket(dpy, display)
    finally:
        dpy.close()
    if sizes.desktop_scale > 1:
        raise Unreadable(
            f"the desktop draws fuse-gtk {sizes.desktop_scale} times as large (HiDPI), and "
            "GTK scales Fuse's picture smoothly: the bot reads it so at 2 and 3 times, "
            "and found no picture it could read in this window",
            hint="start your Fuse with GDK_SCALE=1 (its picture can still be large: "
            "--graphics-filter 3x), then " + again,
        )
    if sizes.own(geometry.width, geometry.height) or not (
        sizes.beyond(geometry.width, geometry.height) or path
    ):
        return  # Fuse chose this size: the game itself shows no picture yet
    desktop = wm_name(path) if path else os.environ.get("XDG_CURRENT_DESKTOP") or "the desktop"
    fix = (
        'float it: add  for_window [class="Fuse-gtk"] floating enable  to your sway config '
        f"(or press Mod+Shift+Space on the Fuse window), then {again}"
        if desktop == "sway"
        else "make the Fuse window float (or give it its own size) in your window manager, "
        f"then {again}"
    )
    raise Unreadable(
        f"{desktop} made the Fuse window {geometry.width}x{geometry.height}, a size Fuse does "
        "not choose itself, and Fuse draws no picture in it",
        hint=fix,
    )
