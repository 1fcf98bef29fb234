"""Encoding a run's segments: a movie that breaks loses only its own end, and the video
writer (ffmpeg) is closed whatever happens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.errors import MovieError, VideoError
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import encode as encode_module
from logo_bot.bot.recording.encode import encode
from logo_bot.bot.see.vision import Vision

VISION = Vision(load_profile("practice"), 1)


class Writer:
    codec = "fake"

    def __init__(self, fail_at: int | None = None) -> None:
        self.written: list[int] = []
        self.closed = 0
        self.discarded = 0
        self.fail_at = fail_at

    @property
    def frames(self) -> int:
        return len(self.written)

    def write(self, frame: np.ndarray) -> None:
        if self.fail_at is not None and len(self.written) == self.fail_at:
            raise VideoError("ffmpeg stopped while writing (a test)")
        self.written.append(int(frame[0, 0, 0]))

    def close(self) -> None:
        self.closed += 1

    def discard(self) -> None:
        self.discarded += 1


def movies(tmp_path: Path, monkeypatch, broken: set[int]) -> list[Segment]:
    """Segments 1-3 of 4 frames each (frame pixels say segment*10+index); a broken one
    ends with a MovieError after 2 frames."""
    segments = []
    for number in (1, 2, 3):
        movie = tmp_path / f"movie-{number}.fmf"
        movie.write_bytes(b"fmf")
        segments.append(Segment(number, 0.0, 0.0, 100, None, movie))

    def read_frames(path: Path):
        number = int(path.stem.split("-")[1])
        for index in range(4):
            if number in broken and index == 2:
                raise MovieError("fmfconv did not write an AVI stream")
            yield np.full((240, 320, 3), number * 10 + index, dtype=np.uint8)

    monkeypatch.setattr(encode_module, "read_frames", read_frames)
    return segments


def test_a_broken_movie_loses_only_its_own_end(tmp_path, monkeypatch):
    segments = movies(tmp_path, monkeypatch, broken={2})
    writer = Writer()
    monkeypatch.setattr(encode_module, "open_video", lambda *a, **k: writer)
    out = encode(segments, VISION, tmp_path / "video.mp4")
    assert writer.written == [10, 11, 12, 13, 20, 21, 30, 31, 32, 33]
    assert writer.closed == 1
    assert out.error is None and out.video == tmp_path / "video.mp4"
    assert out.movie_errors == {2: "fmfconv did not write an AVI stream"}
    assert out.frames == {1: 4, 2: 2, 3: 4}


def test_the_writer_is_closed_when_writing_fails(tmp_path, monkeypatch):
    segments = movies(tmp_path, monkeypatch, broken=set())
    writer = Writer(fail_at=5)
    monkeypatch.setattr(encode_module, "open_video", lambda *a, **k: writer)
    out = encode(segments, VISION, tmp_path / "video.mp4")
    assert writer.closed == 1
    assert out.error == "ffmpeg stopped while writing (a test)" and out.video is None
    assert out.frames == {1: 4, 2: 4, 3: 4}, "the levels are still scanned"


def test_the_writer_is_discarded_on_an_interrupt(tmp_path, monkeypatch):
    segments = movies(tmp_path, monkeypatch, broken=set())

    class Interrupted(Writer):
        def write(self, frame: np.ndarray) -> None:
            if len(self.written) == 3:
                raise KeyboardInterrupt  # Ctrl-C while the video is written
            super().write(frame)

    writer = Interrupted()
    monkeypatch.setattr(encode_module, "open_video", lambda *a, **k: writer)
    with pytest.raises(KeyboardInterrupt):
        encode(segments, VISION, tmp_path / "video.mp4")
    assert (writer.discarded, writer.closed) == (1, 0), "stopped at once, no half video"


def test_a_writer_killed_by_a_forced_end_is_not_said_over_it(tmp_path, monkeypatch, caplog):
    """A second Ctrl-C forces the end, whose hooks kill ffmpeg: the write that fails then
    waits for the forced end (which exits the process) and logs no 'no video' line among
    the bot's own messages."""
    segments = movies(tmp_path, monkeypatch, broken=set())
    writer = Writer(fail_at=2)
    monkeypatch.setattr(encode_module, "open_video", lambda *a, **k: writer)

    class ForcedEnd(BaseException):
        """Stands for the process's exit, which the hold waits for."""

    def hold_if_forcing() -> None:
        raise ForcedEnd

    monkeypatch.setattr(encode_module.interrupts, "hold_if_forcing", hold_if_forcing)
    with pytest.raises(ForcedEnd):
        encode(segments, VISION, tmp_path / "video.mp4")
    assert "no video" not in caplog.text
    assert writer.closed == 1 or writer.discarded == 1
