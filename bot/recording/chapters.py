"""Chapters of a run's video: one per level, and the menus, code screens and recoveries
between them, written into the MP4 through ffmpeg's metadata so that players list them.

A video is a ``Timeline``: pieces of Fuse segments, one after the other (a restart of
Fuse shows as a cut). Levels are placed by their exact movie frames from run.json
(``start_frame``, ``end_frame``); what lies between them is named from the events, whose
frames are estimates from the wall clock.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logo_bot.bot import processes
from logo_bot.bot.frames import FPS, FRAME_MS

log = logging.getLogger(__name__)
RECOVERY_EVENTS = ("failure", "crash", "restart", "level_gone", "target_unsolvable")


@dataclass(frozen=True)
class Piece:
    """Frames ``first``..``first + frames - 1`` of segment ``segment``, in the video."""

    segment: int
    frames: int
    first: int = 0


@dataclass(frozen=True)
class Chapter:
    start: int  # video frame
    end: int  # first video frame after it
    title: str

    @property
    def start_s(self) -> float:
        return self.start / FPS

    @property
    def end_s(self) -> float:
        return self.end / FPS


class Timeline:
    """Where each (segment, frame) of the run lands in one video."""

    def __init__(self, pieces: Iterable[Piece]) -> None:
        self.pieces = [p for p in pieces if p.frames > 0]
        self.offsets: list[int] = []
        at = 0
        for piece in self.pieces:
            self.offsets.append(at)
            at += piece.frames
        self.frames = at

    @classmethod
    def of_segments(cls, frames: dict[int, int]) -> Timeline:
        """Whole segments in order: ``frames`` maps segment number -> frames in the video."""
        return cls(Piece(number, n) for number, n in sorted(frames.items()))

    @classmethod
    def of_run(cls, run: dict[str, Any]) -> Timeline:
        """The timeline of a run's video.mp4 (its segments' movie frames)."""
        frames = {
            s["number"]: s["movie_frames"] for s in run.get("segments", []) if s.get("movie_frames")
        }
        return cls.of_segments(frames)

    def at(self, segment: int | None, frame: int | None) -> int | None:
        """The video frame showing ``frame`` of ``segment``; None when the video lacks it."""
        if segment is None or frame is None:
            return None
        for piece, offset in zip(self.pieces, self.offsets, strict=True):
            if piece.segment == segment and piece.first <= frame < piece.first + piece.frames:
                return offset + frame - piece.first
        return None


def level_frames(
    levels: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]
) -> dict[int, tuple[int, int, int | None]]:
    """level -> (segment, start frame, end frame or None) of its last attempt: exact from
    run.json where the run had a movie, else estimated from the events."""
    out: dict[int, tuple[int, int, int | None]] = {}
    for entry in levels:
        if entry.get("start_frame") is not None and entry.get("segment") is not None:
            out[entry["level"]] = (entry["segment"], entry["start_frame"], entry.get("end_frame"))
    last = {level: (segment, start, end) for level, segment, start, end in attempts(events)}
    return {**last, **out}


def attempts(events: Sequence[dict[str, Any]]) -> list[tuple[int, int, int, int | None]]:
    """(level, segment, start, end or None) of every time a level was shown, estimated from
    ``level_shown`` to the next ``level_done`` or ``failure``, in order."""
    out: list[tuple[int, int, int, int | None]] = []
    open_at: dict[int, int] = {}  # level -> index in out
    for event in events:
        level, frame, segment = event.get("level"), event.get("frame"), event.get("segment")
        if level is None or frame is None or segment is None:
            continue
        name = event.get("event")
        if name == "level_shown":
            open_at[level] = len(out)
            out.append((level, segment, frame, None))
        elif name in ("level_done", "failure") and level in open_at:
            index = open_at.pop(level)
            _, seg, start, _ = out[index]
            if seg == segment and frame >= start:
                out[index] = (level, seg, start, frame)
    return out


def earlier_attempts(
    places: Sequence[tuple[int, int, int, int | None]],
    found: Sequence[tuple[int, int, int, int | None]],
) -> list[tuple[int, int, int, int | None]]:
    """The attempts ``found`` in the events that are not the ones ``places`` has (each
    level's last, exact from run.json): of a level's attempts in the segment of its
    place, the one estimated nearest to the place is the place itself, however far the
    wall clock put it (a second and more on a busy machine); the others came before."""
    same: set[int] = set()
    for level, segment, start, _ in places:
        mine = [i for i, a in enumerate(found) if a[0] == level and a[1] == segment]
        if mine:
            same.add(min(mine, key=lambda i: abs(found[i][2] - start)))
    return [a for i, a in enumerate(found) if i not in same]


def chapters(
    timeline: Timeline, levels: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]
) -> list[Chapter]:
    """The chapters of a video laid out as ``timeline``, covering it from start to end."""
    if timeline.frames == 0:
        return []
    marks: list[tuple[int, int, str]] = []  # (video frame, priority, title)
    spans: list[tuple[int, int]] = []
    places = [(lv, *place) for lv, place in level_frames(levels, events).items()]
    places += earlier_attempts(places, attempts(events))
    for level, segment, start, end in sorted(places, key=lambda p: (p[1], p[2])):
        begin = timeline.at(segment, start)
        if begin is None:
            continue
        stop = timeline.at(segment, end) if end is not None else None
        if stop is None:
            stop = _segment_end(timeline, segment)
        marks.append((begin, 0, f"Level {level}"))
        spans.append((begin, stop))
    last = max(spans, default=None)
    for begin, stop in spans:
        marks.append((stop, 2, "End" if (begin, stop) == last else "Between levels"))
    for index, piece in enumerate(timeline.pieces):
        title = "Menus" if piece.segment == 1 and piece.first == 0 else "Recovery: Fuse restarted"
        if index == 0 and piece.first > 0:
            title = "Before the level"
        marks.append((timeline.offsets[index], 3, title))
    for event in events:
        named = _event_title(event)
        frame = timeline.at(event.get("segment"), event.get("frame"))
        if named is None or frame is None:
            continue
        inside = next(((a, b) for a, b in spans if a <= frame < b), None)
        if inside is not None:
            if not named.startswith("Recovery"):
                continue  # the level goes on: its corrections are not chapters
            frame = inside[1]  # estimated a little early: the recovery follows the level
        marks.append((frame, 1, named))
    return _contiguous(marks, timeline.frames)


def _segment_end(timeline: Timeline, segment: int) -> int:
    ends = [
        offset + piece.frames
        for piece, offset in zip(timeline.pieces, timeline.offsets, strict=True)
        if piece.segment == segment
    ]
    return max(ends, default=timeline.frames)


def _event_title(event: dict[str, Any]) -> str | None:
    name = event.get("event")
    if name in RECOVERY_EVENTS:
        what = event.get("kind") or event.get("reason") or name
        return f"Recovery ({str(what).replace('_', ' ')})"
    if name == "enter":
        code = event.get("code")
        return f"Menus (code {code} for level {event.get('level')})" if code else "Menus"
    if name in ("code_seen",) or (name == "skip_screen" and event.get("screen") == "code"):
        return "Code screen"
    if name == "skip_screen":
        return f"{str(event.get('screen', 'screen')).replace('_', ' ').capitalize()} screen"
    return None


def _contiguous(marks: list[tuple[int, int, str]], total: int) -> list[Chapter]:
    """One chapter from each mark to the next; at one frame the most specific mark wins
    (a level over an event over a gap), and a repeated title goes on."""
    best: dict[int, tuple[int, str]] = {}
    for frame, priority, title in marks:
        if frame >= total:
            continue  # after the video's end (a level cut short)
        frame = max(frame, 0)
        if frame not in best or priority < best[frame][0]:
            best[frame] = (priority, title)
    if 0 not in best:
        best[0] = (9, "Start")
    starts = sorted(best)
    out: list[Chapter] = []
    for i, frame in enumerate(starts):
        title = best[frame][1]
        end = starts[i + 1] if i + 1 < len(starts) else total
        if out and out[-1].title == title and not title.startswith("Level "):
            out[-1] = Chapter(out[-1].start, end, title)
        else:
            out.append(Chapter(frame, end, title))
    return out


def ffmetadata(items: Sequence[Chapter]) -> str:
    """The chapters in ffmpeg's FFMETADATA format, in milliseconds."""
    lines = [";FFMETADATA1"]
    for chapter in items:
        lines += [
            "[CHAPTER]",
            "TIMEBASE=1/1000",
            f"START={round(chapter.start * FRAME_MS)}",
            f"END={round(chapter.end * FRAME_MS)}",
            f"title={_escape(chapter.title)}",
        ]
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    for char in "\\=;#\n":
        text = text.replace(char, "\\" + char)
    return text


def temporaries(video: Path) -> tuple[Path, Path]:
    """The files ``write_chapters`` makes beside ``video`` while it works: the chapters
    as ffmpeg reads them, and the copy with them (a forced end removes both)."""
    return video.with_name(video.name + ".chapters.txt"), video.with_name(
        video.stem + ".chapters.tmp.mp4"
    )


def write_chapters(video: Path, items: Sequence[Chapter]) -> str | None:
    """Put ``items`` into ``video`` (a copy of its streams, then a rename); returns None,
    or why not (no ffmpeg, ffmpeg failed), which is logged too: the video stays as it was."""
    if not items:
        return "no chapters"
    binary = shutil.which("ffmpeg")
    if binary is None:
        log.warning("no chapters in %s: ffmpeg is not installed", video.name)
        return "ffmpeg is not installed"
    meta, tmp = temporaries(video)
    meta.write_text(ffmetadata(items), encoding="utf-8")
    command = [binary, "-y", "-loglevel", "error", "-nostdin", "-i", str(video), "-i", str(meta)]
    command += ["-map", "0", "-map_metadata", "1", "-map_chapters", "1", "-c", "copy"]
    command += ["-movflags", "+faststart", str(tmp)]
    try:
        result = processes.run(command)
        if result.returncode != 0:
            why = result.stderr.strip().splitlines()[-1:] or [f"exit {result.returncode}"]
            log.warning("no chapters in %s: ffmpeg: %s", video.name, why[0])
            return f"ffmpeg: {why[0]}"
        os.replace(tmp, video)
        return None
    finally:
        meta.unlink(missing_ok=True)
        tmp.unlink(missing_ok=True)


def read_chapters(video: Path) -> list[tuple[float, float, str]]:
    """(start s, end s, title) of each chapter in ``video``, read by ffprobe."""
    binary = shutil.which("ffprobe")
    if binary is None:
        return []
    command = [binary, "-v", "error", "-show_chapters", "-of", "json", str(video)]
    result = processes.run(command)
    if result.returncode != 0:
        return []
    return [
        (float(c["start_time"]), float(c["end_time"]), c.get("tags", {}).get("title", ""))
        for c in json.loads(result.stdout or "{}").get("chapters", [])
    ]
