"""A run's videos at its end: ``video.mp4`` from Fuse's movie of each segment, or from
the bot's own grabs of a Fuse it took over, and the chapters of it and of
``annotated.mp4``. ``Recording`` (``bot.recording.recording``) calls them in turn."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logo_bot.bot.frames import FPS
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording.chapters import Timeline, chapters, temporaries, write_chapters
from logo_bot.bot.recording.encode import Encoded, encode
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.run_state import RunState
from logo_bot.bot.recording.screen_capture import ScreenCapture
from logo_bot.bot.recording.video import leftovers
from logo_bot.bot.see.vision import Vision

if TYPE_CHECKING:
    from logo_bot.bot.recording.annotated_video import FramesSeen


STORES = ("capture.tmp", "frames.tmp")  # the pictures kept for the videos


def temporary_files(folder: RunFolder) -> list[Path]:
    """Every temporary file a run may make in its folder as it ends: the pictures kept
    for the videos, the partial videos, ffmpeg's logs, the chapters' files, and the
    report while it is written (``report_page``). A forced end removes them, and the
    reaper those a bot killed outright leaves."""
    parts = [folder.path / store for store in (*STORES, ".report.html.tmp")]
    for video in (folder.video, folder.annotated):
        parts += [*leftovers(video), *temporaries(video)]
    return parts


def encode_movie(
    state: RunState, profile: Profile, video: Path, zoom: int, signatures: bool
) -> Encoded:
    """``video`` from Fuse's movie of each segment (with each frame's signature for the
    annotated video when ``signatures``), how far it is shown on a terminal."""
    show = _progress_line(video.name)
    try:
        return encode(
            state.segments(), Vision(profile, 1), video, zoom, show, signatures=signatures
        )
    finally:
        if show is not None:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write("\r\033[K")


def encode_capture(
    capture: ScreenCapture, video: Path, speed: int
) -> tuple[Encoded, dict[str, Any]]:
    """``video`` from the grabs of a Fuse taken over, running at ``speed`` percent; and
    what rendering it said (run.json's ``video.captured``)."""
    info = capture.render(video, speed)
    encoded = Encoded(
        video=video if info["path"] else None,
        codec=info["codec"],
        video_frames=info["frames"] or 0,
        error=info["error"],
        seconds=info["seconds_to_encode"],
    )
    return encoded, info


def write_video_chapters(
    content: dict[str, Any],
    encoded: Encoded,
    state: RunState,
    frames_seen: FramesSeen | None,
    captured: dict[str, Any] | None,
) -> None:
    """Chapters (levels, menus, code screens, recoveries) into video.mp4 and
    annotated.mp4; ``content`` (run.json) says how many each got. ``captured``: what
    rendering a captured video said, for a Fuse taken over."""
    events = read_events(state.folder.events)
    levels = content.get("levels", [])
    if encoded.video is not None and encoded.video.is_file():
        timeline = Timeline.of_segments(_video_frames(encoded, captured))
        items = chapters(timeline, levels, events)
        failed = write_chapters(encoded.video, items)
        content["video"]["chapters"] = 0 if failed else len(items)
    annotated = content.get("annotated")
    if annotated and annotated.get("path") and frames_seen is not None:
        from logo_bot.bot.recording.annotated_video import segment_frames

        timeline = Timeline.of_segments(segment_frames(state, frames_seen))
        items = chapters(timeline, levels, events)
        failed = write_chapters(state.folder.annotated, items)
        annotated["chapters"] = 0 if failed else len(items)


def _video_frames(encoded: Encoded, captured: dict[str, Any] | None) -> dict[int, int]:
    """Emulated frames each segment has in video.mp4: Fuse's movie frames, or for a
    captured video its time at the measured speed (one segment)."""
    if not captured or not captured.get("frames"):
        return encoded.frames
    return {1: round(captured["captured_s"] * captured["speed"] / 100 * FPS)}


def _progress_line(name: str) -> Callable[[int], None] | None:
    """A callback that shows how far the video is, on a terminal only (a terminal gone
    meanwhile is no error)."""
    try:
        if not sys.stderr.isatty():
            return None
    except (OSError, ValueError):
        return None

    def show(frames: int) -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(f"\r\033[Kwriting {name}: {frames} frames ({frames / FPS:.0f} s)")
            sys.stderr.flush()

    return show
