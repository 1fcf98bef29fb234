"""faults/folder_check.py on made-up run folders."""

from __future__ import annotations

import json

import pytest

from faults.folder_check import check_folder
from tests.bot.recording.run_folders import level, make_run

FUSE_STARTED = {"event": "fuse_started", "frame": 0, "pid": 1, "display": ":1"}
STOPPED = "interrupted: stopped by SIGTERM ('logo-bot replay RUN --headless' makes one)"


@pytest.mark.parametrize(("status", "valid"), [("aborted", True), ("complete", False)])
def test_only_an_aborted_run_may_lack_the_video_it_was_stopped_writing(tmp_path, status, valid):
    name = f"20261125T000000Z-{status}"
    folder = make_run(tmp_path, name, [level(1)], [FUSE_STARTED], status=status, video=False)
    run = json.loads((folder / "run.json").read_text())
    run["video"]["error"] = STOPPED
    (folder / "run.json").write_text(json.dumps(run))
    (folder / "report.html").write_text("<html></html>")
    check = check_folder(folder, status=status)
    assert check.ok is valid, check.problems
    if not valid:
        assert check.problems == [f"no video: {STOPPED}"]


@pytest.mark.parametrize(("fuse_started", "valid"), [(False, True), (True, False)])
def test_a_run_stopped_before_its_fuse_started_has_no_segment(tmp_path, fuse_started, valid):
    folder = make_run(
        tmp_path,
        "20261125T000000Z-walkthrough",
        [],
        events=[FUSE_STARTED] if fuse_started else [],
        status="aborted",
        error="stopped by SIGTERM",
        video=False,
    )
    run = json.loads((folder / "run.json").read_text())
    run["segments"], run["frames"]["movie"] = [], None
    (folder / "run.json").write_text(json.dumps(run))
    (folder / "report.html").write_text("<html></html>")
    check = check_folder(folder, status="aborted")
    assert check.ok is valid, check.problems
    if not valid:
        assert check.problems == ["0 segments for 0 restarts"]


RESTART = {"event": "restart", "frame": 300, "reason": "Fuse has stopped (exit -9)"}
KEYS = {"event": "keys", "frame": 310, "keys": ["p"], "met": True, "level": 1}


@pytest.mark.parametrize(
    ("after", "status", "valid"),
    [([], "aborted", True), ([KEYS], "aborted", False), ([], "complete", False)],
)
def test_an_aborted_run_may_end_inside_its_last_restart(tmp_path, after, status, valid):
    """Stopped while the restarted Fuse started: that Fuse never ran, so no segment."""
    events = [FUSE_STARTED, RESTART, *after, {"event": "run_end", "frame": 320}]
    folder = make_run(tmp_path, "20261125T000000Z-x", [], events, status=status, video=False)
    (folder / "report.html").write_text("<html></html>")
    check = check_folder(folder, status=status)
    assert check.ok is valid, check.problems
    if not valid:
        assert check.problems == ["1 segments for 1 restarts"]
