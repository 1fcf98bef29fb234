"""Turning the movies of a run's Fuse segments into one video, finding the levels on the way.

Each segment's FMF is decoded once; every frame goes to the video writer and to a
``LevelScanner``. Segments follow each other in the video, so a restart shows as a cut.
Every ``CHECK_EVERY`` frames is a safe point (``interrupts.check``): a stop there ends
the writing, ffmpeg is killed and no half-written video is left.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from logo_bot.bot import interrupts
from logo_bot.bot.errors import BotError, MovieError
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.recording.frame_match import signature
from logo_bot.bot.recording.movie import read_frames
from logo_bot.bot.recording.scan import LevelScanner, LevelSpan
from logo_bot.bot.recording.video import VideoWriter, open_video
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board

log = logging.getLogger(__name__)
CHECK_EVERY = 50  # frames between safe points (a few ms of work each time)


@dataclass
class Encoded:
    """What came out of the movies: frames per segment, level spans, the video's state."""

    frames: dict[int, int] = field(default_factory=dict)  # segment -> movie frames
    final_boards: dict[int, Board | None] = field(default_factory=dict)  # on the last frame
    spans: list[LevelSpan] = field(default_factory=list)
    video: Path | None = None
    codec: str | None = None
    video_frames: int = 0
    error: str | None = None  # why there is no video
    movie_errors: dict[int, str] = field(default_factory=dict)  # segment -> why its movie ended
    signatures: dict[int, list[int]] = field(default_factory=dict)  # segment -> each frame's
    seconds: float = 0.0


def encode(
    segments: Sequence[Segment],
    vision: Vision,
    video: Path | None,
    zoom: int = 2,
    progress: Callable[[int], None] | None = None,
    signatures: bool = False,
) -> Encoded:
    """Scan every segment's movie and, when ``video`` is given, write them all into it;
    ``progress`` is told the frames done every 1000 frames. With ``signatures``, each
    frame's picture signature is kept (``frame_match``: where the bot's looks go)."""
    started = time.monotonic()
    out = Encoded()
    writer: VideoWriter | None = None
    try:
        for segment in segments:
            if segment.movie is None or not segment.movie.is_file():
                continue
            scanner = LevelScanner(vision, segment.number)
            signed = out.signatures.setdefault(segment.number, []) if signatures else None
            try:
                with contextlib.closing(read_frames(segment.movie)) as frames:
                    for frame in frames:
                        scanner.feed(frame)
                        if scanner.frames % CHECK_EVERY == 0:
                            interrupts.check()
                        if signed is not None:
                            signed.append(signature(frame))
                        if progress is not None and scanner.frames % 1000 == 0:
                            progress(sum(out.frames.values()) + scanner.frames)
                        if video is not None and out.error is None:
                            if writer is None:
                                writer = _open(video, frame, zoom, out)
                            if writer is not None:
                                _write(writer, frame, out)
            except MovieError as exc:  # this segment's frames end here; the next ones follow
                out.movie_errors[segment.number] = exc.message
                log.warning("segment %d's movie: %s", segment.number, exc.message)
            out.spans += scanner.finish()
            out.frames[segment.number] = scanner.frames
            out.final_boards[segment.number] = scanner.final_board
    except KeyboardInterrupt:  # a stop (``interrupts.check``): no half-written video is left
        if writer is not None:
            writer.discard()
            writer = None
        raise
    finally:  # else the writer (ffmpeg) is closed whatever happened
        if writer is not None:
            try:
                writer.close()
            except BotError as exc:
                _no_video(out, exc)
            if out.error is None:
                out.video, out.codec, out.video_frames = video, writer.codec, writer.frames
        if video is not None and writer is None and out.error is None and out.movie_errors:
            out.error = next(iter(out.movie_errors.values()))  # no frame came out at all
        out.seconds = time.monotonic() - started
    return out


def _write(writer: VideoWriter, frame, out: Encoded) -> None:
    try:
        writer.write(frame)
    except BotError as exc:
        _no_video(out, exc)


def _open(video: Path, frame, zoom: int, out: Encoded) -> VideoWriter | None:
    height, width = frame.shape[:2]
    try:
        return open_video(video, (width, height), zoom=zoom)
    except BotError as exc:
        _no_video(out, exc)
        return None


def _no_video(out: Encoded, exc: BotError) -> None:
    """The video cannot be written: said, unless the end is being forced (a second
    Ctrl-C): its hooks killed ffmpeg, and the forced end says what happened itself."""
    interrupts.hold_if_forcing()
    out.error = out.error or exc.message
    log.warning("no video: %s", exc.message)
