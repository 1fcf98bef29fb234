"""Xvfb's screen as a file the bot maps into its memory (``Xvfb -fbdir``).

Started with ``-fbdir DIR``, Xvfb keeps its screen in the file ``DIR/Xvfb_screen0``, an
X window dump (XWD): a header, a colour table, then the pixels, which Xvfb draws into
in place. A bot that maps the file reads the screen with no request to the server at
all, where a shared-memory read (``bot.x11.shm``) costs a round trip and a copy in the
server for every look.

The name is not needed once the file is mapped: ``Framebuffer.open`` removes it (and
its folder) at once, so nothing is left behind however the run ends; Xvfb and the bot
keep their mappings until they exit.
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from logo_bot.bot.x11.picture import BGR_TO_RGB
from logo_bot.bot.x11.picture_watch import Frame
from logo_bot.bot.x11.window import Region

log = logging.getLogger(__name__)

SCREEN_FILE = "Xvfb_screen0"
SHARED_MEMORY = Path("/dev/shm")  # a memory file system: the screen file is never written out
_HEADER = struct.Struct(">25I")  # XWDFileHeader: 25 big-endian 32-bit fields
_COLOUR = 12  # bytes of one XWDColor entry after the header
_ZPIXMAP = 2
_LSB_FIRST = 0
_MASKS = (0xFF0000, 0x00FF00, 0x0000FF)


class FramebufferUnavailable(Exception):
    """The screen file is missing or is not a 32-bit screen this reader understands."""


@dataclass(frozen=True)
class Layout:
    """Where the pixels are in the file, from the XWD header."""

    width: int
    height: int
    bytes_per_line: int
    offset: int  # of the first pixel

    @classmethod
    def parse(cls, header: bytes) -> Layout:
        """The layout of a ZPixmap of 32-bit little-endian pixels with 8-bit channels
        (Xvfb at depth 24); ``FramebufferUnavailable`` for any other."""
        if len(header) < _HEADER.size:
            raise FramebufferUnavailable("the screen file is shorter than its header")
        f = _HEADER.unpack_from(header)
        size, version, pixmap, depth, width, height = f[:6]
        byte_order, bits_per_pixel, bytes_per_line = f[7], f[11], f[12]
        masks, colours = f[14:17], f[19]
        if version != 7 or pixmap != _ZPIXMAP:
            raise FramebufferUnavailable(f"not an XWD ZPixmap (version {version}, {pixmap})")
        if depth != 24 or bits_per_pixel != 32 or byte_order != _LSB_FIRST or masks != _MASKS:
            raise FramebufferUnavailable(
                f"a depth-{depth} screen of {bits_per_pixel}-bit pixels is not read here"
            )
        return cls(width, height, bytes_per_line, size + colours * _COLOUR)


class Framebuffer:
    """Xvfb's screen, mapped read-only: ``read(region)`` copies a rectangle out as RGB."""

    def __init__(self, mapped: mmap.mmap, layout: Layout) -> None:
        self._map = mapped
        self.layout = layout
        end = layout.offset + layout.bytes_per_line * layout.height
        if len(mapped) < end:
            raise FramebufferUnavailable("the screen file is shorter than its pixels")
        pixels = np.frombuffer(mapped, dtype=np.uint8, count=end - layout.offset,
                               offset=layout.offset)  # fmt: skip
        self._pixels: np.ndarray | None = pixels.reshape(layout.height, -1, 4)
        # the same pixels, each one number (0xXXRRGGBB): what ``packed`` gives
        self._packed: memoryview | None = memoryview(mapped)[layout.offset : end].cast("I")
        self.stride = layout.bytes_per_line // 4  # pixels from one row to the next

    @classmethod
    def open(cls, folder: Path) -> Framebuffer:
        """Map ``folder``'s screen file, then remove the file and the folder."""
        path = folder / SCREEN_FILE
        try:
            with open(path, "rb") as file:
                mapped = mmap.mmap(file.fileno(), 0, prot=mmap.PROT_READ)
        except (OSError, ValueError) as exc:
            raise FramebufferUnavailable(f"cannot map {path}: {exc}") from None
        finally:
            remove(folder)
        try:
            return cls(mapped, Layout.parse(mapped[: _HEADER.size]))
        except FramebufferUnavailable:
            mapped.close()
            raise

    def read(self, region: Region) -> Frame | None:
        """The RGB pixels of ``region`` (root coordinates), copied; None when it is not
        wholly on the screen (or the framebuffer is closed)."""
        pixels = self._area(region)
        return None if pixels is None else pixels[..., BGR_TO_RGB]

    def view(self, region: Region) -> Frame | None:
        """``read`` without the copy: the screen file's own pixels as RGB, to be copied
        into a picture at once (Xvfb changes them as it draws)."""
        pixels = self._area(region)
        return None if pixels is None else pixels[..., 2::-1]

    @property
    def packed(self) -> memoryview | None:
        """Every pixel of the screen as one number, 0xRRGGBB in its low 24 bits: pixel
        (x, y) at ``y * stride + x``. Xvfb changes them as it draws. None once closed."""
        return self._packed

    def _area(self, region: Region) -> np.ndarray | None:
        """The BGRX pixels of ``region``; None when it is not wholly on the screen."""
        pixels = self._pixels
        if pixels is None or not self.holds(region):
            return None
        left, top = region.left, region.top
        return pixels[top : top + region.height, left : left + region.width]

    def holds(self, region: Region) -> bool:
        """Whether ``region`` is wholly on the screen (and not empty)."""
        left, top, width, height = region.left, region.top, region.width, region.height
        if left < 0 or top < 0 or width <= 0 or height <= 0:
            return False
        return left + width <= self.layout.width and top + height <= self.layout.height

    def close(self) -> None:
        """Let go of the mapping (a read afterwards gives None)."""
        self._pixels = None
        if self._packed is not None:
            self._packed.release()
            self._packed = None
        with contextlib.suppress(BufferError):  # a view still taken: freed with it
            self._map.close()


def remove(folder: Path) -> None:
    """Remove the screen file and ``folder`` (quietly: either may be gone)."""
    with contextlib.suppress(OSError):
        os.unlink(folder / SCREEN_FILE)
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def screen_folder() -> Path | None:
    """A new folder for Xvfb's screen file, in memory where the machine has /dev/shm (a
    file on disk would be written out as Xvfb draws); None when none can be made (Xvfb
    then keeps its screen to itself, and the picture is read through the server)."""
    where = SHARED_MEMORY if os.access(SHARED_MEMORY, os.W_OK) else None
    try:
        return Path(tempfile.mkdtemp(prefix="logo-bot-screen-", dir=where))
    except OSError:
        return None


def map_screen(folder: Path) -> Framebuffer | None:
    """Xvfb's screen file in ``folder``, mapped; None (said in the log) when it cannot be."""
    try:
        return Framebuffer.open(folder)
    except FramebufferUnavailable as exc:
        log.info("the picture is read through the X server: %s", exc)
        return None
