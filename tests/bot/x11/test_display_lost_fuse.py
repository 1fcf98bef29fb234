"""End-to-end: the X display the bot plays on goes away in the middle of a level (its
X server killed, as a logout or a crash does). The run ends with exit 4 and one line
that says so, the folder is finished as failed with that line, and nothing the bot
started runs on."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from faults.folder_check import check_folder
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.x11.display import XServer
from tests.bot.bot_process import bot_process
from tests.bot.commands.test_signals_fuse import (
    children_of,
    left_in,
    wait_all_ended,
    wait_keys_of_level_1,
)

pytestmark = pytest.mark.fuse


def fuse_pids(root: Path) -> list[int]:
    """The PIDs of every Fuse the run started, as its events say."""
    events = [e for path in root.glob("*/events.jsonl") for e in read_events(path)]
    return [e["pid"] for e in events if e["event"] == "fuse_started"]


def play_and_kill_the_display(tmp_path: Path, args: list[str], kill) -> tuple:
    """Play ``logo-bot walkthrough ARGS`` until level 1's keys, then ``kill(process)``
    the display (its PID): (process, stderr, children, Fuse PIDs, runs folder). A bot
    that hangs on the dead connection never ends: the wait for its end fails after 30 s
    (how soon it ends is a matter of load: beside two hogs it took 12 s)."""
    root = tmp_path / "runs"
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp))
    args = ["walkthrough", "--levels", "1-3", *args, "--no-video", "--runs-dir", str(root)]
    args += ["--speed", "200", "--set", "timing.probe=false"]
    with bot_process(args, env=env) as process:
        wait_keys_of_level_1(root, process)
        started = children_of(process.pid)
        fuses = fuse_pids(root)
        assert fuses, "the run says which Fuse it started"
        kill(process)
        _, err = process.communicate(timeout=30)
    return process, err, started, fuses, root


def the_display_of(root: Path) -> str:
    events = [e for path in root.glob("*/events.jsonl") for e in read_events(path)]
    return next(e["display"] for e in events if e["event"] == "fuse_started")


def test_the_persons_display_killed_mid_level_ends_the_run_with_exit_4_and_one_line(tmp_path):
    """``--display``: an Xvfb of the test's stands for the person's, killed outright."""
    with XServer.start(log_path=tmp_path / "xvfb.log") as server:
        assert server.process is not None
        xvfb = server.process

        def kill(process) -> None:
            xvfb.send_signal(signal.SIGKILL)  # the test's own Xvfb, by PID
            xvfb.wait()

        outcome = play_and_kill_the_display(tmp_path, ["--display", server.display], kill)
    check_lost(tmp_path, *outcome)


def test_the_bots_own_xvfb_killed_mid_level_ends_the_run_with_exit_4_and_one_line(tmp_path):
    """``--headless``: the bot's private Xvfb, killed outright (by PID) as a crash."""

    def kill(process) -> None:
        (xvfb,) = [p for p in children_of(process.pid) if p.name == "Xvfb"]
        os.kill(xvfb.pid, signal.SIGKILL)

    check_lost(tmp_path, *play_and_kill_the_display(tmp_path, ["--headless"], kill))


def check_lost(tmp_path: Path, process, err: str, started, fuses, root) -> None:
    """Exit 4, the one line, nothing left, the folder failed."""
    assert process.returncode == 4, err
    assert "Traceback" not in err and "Exception in thread" not in err, err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [
        f"logo-bot walkthrough: error: the X display {the_display_of(root)} was lost: its X "
        "server ended (a logout, a crash, or a stop)"
    ], err
    assert wait_all_ended(started) == []
    assert not [pid for pid in fuses if _running(pid)], "a Fuse was left running"
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="failed")
    assert check.ok, check.problems
    assert check.run["error"] == errors[0].split("error: ", 1)[1]
    log = (folder / "run.log").read_text()
    assert "starting it again" not in log, "Fuse ended with its display: no restart"
    assert left_in(tmp_path / "tmp") == [], "a temporary folder was left"


def _running(pid: int) -> bool:
    """Whether ``pid`` runs and is not a zombie (it is not our child: never reaped here)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] not in ("Z", "X")
