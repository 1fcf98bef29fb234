"""faults/folder_check.py on made-up run folders."""

from __future__ import annotations

import json

import pytest

from faults.folder_check import check_folder
from tests.bot.recording.run_folders import level, make_run

STOPPED = "interrupted: stopped by SIGTERM ('logo-bot replay RUN --headless' makes one)"


@pytest.mark.parametrize(("status", "valid"), [("aborted", True), ("complete", False)])
def test_only_an_aborted_run_may_lack_the_video_it_was_stopped_writing(tmp_path, status, valid):
    folder = make_run(
        tmp_path, f"20261125T000000Z-{status}", [level(1)], status=status, video=False
    )
    run = json.loads((folder / "run.json").read_text())
    run["video"]["error"] = STOPPED
    (folder / "run.json").write_text(json.dumps(run))
    (folder / "report.html").write_text("<html></html>")
    check = check_folder(folder, status=status)
    assert check.ok is valid, check.problems
    if not valid:
        assert check.problems == [f"no video: {STOPPED}"]
