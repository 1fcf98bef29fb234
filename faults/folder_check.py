"""Is a run folder complete and valid? What the chaos benchmark and the fault tests ask.

Complete: ``run.json`` and ``events.jsonl`` are there and follow their schemas
(``recordings/*.schema.json``), the video holds as many frames as ``run.json`` says (a
run aborted while its video was written has none, and says so), every input recording
it names exists, and so does ``report.html``. Valid also means
consistent with itself: the levels it lists as done have their target as end board,
and every restart and crash noted in the events is there (a run stopped before its
Fuse started has no segment, nor a restart it stopped in).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.installation import PACKAGES_ROOT as REPO_ROOT
from bot.recording.events import read_events

SCHEMAS = REPO_ROOT / "recordings"


@dataclass
class FolderCheck:
    path: Path
    problems: list[str] = field(default_factory=list)
    run: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def count(self, event: str) -> int:
        return sum(1 for e in self.events if e.get("event") == event)


def check_folder(path: Path, status: str | None = "complete") -> FolderCheck:
    """Every problem found in the run folder ``path`` (none: complete and valid)."""
    check = FolderCheck(Path(path))
    run_json, events = check.path / "run.json", check.path / "events.jsonl"
    for needed in (run_json, events):
        if not needed.is_file():
            check.problems.append(f"{needed.name} is missing")
    if check.problems:
        return check
    check.run = json.loads(run_json.read_text())
    check.events = read_events(events)
    _schemas(check)
    run = check.run
    if status is not None and run.get("status") != status:
        check.problems.append(f"status is {run.get('status')!r}, not {status!r}")
    for entry in run.get("levels", []):
        if entry.get("status") == "done" and entry.get("target") != entry.get("end_board"):
            check.problems.append(f"level {entry['level']} is done but its end board differs")
    for segment in run.get("segments", []):
        rzx = segment.get("rzx")
        if rzx and not (check.path / rzx).is_file():
            check.problems.append(f"segment {segment['number']}: {rzx} is missing")
    _segments(check)
    _video(check)
    if not (check.path / "report.html").is_file():
        check.problems.append("report.html is missing (Recording.finish writes it)")
    return check


def _segments(check: FolderCheck) -> None:
    """One segment per Fuse the run started: none when it stopped before its first, and
    none for a last restart that a stop cut short (then ``run_end`` follows it at once)."""
    segments, restarts = len(check.run.get("segments", [])), check.count("restart")
    if not check.count("fuse_started") + check.count("fuse_attached"):
        if segments:
            check.problems.append(f"{segments} segments and no Fuse started")
        return
    kinds = [e.get("event") for e in check.events]
    cut_short = (
        check.run.get("status") == "aborted"
        and restarts
        and kinds[len(kinds) - 1 - kinds[::-1].index("restart") :] == ["restart", "run_end"]
    )
    if segments != 1 + restarts and not (cut_short and segments == restarts):
        check.problems.append(f"{segments} segments for {restarts} restarts")


def _schemas(check: FolderCheck) -> None:
    try:
        import jsonschema
    except ImportError:
        check.problems.append("cannot check the schemas: jsonschema is not installed")
        return
    run_schema = json.loads((SCHEMAS / "run.schema.json").read_text())
    event_schema = json.loads((SCHEMAS / "event.schema.json").read_text())
    try:
        jsonschema.validate(check.run, run_schema, format_checker=jsonschema.FormatChecker())
    except jsonschema.ValidationError as exc:
        check.problems.append(f"run.json does not follow its schema: {exc.message}")
    for number, event in enumerate(check.events, 1):
        try:
            jsonschema.validate(event, event_schema)
        except jsonschema.ValidationError as exc:
            check.problems.append(f"events.jsonl line {number}: {exc.message}")
            break


def _video(check: FolderCheck) -> None:
    video = check.run.get("video") or {}
    if not video.get("path"):
        error = video.get("error") or ""
        # stopped while it was written: an aborted run has no video and says so
        stopped = error.startswith("interrupted") and check.run.get("status") == "aborted"
        if error and "not recorded" not in error and not stopped:
            check.problems.append(f"no video: {error}")
        return
    path = check.path / video["path"]
    if not path.is_file():
        check.problems.append(f"{video['path']} is missing")
        return
    frames = _frames(path)
    if frames is not None and frames != video.get("frames"):
        check.problems.append(f"{path.name} has {frames} frames, run.json says {video['frames']}")


def _frames(path: Path) -> int | None:
    ffprobe = shutil.which("ffprobe")
    if ffprobe is None:
        return None
    entries = ["-show_entries", "stream=nb_read_packets", "-of", "csv=p=0"]
    result = subprocess.run(
        [ffprobe, "-v", "error", "-count_packets", "-select_streams", "v:0", *entries, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    text = result.stdout.strip()
    return int(text) if text.isdigit() else None
