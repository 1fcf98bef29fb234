"""End-to-end: a walkthrough whose Fuse never gets the focus back stops with exit 6 and a
finished run folder, instead of waiting for ever."""

from __future__ import annotations

import time

import pytest

from bot.recording.events import read_events
from faults.folder_check import check_folder
from faults.thief import FocusThief
from tests.bot.bot_process import bot_process

pytestmark = pytest.mark.fuse


def test_a_focus_that_never_returns_ends_the_run_with_exit_6(xserver, tmp_path):
    root = tmp_path / "runs"
    args = ["walkthrough", "--levels", "1-3", "--display", xserver.display, "--no-take-focus"]
    args += ["--focus-timeout", "2", "--video-dir", str(root)]
    with (
        FocusThief(xserver.display, tmp_path / "keys.jsonl") as thief,
        bot_process(args) as process,
    ):
        deadline = time.monotonic() + 120
        while not [
            e
            for path in root.glob("*/events.jsonl")
            for e in read_events(path)
            if e["event"] == "keys" and e.get("level") == 1
        ]:
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "level 1 was never played"
            time.sleep(0.01)
        thief.steal()
        _, err = process.communicate(timeout=120)
        assert thief.keys_received() == 0, thief.events()
    assert process.returncode == 6, err
    assert "did not have the keyboard focus for 2 s" in err
    assert "--focus-timeout" in err
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="failed")
    assert check.ok, check.problems
    assert "keyboard focus" in check.run["error"]
    assert [e for e in check.events if e["event"] == "focus_paused"]
