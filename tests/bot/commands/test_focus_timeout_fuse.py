"""End-to-end: a walkthrough whose Fuse never gets the focus back stops with exit 6 and a
finished run folder, instead of waiting for ever."""

from __future__ import annotations

import time

import pytest

from faults.folder_check import check_folder
from faults.thief import FocusThief
from logo_bot.bot.recording.events import read_events
from tests.bot.bot_process import bot_process

pytestmark = pytest.mark.fuse


def test_a_focus_that_never_returns_ends_the_run_with_exit_6(xserver, tmp_path):
    root = tmp_path / "runs"
    args = ["walkthrough", "--levels", "1-3", "--display", xserver.display, "--no-take-focus"]
    args += ["--focus-timeout", "2", "--no-video", "--video-dir", str(root)]
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


def events_of(root) -> list[dict]:
    return [e for path in root.glob("*/events.jsonl") for e in read_events(path)]


def wait_for_event(root, process, found, what: str, timeout_s: float = 120) -> dict:
    """The first event ``found`` accepts, once the bot has written it."""
    deadline = time.monotonic() + timeout_s
    while True:
        hits = [e for e in events_of(root) if found(e)]
        if hits:
            return hits[0]
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def test_a_level_lost_while_paused_is_noticed_and_played_again_after(xserver, tmp_path):
    """The focus goes mid-level and stays away until the game's clock has run out (TIME
    UP, GAME OVER, the title, all in emulated time: 45 s for level 1, 11 s at 400 %): the
    paused bot says so, and when the focus comes back it enters the game again and
    finishes, with no key to the thief."""
    root = tmp_path / "runs"
    args = ["walkthrough", "--levels", "1-2", "--display", xserver.display, "--no-take-focus"]
    args += ["--speed", "400", "--no-video", "--video-dir", str(root)]
    with (
        FocusThief(xserver.display, tmp_path / "keys.jsonl") as thief,
        bot_process(args, watchdog_s=300) as process,
    ):
        wait_for_event(root, process, lambda e: e["event"] == "keys" and e.get("level") == 1,
                       "level 1 played")  # fmt: skip
        thief.steal()
        seen = wait_for_event(root, process, lambda e: e["event"] == "paused_screen",
                              "the paused bot saw the level end")  # fmt: skip
        thief.give_back()
        _, err = process.communicate(timeout=280)
        assert thief.keys_received() == 0, thief.events()
    assert process.returncode == 0, err
    assert seen["screen"] in ("time_up", "game_over", "title")
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="complete")
    assert check.ok, check.problems
    assert [lv["status"] for lv in check.run["levels"]] == ["done", "done"]
    names = [e["event"] for e in check.events]
    paused, regained = names.index("focus_paused"), names.index("focus_regained")
    assert paused < names.index("paused_screen") < regained
    after = check.events[regained:]
    failures = [e for e in after if e["event"] == "failure" and e.get("level") == 1]
    assert failures, "the level lost in the pause is a failed attempt, handled after it"
