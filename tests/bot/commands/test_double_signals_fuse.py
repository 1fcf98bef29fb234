"""Two stop signals close together (a process manager's SIGTERMs, Ctrl-C pressed twice),
5 to 200 ms apart, in the middle of a level on the test's own display: the bot still
exits 130 (never 143, never killed by the second), within 10 s of the first, with no
traceback from any thread ("Exception in thread" neither), nothing left running, no
grab and no key left on the display, and a folder marked aborted whose run.json,
run_end event and report.html agree (faults/stop_outcome.py judges)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from faults import ROOT
from faults.kill_round import Bot, RoundOptions
from faults.stop_outcome import end_and_check
from faults.x_stop import XStop, site_dir
from logo_bot.bot.recording.events import read_events

pytestmark = pytest.mark.fuse

# gaps from 5 to 200 ms, each pair twice (the kill benchmark tries every pair and gap)
CASES = (("SIGTERM", 5), ("SIGINT", 30), ("SIGTERM", 80), ("SIGINT", 200))


def wait_for_level_keys(bot: Bot, deadline_s: float = 60.0) -> None:
    deadline = time.monotonic() + deadline_s
    while True:
        folder = bot.folder()
        events = read_events(folder / "events.jsonl") if folder else []
        if any(e["event"] == "keys" and e.get("level") for e in events):
            return
        assert bot.process.poll() is None, f"the bot ended first: {bot.stderr[-3:]}"
        assert time.monotonic() < deadline, "level 1 was never played"
        time.sleep(0.005)


@pytest.mark.parametrize(("name", "gap_ms"), CASES)
def test_a_second_signal_ends_the_run_with_130_and_no_traceback(
    tmp_path: Path, xserver, name: str, gap_ms: int
) -> None:
    temp, root, log = tmp_path / "tmp", tmp_path / "runs", tmp_path / "x.jsonl"
    temp.mkdir()
    keys_only = XStop(None, log=log)  # logs the key events sent, signals nothing
    options = RoundOptions(levels="1-2", speed=400, probe=False, display=xserver.display)
    bot = Bot(options, temp, root, env=keys_only.env(site_dir(tmp_path), ROOT))
    try:
        wait_for_level_keys(bot)
        first = time.monotonic()
        bot.process.send_signal(getattr(signal, name))
        time.sleep(max(0.0, first + gap_ms / 1000 - time.monotonic()))
        if bot.process.poll() is None:
            bot.process.send_signal(getattr(signal, name))
    except BaseException:
        bot.close()
        raise
    outcome = end_and_check(bot, first, xserver.display, log, frozenset({"aborted"}))
    assert outcome.problems == [], "\n".join(outcome.problems + bot.stderr[-5:])
