"""faults/folder_check.py on made-up run folders: complete, failed, aborted and killed
runs, and run.json, run_end and report.html that must agree."""

from __future__ import annotations

import json

import pytest

from faults.folder_check import check_folder
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.report_page import write_report
from tests.bot.recording.run_folders import level, make_run

FUSE_STARTED = {"event": "fuse_started", "frame": 0, "pid": 1, "display": ":1"}
UNFINISHED = (
    "unfinished: stopped by SIGTERM while it was written; 'logo-bot replay RUN --headless' makes it"
)


def edit_run(folder, **changes) -> None:
    run = json.loads((folder / "run.json").read_text())
    for key, value in changes.items():
        if isinstance(value, dict):
            run[key].update(value)
        else:
            run[key] = value
    (folder / "run.json").write_text(json.dumps(run))


def reported(folder):
    """The folder with its real report.html."""
    write_report(RunFolder(folder))
    return folder


def stub_page(folder):
    """The folder with a report.html that says only run.json's status (quicker, for the
    checks that are not about the page)."""
    status = json.loads((folder / "run.json").read_text())["status"]
    (folder / "report.html").write_text(f"<h1>x <span class='status {status}'>{status}</span>")
    return folder


@pytest.mark.parametrize("status", ["complete", "failed", "aborted"])
def test_a_video_unfinished_by_a_stop_is_valid_whatever_the_status(tmp_path, status):
    error = None if status == "complete" else "stopped by SIGTERM"
    folder = make_run(tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED],
                      status=status, error=error, video=False)  # fmt: skip
    edit_run(folder, video={"error": UNFINISHED, "unfinished": True})
    check = check_folder(reported(folder), status=status)
    assert check.ok, check.problems


def test_an_unfinished_video_must_leave_no_file(tmp_path):
    folder = make_run(tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED],
                      video=False)  # fmt: skip
    edit_run(folder, video={"error": UNFINISHED, "unfinished": True})
    (folder / "video.mp4").write_bytes(b"half of one")
    check = check_folder(reported(folder))
    assert check.problems == ["video.mp4 is left, though the video is unfinished"]


def test_a_missing_video_not_marked_unfinished_is_a_problem(tmp_path):
    folder = make_run(tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED],
                      video=False)  # fmt: skip
    edit_run(folder, video={"error": "interrupted: stopped by SIGTERM"})
    check = check_folder(stub_page(folder))
    assert check.problems == ["no video: interrupted: stopped by SIGTERM"]


@pytest.mark.parametrize(
    ("end", "problem"),
    [
        ({"status": "complete", "error": None}, None),
        ({"status": "aborted", "error": "stopped by SIGTERM"},
         "run_end says 'aborted' ('stopped by SIGTERM'), run.json 'complete' (None)"),
        (None, "events.jsonl has no run_end"),
    ],
)  # fmt: skip
def test_run_end_must_say_what_run_json_says(tmp_path, end, problem):
    events = [FUSE_STARTED]
    if end is not None:
        events.append({"event": "run_end", "frame": 300, **end})
    folder = make_run(tmp_path, "20261125T000000Z-walkthrough", [level(1)], events, video=False)
    if end is None:
        path = folder / "events.jsonl"
        lines = path.read_text().splitlines()
        path.write_text("".join(f"{x}\n" for x in lines if '"run_end"' not in x))
    check = check_folder(stub_page(folder))
    assert check.problems == ([problem] if problem else [])


def test_the_report_must_say_what_run_json_says(tmp_path):
    folder = make_run(
        tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED], video=False
    )
    reported(folder)
    edit_run(folder, status="failed", error="x")  # the report is now out of date
    events = folder / "events.jsonl"
    lines = events.read_text().splitlines()[:-1]
    end = {"t": 1, "event": "run_end", "frame": None, "segment": None, "status": "failed"}
    events.write_text("".join(f"{x}\n" for x in lines) + json.dumps({**end, "error": "x"}) + "\n")
    check = check_folder(folder, status="failed")
    assert check.problems == ["report.html says 'complete', run.json 'failed'"]
    reported(folder)
    assert check_folder(folder, status="failed").ok


def test_a_killed_run_has_events_and_no_run_json(tmp_path):
    folder = make_run(
        tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED], video=False
    )
    (folder / "run.json").unlink()
    assert check_folder(folder, status="killed").ok
    assert check_folder(folder, status=None).run["status"] == "killed"
    check = check_folder(folder, status="aborted")
    assert check.problems == ["the run was killed (its last run.json is missing), not 'aborted'"]


def test_a_run_killed_while_its_folder_was_written_reads_as_killed(tmp_path):
    """Its bot died after the run.json written as play ended (which says ``writing``):
    the folder is killed, with the levels and the range asked from that run.json."""
    folder = make_run(
        tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED], video=False
    )
    edit_run(folder, writing=True, requested={"first": 1, "last": 3})
    assert check_folder(folder, status="complete").problems == [
        "the run was killed (its last run.json is missing), not 'complete'"
    ]
    check = check_folder(folder, status="killed")
    assert check.ok, check.problems
    assert check.run["status"] == "killed"
    assert check.run["error"].startswith("the bot ended while it wrote the folder after play")
    assert "play had ended complete" in check.run["error"]
    assert check.run["requested"] == {"first": 1, "last": 3}


@pytest.mark.ffmpeg
def test_a_killed_run_may_not_leave_a_video_that_does_not_play(tmp_path):
    folder = make_run(
        tmp_path, "20261125T000000Z-walkthrough", [level(1)], [FUSE_STARTED], video=False
    )
    edit_run(folder, writing=True)
    (folder / "video.mp4").write_bytes(b"\0\0\0\x1cftypisom" + bytes(36))  # begun, never ended
    assert check_folder(folder, status="killed").problems == [
        "video.mp4 is left, and does not play"
    ]
    (folder / "video.mp4").rename(folder / "video.mp4.part")  # what a killed writer leaves
    assert check_folder(folder, status="killed").problems == [
        "temporary files left: video.mp4.part"
    ], "its reaper removes it"
    (folder / "video.mp4.part").unlink()
    assert check_folder(folder, status="killed").ok


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
    check = check_folder(stub_page(folder), status="aborted")
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
    end = {"event": "run_end", "frame": 320, "status": status, "error": None}
    events = [FUSE_STARTED, RESTART, *after, end]
    folder = make_run(tmp_path, "20261125T000000Z-x", [], events, status=status, video=False)
    check = check_folder(stub_page(folder), status=status)
    assert check.ok is valid, check.problems
    if not valid:
        assert check.problems == ["1 segments for 1 restarts"]
