"""Pictures kept on disk while the bot plays, for a video written afterwards.

``FrameStore.put`` zlib-compresses a picture into a temporary file and returns where it
is (a ``Picture``); a picture equal to the one put just before is not written again, and
gets the same ``Picture``. ``get`` reads one back, once the writing is ``close``d.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np


@dataclass(frozen=True)
class Picture:
    """Where one stored picture is in the store's file."""

    offset: int
    length: int
    shape: tuple[int, ...]


class FrameStore:
    """RGB pictures in one temporary file, written by one thread, read after ``close``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: BinaryIO | None = None  # opened by the first put
        self._size = 0
        self._last: tuple[np.ndarray, Picture] | None = None  # the picture put last

    def put(self, pixels: np.ndarray) -> Picture:
        """Store ``pixels``, unless they equal the picture put last: then its place."""
        if self._last is not None and np.array_equal(pixels, self._last[0]):
            return self._last[1]
        if self._file is None:
            self._file = open(self.path, "wb")  # noqa: SIM115
        data = zlib.compress(np.ascontiguousarray(pixels).tobytes(), 1)
        self._file.write(data)
        picture = Picture(self._size, len(data), pixels.shape)
        self._size += len(data)
        self._last = (pixels, picture)
        return picture

    def close(self) -> None:
        """The writing is done: everything put can be read."""
        if self._file is not None:
            self._file.close()

    def get(self, picture: Picture) -> np.ndarray:
        with open(self.path, "rb") as f:
            f.seek(picture.offset)
            data = zlib.decompress(f.read(picture.length))
        return np.frombuffer(data, dtype=np.uint8).reshape(picture.shape)

    def remove(self) -> None:
        """Delete the file (the video is written, or will not be); the writer still closes
        it, so that a capture thread that outlived its stop never writes to a closed file."""
        self.path.unlink(missing_ok=True)
