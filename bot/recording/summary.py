"""``run.json``: what a finished (or stopped) run says about itself."""

from __future__ import annotations

import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from logo_bot.bot.errors import RzxError
from logo_bot.bot.frames import FPS
from logo_bot.bot.profile import show_config
from logo_bot.bot.recording import manifest
from logo_bot.bot.recording.encode import Encoded
from logo_bot.bot.recording.events import jsonable
from logo_bot.bot.recording.run_state import RunState
from logo_bot.bot.recording.rzx import frame_count
from logo_bot.bot.recording.scan import LevelSpan, span_of


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


def build_summary(
    rec: RunState, status: str, error: str | None, encoded: Encoded, at_once: bool = False
) -> dict[str, Any]:
    """The content of run.json (see recordings/run.schema.json); ``at_once``: for a forced
    end, which starts no program (ffmpeg's version is given only if known already)."""
    ended = rec.ended or time.time()
    segments = []
    for segment in rec.segments():
        try:
            rzx_frames = frame_count(segment.rzx) if segment.rzx else None
        except RzxError:
            rzx_frames = None
        segments.append(
            {
                "number": segment.number,
                "started": iso(segment.started_wall),
                "speed": segment.speed,
                "rzx": _relative(segment.rzx, rec.folder.path),
                "rzx_frames": rzx_frames,
                "movie": _relative(segment.movie, rec.folder.path),
                "movie_frames": encoded.frames.get(segment.number),
                "final_board": jsonable(encoded.final_boards.get(segment.number)),
            }
        )
    levels = _levels(rec, encoded.spans)
    report = rec.report
    corrections: dict[str, int] = {}
    for entry in levels:
        for kind, n in entry.get("corrections", {}).items():
            corrections[kind] = corrections.get(kind, 0) + n
    return {
        "schema": manifest.SCHEMA_VERSION,
        "name": rec.folder.name,
        "mode": rec.mode,
        "status": status,
        "error": error,
        "command": rec.command,
        "started": iso(rec.started),
        "ended": iso(ended),
        "seconds": round(ended - rec.started, 3),
        "versions": _versions(rec, at_once),
        "profile": _profile(rec),
        "session": rec.session_record,
        "requested": (
            {"first": rec.requested[0], "last": rec.requested[1]} if rec.requested else None
        ),
        "levels": levels,
        "totals": {
            **level_totals(levels),
            "corrections": corrections,
            "restarts": getattr(report, "restarts", 0),
            "events": rec.events.count,
        },
        "segments": segments,
        "frames": {
            "movie": sum(encoded.frames.values()) if encoded.frames else None,
            "rzx": (
                sum(s["rzx_frames"] for s in segments)
                if segments and all(s["rzx_frames"] is not None for s in segments)
                else None
            ),
        },
        "video": {
            "path": _relative(encoded.video, rec.folder.path),
            "codec": encoded.codec,
            "frames": encoded.video_frames if encoded.video else None,
            "zoom": rec.options.zoom,
            "seconds_to_encode": round(encoded.seconds, 3),
            "error": encoded.error if rec.options.video else "not recorded (--no-video)",
        },
        "annotated": None,
        "fuse": _fuse(rec),
        "key_timing": _key_timing(rec),
        "time_spent": getattr(rec.report, "time_spent", None),
    }


NO_RZX_ATTACHED = (
    "attached to a Fuse the bot did not start, which records no input: an exact replay "
    "needs a run the bot started itself"
)


def _fuse(rec: RunState) -> dict[str, Any]:
    attached = bool(rec.session and rec.session.attached)
    return {
        "attached": attached,
        "speed_measured": getattr(rec.report, "measured_speed", None),
        "no_rzx": NO_RZX_ATTACHED if attached else None,
        "killed_segments": list(rec.session.killed_segments) if rec.session else [],
    }


def _key_timing(rec: RunState) -> dict[str, Any] | None:
    """The key timing played with, and what the key probe found when it ran."""
    timing = getattr(rec.report, "key_timing", None)
    if timing is None:
        return None
    return {**timing, "probe": getattr(rec.report, "key_probe", None)}


def _levels(rec: RunState, spans: list[LevelSpan]) -> list[dict[str, Any]]:
    results = getattr(rec.report, "results", {}) or {}
    out = []
    for number in sorted(results):
        result = results[number]
        entry: dict[str, Any] = {
            "level": number,
            "status": result.status,
            "reason": result.reason,
            "attempts": result.attempts,
        }
        if result.report is not None:
            r = result.report
            entry.update(
                keys_sent=r.keys_sent,
                held_moves=r.held_moves,
                planned_presses=r.planned_presses,
                lower_bound=r.lower_bound,
                optimal=r.optimal,
                corrections=dict(r.corrections),
                seconds=round(r.seconds, 3),
                target=jsonable(r.target),
                end_board=jsonable(r.end_board),
            )
        entry.update(_frames_of(rec, number, spans) or _video_times(rec, number))
        out.append(entry)
    if rec.level_starts:
        last = rec.level_starts[-1].level
        if last not in results and (
            rec.requested is None or rec.requested[0] <= last <= rec.requested[1]
        ):
            entry = {"level": last, "status": "aborted", "reason": "the run stopped here"}
            entry.update(_frames_of(rec, last, spans))
            out.append(entry)
    return out


def _video_times(rec: RunState, level: int) -> dict[str, Any]:
    """An attached run's level in its captured video (one video second per emulated
    second): from the last time it was shown to the next level shown after it."""
    if not (rec.session and rec.session.attached):
        return {}
    starts = rec.level_starts
    for i in range(len(starts) - 1, -1, -1):
        start = starts[i]
        if start.level == level and start.frame is not None:
            nxt = starts[i + 1].frame if i + 1 < len(starts) else None
            return {
                "video_start_s": round(start.frame / FPS, 2),
                "video_end_s": round(nxt / FPS, 2) if nxt is not None else None,
            }
    return {}


def _frames_of(rec: RunState, level: int, spans: list[LevelSpan]) -> dict[str, Any]:
    """The movie frames of the last time ``level`` was shown."""
    result = (getattr(rec.report, "results", {}) or {}).get(level)
    target = result.report.target if result is not None and result.report is not None else None
    for start in reversed(rec.level_starts):
        if start.level != level or start.segment is None or start.frame is None:
            continue
        span = span_of(spans, start.segment, start.frame, target)
        if span is None:
            return {}
        return {
            "segment": span.segment,
            "start_frame": span.start,
            "end_frame": span.end,
            "movie_end_board": jsonable(span.end_board) if span.end_board else None,
        }
    return {}


def _versions(rec: RunState, at_once: bool) -> dict[str, Any]:
    config = rec.session.fuse.config if rec.session else None
    game = (config.snapshot or config.tape) if config else None
    fuse_log = rec.folder.path / "fuse.log"
    # ffmpeg's version is asked only of a run that makes a video: it decides nothing in
    # one without, and starting a program would slow the end of a stopped run
    run_tools = rec.options.video and not at_once
    return manifest.versions(config.rom if config else None, game, fuse_log, run_tools)


def _profile(rec: RunState) -> dict[str, Any] | None:
    if rec.profile is None:
        return None
    return {"name": rec.profile.name, "settings": tomllib.loads(show_config(rec.profile))}


def _relative(path: Path | None, root: Path) -> str | None:
    if path is None or not Path(path).exists():
        return None
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return str(path)


def level_totals(levels: list[dict[str, Any]]) -> dict[str, int]:
    """run.json's totals that add up its levels."""
    return {
        "levels_done": sum(1 for e in levels if e["status"] == "done"),
        "levels_failed": sum(1 for e in levels if e["status"] == "failed"),
        "keys_sent": sum(e.get("keys_sent", 0) for e in levels),
        "fewest_presses": sum(e.get("planned_presses", 0) for e in levels),
        "lower_bound": sum(e.get("lower_bound", 0) for e in levels),
    }
