"""Reading a window's pixels through shared memory (the X server's MIT-SHM extension).

A plain GetImage sends every pixel through the X connection (about 11 ms for a 3x Fuse
picture); ShmGetImage has the server write them into a System V shared memory segment
that the bot reads in place. python-xlib has no MIT-SHM binding, so its three requests
are written here from the protocol (ShmAttach, ShmDetach, ShmGetImage), and the
segment is made with libc's shmget/shmat.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct

import numpy as np
from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import CatchError
from Xlib.protocol import rq

EXTENSION = "MIT-SHM"
IPC_PRIVATE = 0
IPC_CREAT = 0o1000
IPC_RMID = 0
GET_IMAGE = 4  # ShmGetImage's minor opcode
# ShmGetImage: major, minor, length (8 words), drawable, x, y, width, height, plane mask,
# format, 3 unused bytes, segment, offset
_GET_IMAGE = struct.Struct("=BBHIhhHHIBxxxII")
_REPLY = struct.Struct("=xBxxxxxxII")  # depth; visual, size (bytes 8-15)


class ShmUnavailable(Exception):
    """This display (or this machine) cannot share memory with the bot."""


class _Attach(rq.Request):
    _request = rq.Struct(
        rq.Card8("opcode"),
        rq.Opcode(1),
        rq.RequestLength(),
        rq.Card32("shmseg"),
        rq.Card32("shmid"),
        rq.Bool("read_only"),
        rq.Pad(3),
    )


class _Detach(rq.Request):
    _request = rq.Struct(
        rq.Card8("opcode"),
        rq.Opcode(2),
        rq.RequestLength(),
        rq.Card32("shmseg"),
    )


class _GetImage(rq.ReplyRequest):
    _request = rq.Struct(
        rq.Card8("opcode"),
        rq.Opcode(4),
        rq.RequestLength(),
        rq.Drawable("drawable"),
        rq.Int16("x"),
        rq.Int16("y"),
        rq.Card16("width"),
        rq.Card16("height"),
        rq.Card32("plane_mask"),
        rq.Card8("format"),
        rq.Pad(3),
        rq.Card32("shmseg"),
        rq.Card32("offset"),
    )
    _reply = rq.Struct(
        rq.ReplyCode(),
        rq.Card8("depth"),
        rq.Card16("sequence_number"),
        rq.ReplyLength(),
        rq.Card32("visual"),
        rq.Card32("size"),
        rq.Pad(16),
    )


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.shmget.argtypes = (ctypes.c_int, ctypes.c_size_t, ctypes.c_int)
    libc.shmat.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmdt.argtypes = (ctypes.c_void_p,)
    libc.shmctl.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
    return libc


class ShmImage:
    """One shared segment of ``size`` bytes attached to the server on connection ``dpy``;
    ``grab`` fills it from a window and returns the pixels (BGRX rows, or 16-bit ones).

    The segment is marked for removal as soon as the server has attached it, so it goes
    away with the last process using it, even if the bot is killed."""

    def __init__(self, dpy: xdisplay.Display, size: int) -> None:
        found = dpy.query_extension(EXTENSION)  # python-xlib does not list it itself
        if found is None or not found.present:
            raise ShmUnavailable(f"the X display has no {EXTENSION} extension")
        self._dpy = dpy
        self._opcode = found.major_opcode
        self.size = size
        self._libc = _libc()
        self._shmid = self._libc.shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
        if self._shmid < 0:
            raise ShmUnavailable(f"shmget failed (errno {ctypes.get_errno()})")
        address = self._libc.shmat(self._shmid, None, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            self._libc.shmctl(self._shmid, IPC_RMID, None)
            raise ShmUnavailable(f"shmat failed (errno {ctypes.get_errno()})")
        self._address = address
        self._buffer = (ctypes.c_uint8 * size).from_address(address)
        self._array = np.ctypeslib.as_array(self._buffer)  # made once: 7 us a read otherwise
        self._segment = dpy.display.allocate_resource_id()
        catch = CatchError()
        _Attach(
            display=dpy.display,
            opcode=self._opcode,
            shmseg=self._segment,
            shmid=self._shmid,
            read_only=False,
            onerror=catch,
        )
        dpy.sync()
        self._libc.shmctl(self._shmid, IPC_RMID, None)
        self._attached = catch.get_error() is None
        if not self._attached:  # a server on another machine, or another user's
            self._release()
            raise ShmUnavailable(f"the X server could not attach the segment ({catch.get_error()})")

    def grab(
        self, window_id: int, x: int, y: int, width: int, height: int
    ) -> tuple[int, np.ndarray]:
        """The window's pixels in the rectangle: (depth, the raw ZPixmap bytes in the
        segment, valid until the next grab)."""
        reply = _GetImage(
            display=self._dpy.display,
            opcode=self._opcode,
            drawable=window_id,
            x=x,
            y=y,
            width=width,
            height=height,
            plane_mask=0xFFFFFFFF,
            format=X.ZPixmap,
            shmseg=self._segment,
            offset=0,
        )
        return self._pixels(reply.depth, reply.size)

    def request(self, drawable: int, x: int, y: int, width: int, height: int) -> bytes:
        """The bytes of ``grab``'s request, for a connection written directly
        (``bot.x11.raw_link``); ``pixels`` reads its reply."""
        return _GET_IMAGE.pack(
            self._opcode, GET_IMAGE, 8, drawable, x, y, width, height, 0xFFFFFFFF,
            X.ZPixmap, self._segment, 0,
        )  # fmt: skip

    def pixels(self, reply: bytes) -> tuple[int, np.ndarray]:
        """(depth, the pixels in the segment) that the reply to ``request`` says."""
        depth, _visual, size = _REPLY.unpack_from(reply)
        return self._pixels(depth, size)

    def _pixels(self, depth: int, size: int) -> tuple[int, np.ndarray]:
        if size > self.size:
            raise ShmUnavailable(f"{size} bytes do not fit the {self.size}-byte segment")
        return depth, self._array[:size]

    def close(self, tell_server: bool = True) -> None:
        """Detach from the server, then from this process: that too when the server
        cannot be told (the display is lost), so no segment stays attached here. Without
        ``tell_server`` the connection's end detaches it there."""
        try:
            if self._attached and tell_server:
                self._attached = False
                catch = CatchError()
                _Detach(
                    display=self._dpy.display,
                    opcode=self._opcode,
                    shmseg=self._segment,
                    onerror=catch,
                )
                self._dpy.sync()
        finally:
            self._release()

    def _release(self) -> None:
        if self._address is not None:
            self._buffer = self._array = None  # type: ignore[assignment]
            self._libc.shmdt(self._address)
            self._address = None
