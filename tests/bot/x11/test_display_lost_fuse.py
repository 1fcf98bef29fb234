"""End-to-end: the X display the bot plays on goes away in the middle of a level (its
X server killed, as a logout or a crash does). The run ends with exit 4 and one line
that says so, the folder is finished as failed with that line, and nothing the bot
started runs on."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from bot.recording.events import read_events
from bot.x11.display import XServer
from faults.folder_check import check_folder
from tests.bot.bot_process import bot_process
from tests.bot.commands.test_signals_fuse import (
    children_of,
    wait_all_ended,
    wait_keys_of_level_1,
)

pytestmark = pytest.mark.fuse


def fuse_pids(root: Path) -> list[int]:
    """The PIDs of every Fuse the run started, as its events say."""
    events = [e for path in root.glob("*/events.jsonl") for e in read_events(path)]
    return [e["pid"] for e in events if e["event"] == "fuse_started"]


def test_a_display_killed_mid_level_ends_the_run_with_exit_4_and_one_line(tmp_path):
    root = tmp_path / "runs"
    env = dict(os.environ)
    with XServer.start(log_path=tmp_path / "xvfb.log") as server:
        assert server.process is not None
        args = ["walkthrough", "--levels", "1-3", "--display", server.display, "--no-video"]
        args += ["--runs-dir", str(root), "--speed", "200", "--set", "timing.probe=false"]
        with bot_process(args, env=env) as process:
            wait_keys_of_level_1(root, process)
            started = children_of(process.pid)
            fuses = fuse_pids(root)
            assert fuses, "the run says which Fuse it started"
            server.process.send_signal(signal.SIGKILL)  # the test's own Xvfb, by PID
            server.process.wait()
            began = time.monotonic()
            _, err = process.communicate(timeout=30)
            took = time.monotonic() - began
    assert process.returncode == 4, err
    assert "Traceback" not in err and "Exception in thread" not in err, err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [
        f"logo-bot walkthrough: error: the X display {server.display} was lost: its X "
        "server ended (a logout, a crash, or a stop)"
    ], err
    assert took < 10, f"the bot took {took:.1f} s to end"
    assert wait_all_ended(started) == []
    assert not [pid for pid in fuses if _running(pid)], "a Fuse was left running"
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="failed")
    assert check.ok, check.problems
    assert check.run["error"] == errors[0].split("error: ", 1)[1]


def _running(pid: int) -> bool:
    """Whether ``pid`` runs and is not a zombie (it is not our child: never reaped here)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] not in ("Z", "X")
