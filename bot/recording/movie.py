"""Frames of a Fuse movie (FMF): fmfconv decodes it, this module reads the frames.

Written to a pipe, ``fmfconv -f raw`` emits an AVI of uncompressed BGR24 frames at the
emulated rate (50.08 per second), one per emulated frame. Its rows are top-down although
the header's positive height says bottom-up (checked against the game screen). Only the
RIFF chunks needed to get those frames are read here.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from logo_bot.bot import processes, stopping
from logo_bot.bot.errors import MovieError, installed


@dataclass(frozen=True)
class MovieInfo:
    width: int
    height: int


def fmfconv() -> str:
    why = ", so Fuse movies cannot be turned into video"
    return installed("fmfconv", "fuse-emulator-utils", MovieError, why)


def read_frames(path: Path) -> Generator[np.ndarray, None, None]:
    """Every frame of the FMF movie ``path`` as an RGB array (height, width, 3).

    A movie cut short (Fuse killed) yields the frames that were written."""
    if not Path(path).is_file():
        raise MovieError(f"no movie file {path}")
    if Path(path).stat().st_size == 0:
        return
    process = processes.start(
        [fmfconv(), "-f", "raw", str(path)],
        stopping.FMFCONV_DEATH_SIGNAL,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    try:
        yield from avi_frames(process.stdout)
    finally:
        process.stdout.close()
        if process.poll() is None:
            process.terminate()
        process.wait()


def avi_frames(stream: IO[bytes]) -> Iterator[np.ndarray]:
    """The video frames of fmfconv's uncompressed BGR24 AVI stream, as RGB arrays."""
    head = stream.read(12)
    if len(head) < 12:
        return
    if head[:4] != b"RIFF" or head[8:12] != b"AVI ":
        raise MovieError("fmfconv did not write an AVI stream")
    info: MovieInfo | None = None
    while True:
        chunk = stream.read(8)
        if len(chunk) < 8:
            return
        fourcc, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
        if fourcc == b"LIST":
            kind = stream.read(4)
            if kind in (b"hdrl", b"movi", b"strl"):
                continue  # descend: their chunks follow one after another
            _skip(stream, size - 4)
        elif fourcc == b"avih":
            data = stream.read(size)
            width, height = struct.unpack("<II", data[32:40])
            info = MovieInfo(width, height)
        elif fourcc[2:] in (b"db", b"dc") and info is not None:
            data = stream.read(size)
            if len(data) < size:
                return  # the stream ended inside a frame
            if size & 1:
                stream.read(1)
            yield _dib_to_rgb(data, info)
        else:
            _skip(stream, size + (size & 1))


def _dib_to_rgb(data: bytes, info: MovieInfo) -> np.ndarray:
    stride = (info.width * 3 + 3) & ~3
    rows = np.frombuffer(data, dtype=np.uint8, count=stride * info.height)
    rows = rows.reshape(info.height, stride)[:, : info.width * 3]
    return rows.reshape(info.height, info.width, 3)[:, :, ::-1]


def _skip(stream: IO[bytes], count: int) -> None:
    while count > 0:
        data = stream.read(min(count, 1 << 16))
        if not data:
            return
        count -= len(data)
