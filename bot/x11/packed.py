"""X requests the bot sends hundreds of times a run, packed once or with ``struct``.

python-xlib packs a request field by field in Python: a key event sent to Fuse's window
cost about 130 us of the bot's CPU (measured), more than the X server takes to run it.
``Packed`` hands python-xlib bytes packed already; python-xlib still numbers the request,
sends it in order with the others, and gives an error for it to ``onerror``. The bytes
follow the X protocol's encoding (X Window System Protocol, "Encoding: Requests" and
"Events"); tests compare them with python-xlib's own packing.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from Xlib import X
from Xlib.protocol import rq

SEND_EVENT = 25  # the core protocol's opcode
DAMAGE_DESTROY, DAMAGE_SUBTRACT = 2, 3  # the DAMAGE extension's minor opcodes
# SendEvent: opcode, propagate, length (11 words), destination, event mask; then the
# 32-byte event: code, keycode, sequence (0), time, root, event window, child, root x
# and y, event x and y, modifier state, same screen, one unused byte
_SEND_KEY = struct.Struct("=BBHII" + "BBHIIIIhhhhHBx")
_DAMAGE_SUBTRACT = struct.Struct("=BBHIII")  # major, minor, length (4), damage, repair, parts
_DAMAGE_DESTROY = struct.Struct("=BBHI")  # major, minor, length (2), damage
GET_INPUT_FOCUS = struct.pack("=BxH", 43, 1)  # the cheapest round trip of the core protocol

ErrorHandler = Callable[[Any, Any], Any]


class Packed(rq.Request):
    """One request whose bytes are ready (``binary``), queued on ``display`` (python-xlib's
    protocol display: ``Display.display``) as python-xlib queues its own."""

    def __init__(self, display: Any, binary: bytes, onerror: ErrorHandler | None = None) -> None:
        self._errorhandler = onerror
        self._binary = binary
        self._serial = None
        display.send_request(self, onerror is not None)


def key_event(root: int, window: int, keycode: int, down: bool, state: int, time: int) -> bytes:
    """SendEvent of a KeyPress (``down``) or KeyRelease to ``window`` with no event mask
    and no propagation: only the client that made the window receives it."""
    code = X.KeyPress if down else X.KeyRelease
    return _SEND_KEY.pack(
        SEND_EVENT, 0, 11, window, 0,
        code, keycode, 0, time, root, window, X.NONE, 0, 0, 0, 0, state, 1,
    )  # fmt: skip


def damage_subtract(major: int, damage: int) -> bytes:
    """DamageSubtract of all of ``damage`` (repair and parts None): the same bytes every
    time, packed once."""
    return _DAMAGE_SUBTRACT.pack(major, DAMAGE_SUBTRACT, 4, damage, X.NONE, X.NONE)


def damage_destroy(major: int, damage: int) -> bytes:
    """DamageDestroy of ``damage``."""
    return _DAMAGE_DESTROY.pack(major, DAMAGE_DESTROY, 2, damage)
