"""Is a run folder complete and valid? What the chaos benchmark and the fault tests ask.

Complete: ``run.json`` and ``events.jsonl`` are there and follow their schemas
(``recordings/*.schema.json``), the video holds as many frames as ``run.json`` says (a
run stopped while its video was written has none, says it is unfinished, and leaves no
half-written file), every input recording it names exists, and so does ``report.html``.
Valid also means consistent with itself: run.json, the last ``run_end`` of events.jsonl
and report.html name the same status (complete, failed or aborted), the levels it lists
as done have their target as end board, and every restart and crash noted in the events
is there (a run stopped before its Fuse started has no segment, nor a restart it
stopped in). A killed run (its bot died first: SIGKILL) has events.jsonl and no live
writer holds it; it has no run.json, or the one written as play ended (``writing``: it
died writing the video), no video file that does not play, and no temporary file (its
reaper removed them: ``bot.reaper``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logo_bot.bot.installation import PACKAGES_ROOT as REPO_ROOT
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.run_videos import temporary_files
from logo_bot.bot.recording.unfinished import read_run

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


STATUSES = ("complete", "failed", "aborted", "killed")


def check_folder(path: Path, status: str | None = "complete") -> FolderCheck:
    """Every problem found in the run folder ``path`` (none: complete and valid);
    ``status`` is the one expected (one of ``STATUSES``), None for any."""
    check = FolderCheck(Path(path))
    run_json, events = check.path / "run.json", check.path / "events.jsonl"
    state = RunFolder(check.path).state
    if state != "finished" and events.is_file():
        return _unfinished(check, state, status)
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
    _agree(check)
    return check


def _unfinished(check: FolderCheck, state: str, status: str | None) -> FolderCheck:
    """A folder whose bot has not written its last run.json: killed (valid when a
    killed run is expected, and holding no video that does not play) or still being
    written."""
    check.events = read_events(check.path / "events.jsonl")
    check.run = read_run(RunFolder(check.path))
    _schemas(check, run=False)
    if state == "running":
        check.problems.append("the run is still being written: its last run.json is missing")
    elif status is not None and status != "killed":
        check.problems.append(f"the run was killed (its last run.json is missing), not {status!r}")
    for name in ("video.mp4", "annotated.mp4"):
        path = check.path / name
        if path.exists() and _frames(path) in (None, 0) and shutil.which("ffprobe"):
            check.problems.append(f"{name} is left, and does not play")
    left = [p for p in temporary_files(RunFolder(check.path)) if p.exists()]
    left += sorted(check.path.glob("run.json.*.tmp"))  # write_json's, from any thread
    if left and state == "killed":
        check.problems.append(f"temporary files left: {', '.join(p.name for p in left)}")
    return check


def _agree(check: FolderCheck) -> None:
    """run.json, the last run_end and report.html say the same."""
    status, error = check.run.get("status"), check.run.get("error")
    ends = [e for e in check.events if e.get("event") == "run_end"]
    if not ends:
        check.problems.append("events.jsonl has no run_end")
    elif (ends[-1].get("status"), ends[-1].get("error")) != (status, error):
        end = ends[-1]
        check.problems.append(
            f"run_end says {end.get('status')!r} ({end.get('error')!r}), "
            f"run.json {status!r} ({error!r})"
        )
    report = check.path / "report.html"
    if not report.is_file():
        check.problems.append("report.html is missing (Recording.finish writes it)")
        return
    page = report.read_text(encoding="utf-8", errors="replace")
    shown = re.search(r"<span class='status ([a-z]+)'>", page)
    if shown is None or shown.group(1) != status:
        check.problems.append(
            f"report.html says {shown.group(1) if shown else None!r}, run.json {status!r}"
        )
    unfinished = bool((check.run.get("video") or {}).get("unfinished"))
    unfinished &= not (check.path / "replay.mp4").is_file()  # made later: the page shows it
    if unfinished != ("status unfinished" in page):
        check.problems.append("report.html and run.json disagree on an unfinished video")


def _segments(check: FolderCheck) -> None:
    """One segment per Fuse the run started: none when it stopped before its first, and
    none for a last restart that a stop cut short (then ``run_end`` follows it at once)."""
    segments, restarts = len(check.run.get("segments", [])), check.count("restart")
    if not check.count("fuse_started") + check.count("fuse_attached"):
        if segments:
            check.problems.append(f"{segments} segments and no Fuse started")
        return
    kinds = [e.get("event") for e in check.events]
    after_restart = kinds[len(kinds) - kinds[::-1].index("restart") :] if restarts else []
    cut_short = (  # stopped in the restart (a forced end adds a second run_end)
        check.run.get("status") == "aborted" and after_restart and set(after_restart) == {"run_end"}
    )
    if segments != 1 + restarts and not (cut_short and segments == restarts):
        check.problems.append(f"{segments} segments for {restarts} restarts")


def _schemas(check: FolderCheck, run: bool = True) -> None:
    try:
        import jsonschema
    except ImportError:
        check.problems.append("cannot check the schemas: jsonschema is not installed")
        return
    run_schema = json.loads((SCHEMAS / "run.schema.json").read_text())
    event_schema = json.loads((SCHEMAS / "event.schema.json").read_text())
    try:
        if run:
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
    if video.get("unfinished"):  # a stop cut its writing short: no file, and it says so
        if video.get("path") or not str(video.get("error") or "").startswith("unfinished"):
            check.problems.append(f"an unfinished video with {video.get('path')!r}")
        for name in ("video.mp4", "video.ffmpeg.log"):
            if (check.path / name).exists():
                check.problems.append(f"{name} is left, though the video is unfinished")
        return
    if not video.get("path"):
        error = video.get("error") or ""
        if error and "not recorded" not in error:
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
