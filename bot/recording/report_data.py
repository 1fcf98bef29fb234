"""What a run's report shows, gathered from its folder: run.json, events.jsonl and the
pictures, for runs that completed, failed, were aborted or have no video."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logo_bot.bot.frames import FPS
from logo_bot.bot.recording.chapters import Timeline, level_frames
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.unfinished import read_run

REPLAY = "replay.mp4"  # what 'logo-bot replay RUN --headless' writes
PICTURE_EVENTS = ("correction", "unreadable", "failure", "level_gone", "target_unsolvable")


@dataclass
class Mark:
    """Something that happened in a level and left a picture (or not)."""

    event: str
    kind: str
    picture: str | None  # relative to the run folder


@dataclass
class LevelRow:
    level: int
    entry: dict[str, Any]
    video_s: float | None  # where the level starts in video.mp4
    marks: list[Mark] = field(default_factory=list)
    start_png: str | None = None
    end_png: str | None = None
    read_target: list[str] | None = None  # from the events, for a level that failed

    @property
    def target(self) -> list[str] | None:
        return self.entry.get("target") or self.read_target

    def get(self, key: str, default: Any = None) -> Any:
        return self.entry.get(key, default)


@dataclass
class RunData:
    folder: Path
    run: dict[str, Any]
    events: list[dict[str, Any]]
    rows: list[LevelRow]
    video: str | None  # relative path of video.mp4, when it is there
    annotated: str | None

    @property
    def name(self) -> str:
        return str(self.run.get("name") or self.folder.name)

    @property
    def totals(self) -> dict[str, Any]:
        return self.run.get("totals") or {}

    @property
    def requested(self) -> int:
        wanted = self.run.get("requested") or {}
        if wanted.get("first") is not None and wanted.get("last") is not None:
            return wanted["last"] - wanted["first"] + 1
        return len(self.rows)

    @property
    def speed(self) -> int | None:
        return (self.run.get("session") or {}).get("speed")

    def count(self, event: str) -> int:
        return sum(1 for e in self.events if e.get("event") == event)

    def failures_by_kind(self) -> Counter[str]:
        return Counter(
            str(e.get("kind") or "failure") for e in self.events if e.get("event") == "failure"
        )

    @property
    def t0(self) -> float | None:
        return self.events[0]["t"] if self.events and "t" in self.events[0] else None


def load(folder: RunFolder) -> RunData:
    """A run's report data (a run killed or still running: what its events say);
    ``InputError`` when its run.json cannot be read."""
    run = read_run(folder)
    events = read_events(folder.events) if folder.events.is_file() else []
    video = _file(folder.path, (run.get("video") or {}).get("path"))
    annotated = _file(folder.path, (run.get("annotated") or {}).get("path"))
    timeline = Timeline.of_run(run)
    if video is None and (folder.path / REPLAY).is_file():
        # made later by 'logo-bot replay RUN --headless': every recorded frame, in order
        video = REPLAY
        frames = {s["number"]: s.get("rzx_frames") or 0 for s in run.get("segments", [])}
        timeline = Timeline.of_segments({n: f for n, f in frames.items() if f})
    places = level_frames(run.get("levels", []), events)
    marks: dict[int, list[Mark]] = {}
    targets: dict[int | None, list[str]] = {}  # by the event's level
    for event in events:
        if event.get("event") == "target" and isinstance(event.get("target"), list):
            targets[event.get("level")] = event["target"]
        if event.get("event") in PICTURE_EVENTS and event.get("level") is not None:
            kind = event.get("kind") or event.get("what") or event.get("event")
            picture = _file(folder.path, event.get("picture"))
            marks.setdefault(event["level"], []).append(Mark(event["event"], str(kind), picture))
    rows = []
    for entry in run.get("levels", []):
        number = entry["level"]
        place = places.get(number)
        frame = timeline.at(place[0], place[1]) if place and video else None
        start_s = None if frame is None else frame / FPS
        if start_s is None and video and entry.get("video_start_s") is not None:
            start_s = entry["video_start_s"]  # an attached run: its captured video
        level_dir = folder.level_dir(number).relative_to(folder.path)
        rows.append(
            LevelRow(
                number,
                entry,
                start_s,
                marks.get(number, []),
                _file(folder.path, str(level_dir / "start.png")),
                _file(folder.path, str(level_dir / "end.png")),
                targets.get(number),
            )
        )
    return RunData(folder.path, run, events, rows, video, annotated)


def _file(root: Path, relative: str | None) -> str | None:
    """``relative`` when that file exists in the run folder (as a relative path)."""
    if not relative:
        return None
    path = Path(relative)
    if path.is_absolute():
        try:
            path = path.relative_to(root)
        except ValueError:
            return None
    return path.as_posix() if (root / path).is_file() else None


def keys_over_time(data: RunData) -> tuple[list[float], list[int]]:
    """(seconds since the start, cumulative keys) after each key burst inside a level (the
    key probe's bursts are left out: they are not the level's keys)."""
    t0 = data.t0
    times: list[float] = []
    keys: list[int] = []
    total = 0
    playing = False
    for event in data.events:
        name = event.get("event")
        if name == "level_shown":
            playing = True
        elif name in ("level_done", "failure", "level_gone", "crash", "restart"):
            playing = False
        elif name == "keys" and event.get("probe"):
            continue
        elif name == "keys" and playing and isinstance(event.get("keys"), list) and t0:
            total += len(event["keys"])
            times.append(event["t"] - t0)
            keys.append(total)
    return times, keys


def moments(data: RunData, names: tuple[str, ...]) -> list[float]:
    """Seconds since the start of each event named in ``names``."""
    t0 = data.t0
    if t0 is None:
        return []
    return [e["t"] - t0 for e in data.events if e.get("event") in names and "t" in e]
