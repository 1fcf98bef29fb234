"""Run folders written in a temporary folder for the report's unit tests: run.json and
events.jsonl as a run writes them, real PNG pictures, and a real (tiny) H.264 video."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from PIL import Image

from logo_bot.bot.fuse.assembly import SessionOptions, run_record
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.play.unattended import RunReport
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.bot.recording.video import open_video

NASTY = "<script>alert('x')</script> & \"quoted\""
TARGET = ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]


def level(number: int, status: str = "done", **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"level": number, "status": status, "reason": None, "attempts": 1}
    if status == "done":
        entry.update(
            keys_sent=17 + number, planned_presses=17, lower_bound=16, optimal=False,
            corrections={}, seconds=0.5 * number, target=TARGET, end_board=TARGET,
        )  # fmt: skip
    entry.update(extra)
    return entry


def corrections_by_kind(levels: list[dict[str, Any]]) -> dict[str, int]:
    """The levels' corrections added up by kind, as run.json's totals hold them."""
    total: Counter[str] = Counter()
    for entry in levels:
        total.update(entry.get("corrections") or {})
    return dict(total)


def make_run(
    root: Path,
    name: str,
    levels: list[dict[str, Any]],
    events: list[dict[str, Any]] | None = None,
    status: str = "complete",
    error: str | None = None,
    segments: dict[int, int] | None = None,
    video: bool = True,
) -> Path:
    """A run folder ``root/name``; ``segments`` maps segment -> movie frames (the video
    holds them all, one after the other)."""
    folder = root / name
    (folder / "failures").mkdir(parents=True)
    segments = segments or {1: 400}
    picture = np.zeros((240, 320, 3), dtype=np.uint8)
    picture[40:140, 48:208] = (0, 0, 192)
    for entry in levels:
        level_dir = folder / "levels" / f"{entry['level']:03d}"
        level_dir.mkdir(parents=True)
        Image.fromarray(picture).save(level_dir / "start.png")
        if entry["status"] == "done":
            Image.fromarray(picture).save(level_dir / "end.png")
    t0 = 1795469873.0
    lines = [{"t": t0, "event": "run_start", "frame": None, "segment": None}]
    for event in events or []:
        if event.get("picture"):
            Image.fromarray(picture).save(folder / event["picture"])
        lines.append({"t": t0 + event.get("frame", 0) / 50.08, "segment": 1, **event})
    if not any(line["event"] == "run_end" for line in lines):  # as Recording.finish writes it
        end = {"t": t0 + 10, "event": "run_end", "frame": None, "segment": None}
        lines.append({**end, "status": status, "error": error})
    (folder / "events.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    total = sum(segments.values())
    video_info: dict[str, Any] = {
        "path": None, "codec": None, "frames": None, "zoom": 2, "seconds_to_encode": 0.0,
        "error": "not recorded (--no-video)",
    }  # fmt: skip
    if video:
        with open_video(folder / "video.mp4", (64, 48)) as writer:
            for frame in range(total):
                writer.write(np.full((48, 64, 3), frame % 256, dtype=np.uint8))
        video_info.update(path="video.mp4", codec="h264", frames=total, error=None)
    run = {
        "schema": 1,
        "name": name,
        "mode": "walkthrough",
        "status": status,
        "error": error,
        "command": ["logo-bot", "walkthrough", "--levels", "1-3"],
        "started": "2026-11-23T21:37:53.000+00:00",
        "ended": "2026-11-23T21:38:03.000+00:00",
        "seconds": 10.0,
        "versions": {"logo_bot": "0.1.0", "python": "3.11.7", "fuse": "1.6.0",
                     "skoolkit": "10.1", "ffmpeg": None,
                     "rom": {"path": None, "sha256": None},
                     "game": {"path": "game/build/practice.z80", "sha256": "a" * 64}},
        "profile": None,
        "session": {"speed": 200, "scale": 1, "headless": True},
        "requested": {"first": 1, "last": 3},
        "levels": levels,
        "totals": {
            "levels_done": sum(1 for e in levels if e["status"] == "done"),
            "levels_failed": sum(1 for e in levels if e["status"] == "failed"),
            "keys_sent": sum(e.get("keys_sent", 0) for e in levels),
            "fewest_presses": sum(e.get("planned_presses", 0) for e in levels),
            "lower_bound": sum(e.get("lower_bound", 0) for e in levels),
            "corrections": corrections_by_kind(levels),
            "restarts": len(segments) - 1,
            "events": len(lines),
        },
        "segments": [
            {"number": n, "started": "2026-11-23T21:37:53.000+00:00", "speed": 200,
             "rzx": None, "rzx_frames": None, "movie": None,
             "movie_frames": frames if video else None, "final_board": None}
            for n, frames in sorted(segments.items())
        ],
        "frames": {"movie": total if video else None, "rzx": None},
        "video": video_info,
        "annotated": None,
    }  # fmt: skip
    (folder / "run.json").write_text(json.dumps(run, indent=2))
    return folder


def fake_session(folder) -> SimpleNamespace:
    """What a recording reads of its session: one segment, with the run folder's movie
    and input recording, of a Fuse the bot started."""
    return SimpleNamespace(
        segments=[Segment(1, 0.0, 0.0, 100, folder.rzx, folder.movie)],
        run_record=run_record(SessionOptions()),
        attached=False,
        killed_segments=[],
        fuse=SimpleNamespace(config=None),
    )


def started_run(root: Path, last: int, status: str) -> Recording:
    """A walkthrough's recording of levels 1 to ``last`` as play ended with ``status``: its
    folder under ``root`` with Fuse's movie and input recording as placeholders (the
    movie's frames are what the test has ``encode.read_frames`` give), a Fuse started."""
    recording = Recording.start(RecordOptions(root), "walkthrough", ["x"], load_profile("practice"))
    folder = recording.folder
    folder.movie.write_bytes(b"FMF")
    folder.rzx.write_bytes(b"RZX")
    recording.state.session = fake_session(folder)
    recording.event("fuse_started", pid=1, display=":1")
    recording.requested = (1, last)
    recording.report = RunReport(1, last, status=status)
    return recording
