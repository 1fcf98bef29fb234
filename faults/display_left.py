"""What a stopped bot may leave on an X display that outlives it: a server grab, keys down.

``answers`` speaks the X protocol on a raw socket (no python-xlib: a client of that
library blocks for ever on a grabbed server) and says whether a new client gets its
connection set up and a reply to ``GetInputFocus`` within the time given: under a server
grab of another client it gets neither. ``keys_down`` reads the server's key map, where
XTest presses show (events sent to a window do not: ``faults.x_stop`` logs those).
"""

from __future__ import annotations

import os
import select
import socket
import struct
import time

from Xlib import X
from Xlib.error import XError
from Xlib.ext import xtest

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.x11.display import open_display

GET_INPUT_FOCUS = 43


def _socket_path(display: str) -> str:
    number = display.rsplit(":", 1)[1].split(".")[0]
    return f"/tmp/.X11-unix/X{number}"


def _read(sock: socket.socket, count: int, deadline: float) -> bytes | None:
    data = b""
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            return None
        chunk = sock.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def answers(display: str, within_s: float = 1.0) -> bool:
    """Whether a new client on the local ``display`` (":N") is set up and answered a
    ``GetInputFocus`` within ``within_s`` (False under another client's server grab)."""
    deadline = time.monotonic() + within_s
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(within_s)
        try:
            sock.connect(_socket_path(display))
        except OSError:
            return False
        sock.sendall(struct.pack("<BxHHHHxx", 0x6C, 11, 0, 0, 0))  # no authorisation
        head = _read(sock, 8, deadline)
        if head is None or head[0] != 1:
            return False
        if _read(sock, struct.unpack_from("<H", head, 6)[0] * 4, deadline) is None:
            return False
        sock.sendall(struct.pack("<BxH", GET_INPUT_FOCUS, 1))
        reply = _read(sock, 32, deadline)
        return reply is not None and reply[0] == 1


def keys_down(display: str) -> list[int]:
    """The keycodes down on ``display`` now, as the server's key map has them."""
    try:
        dpy = open_display(display)
    except DisplayError:
        return []
    try:
        keymap = list(dpy.query_keymap())
    except (XError, OSError):
        return []
    finally:
        dpy.close()
    return [8 * i + bit for i, byte in enumerate(keymap) for bit in range(8) if byte >> bit & 1]


def grab_watch(display: str, pid: int, every_s: float = 0.2, within_s: float = 1.0) -> int:
    """While process ``pid`` runs, how many probes of ``display`` went unanswered for
    ``within_s`` (a grab held that long while the bot stops)."""
    missed = 0
    while _alive(pid):
        if not answers(display, within_s) and _alive(pid):
            missed += 1
        time.sleep(every_s)
    return missed


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False
    except IndexError:
        return os.path.exists(f"/proc/{pid}")


def release(display: str, codes: list[int]) -> None:
    """Let go of ``codes`` on ``display`` (XTest), so that a leak found once is not found
    again by every later round on the same server."""
    dpy = open_display(display)
    try:
        for code in codes:
            xtest.fake_input(dpy, X.KeyRelease, code)
        dpy.sync()
    finally:
        dpy.close()
