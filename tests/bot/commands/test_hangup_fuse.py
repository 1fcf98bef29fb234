"""End-to-end: the terminal a walkthrough runs in is closed, as a terminal window or
``tmux kill-window`` closes it: the test holds a real pty's leader and closes it while
the bot plays level 1.

* The bot is the pty's session leader: the kernel sends it SIGHUP, and the run ends as
  stopped (exit 130, "stopped by SIGHUP" in run.log, the folder aborted, nothing left
  running).
* The bot is a job of an interactive shell in the pty, as in a terminal window or tmux:
  it gets SIGHUP twice, from the shell (which passes it on to its jobs) and from the
  kernel (to the terminal's foreground group when the shell exits). One hang-up is one
  stop: the run ends in order, not forced as by a second Ctrl-C.
* Its SIGHUP ignored from the start (``nohup``): it plays on to the end, though its
  output still goes to the terminal that went.
* Started with ``setsid`` (no SIGHUP at all): it plays on to the end too; every write
  to the terminal that went fails, and none of them may fail the run.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shlex
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from faults.folder_check import check_folder
from logo_bot.bot.installation import PACKAGES_ROOT
from logo_bot.bot.recording.events import read_events
from tests.bot.commands.test_signals_fuse import children_of, left_in, wait_all_ended
from tests.bot.x11.test_display_lost_fuse import _running, fuse_pids

pytestmark = pytest.mark.fuse

ARGS = ["--headless", "--no-video", "--speed", "200", "--set", "timing.probe=false"]


def session_leader(ignore_hangup: bool) -> Callable[[], None]:
    """For ``preexec_fn``: a new session whose controlling terminal is the pty on
    standard input (as a shell's is); SIGHUP ignored when asked (``nohup``)."""

    def arrange() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        if ignore_hangup:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)

    return arrange


def own_session() -> None:
    """For ``preexec_fn``: ``setsid``, a session with no controlling terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()


class Terminal:
    """The leader side of a pty, read on a thread (a full pty would block the bot's
    writes) until ``close``, which hangs the terminal up."""

    def __init__(self) -> None:
        self.leader, self.follower = pty.openpty()
        self.seen = bytearray()
        self._closing = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._closing.is_set():
            ready, _, _ = select.select([self.leader], [], [], 0.05)
            if ready:
                try:
                    self.seen += os.read(self.leader, 4096)
                except OSError:  # EIO: the follower is closed everywhere
                    return

    def close(self) -> None:
        """Close the terminal: the kernel hangs up its follower side."""
        self._closing.set()
        self._reader.join()
        os.close(self.leader)


@contextmanager
def bot_on_terminal(
    tmp_path: Path, levels: str, preexec_fn: Callable[[], None]
) -> Iterator[tuple[subprocess.Popen, Terminal, Path, Path]]:
    """``logo-bot walkthrough`` with the pty as its standard input, output and error,
    its own TMPDIR and runs folder; killed on the way out if it still runs."""
    temp, root = tmp_path / "tmp", tmp_path / "runs"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp))
    env.pop("DISPLAY", None)
    terminal = Terminal()
    args = ["walkthrough", "--levels", levels, *ARGS, "--runs-dir", str(root)]
    process = subprocess.Popen(
        [sys.executable, "-m", "logo_bot.bot.cli", *args],
        stdin=terminal.follower,
        stdout=terminal.follower,
        stderr=terminal.follower,
        cwd=PACKAGES_ROOT,
        env=env,
        preexec_fn=preexec_fn,
    )
    os.close(terminal.follower)
    watchdog = threading.Timer(120, process.kill)
    watchdog.start()
    try:
        yield process, terminal, temp, root
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
        process.wait()
        if not terminal._closing.is_set():
            terminal.close()


def wait_level_1_keys(root: Path, process: subprocess.Popen, terminal: Terminal) -> None:
    deadline = time.monotonic() + 60
    while True:
        events = [e for path in root.glob("*/events.jsonl") for e in read_events(path)]
        if any(e["event"] == "keys" and e.get("level") == 1 for e in events):
            return
        assert process.poll() is None, terminal.seen.decode(errors="replace")
        assert time.monotonic() < deadline, "level 1 was never played"
        time.sleep(0.01)


def test_closing_the_terminal_stops_the_run_as_sighup(tmp_path):
    with bot_on_terminal(tmp_path, "1-3", session_leader(False)) as (process, terminal, temp, root):
        wait_level_1_keys(root, process, terminal)
        started = children_of(process.pid)
        fuses = fuse_pids(root)
        terminal.close()
        began = time.monotonic()
        process.wait(timeout=30)
        took = time.monotonic() - began
    assert process.returncode == 130, terminal.seen.decode(errors="replace")
    assert took < 10, f"the bot took {took:.1f} s to stop"
    assert wait_all_ended(started) == []
    assert not [pid for pid in fuses if _running(pid)], "a Fuse was left running"
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="aborted")
    assert check.ok, check.problems
    assert check.run["error"] == "stopped by SIGHUP"
    assert "stopped by SIGHUP" in (folder / "run.log").read_text()
    assert left_in(temp) == [], "a temporary folder was left"


SHELL_JOB = """
import signal, subprocess, sys
signal.signal(signal.SIGHUP, lambda *_: None)  # (caught, not ignored: the bot gets the default)
status = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write(str(status))
"""


def test_closing_the_terminal_of_a_shell_stops_its_job_once(tmp_path):
    """An interactive bash on the pty runs the bot through a small wrapper in the same
    job, which writes the bot's exit status down (bash itself dies with the terminal)."""
    temp, root, status = tmp_path / "tmp", tmp_path / "runs", tmp_path / "status"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), PS1="$ ")
    env.pop("DISPLAY", None)
    terminal = Terminal()
    shell = subprocess.Popen(
        ["bash", "--norc", "--noprofile", "-i"],
        stdin=terminal.follower,
        stdout=terminal.follower,
        stderr=terminal.follower,
        cwd=PACKAGES_ROOT,
        env=env,
        preexec_fn=session_leader(False),
    )
    os.close(terminal.follower)
    bot = [sys.executable, "-m", "logo_bot.bot.cli", "walkthrough", "--levels", "1-3", *ARGS]
    line = [sys.executable, "-c", SHELL_JOB, str(status), *bot, "--runs-dir", str(root)]
    os.write(terminal.leader, (shlex.join(line) + "\n").encode())
    try:
        deadline = time.monotonic() + 60
        while not any(
            e["event"] == "keys" and e.get("level") == 1
            for path in root.glob("*/events.jsonl")
            for e in read_events(path)
        ):
            assert shell.poll() is None and time.monotonic() < deadline, "level 1 never played"
            time.sleep(0.01)
        (wrapper,) = children_of(shell.pid)
        (bot_pid,) = [p.pid for p in children_of(wrapper.pid)]
        started = children_of(bot_pid)
        terminal.close()
        shell.wait(timeout=30)
        assert wait_all_ended([wrapper], 30) == []
    finally:
        if shell.poll() is None:
            shell.kill()
            shell.wait()
        if not terminal._closing.is_set():
            terminal.close()
    assert status.read_text() == "130"
    assert wait_all_ended(started) == []
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="aborted")
    assert check.ok, check.problems
    assert check.run["error"] == "stopped by SIGHUP", "one hang-up, one orderly stop"
    assert left_in(temp) == [], "a temporary folder was left"


@pytest.mark.parametrize(
    "start",
    [pytest.param(session_leader(True), id="nohup"), pytest.param(own_session, id="setsid")],
)
def test_a_run_that_outlives_its_terminal_plays_on_to_the_end(tmp_path, start):
    with bot_on_terminal(tmp_path, "1", start) as (process, terminal, temp, root):
        wait_level_1_keys(root, process, terminal)
        terminal.close()
        process.wait(timeout=60)
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="complete")
    assert check.ok, (check.problems, (folder / "run.log").read_text())
    assert process.returncode == 0
    assert left_in(temp) == [], "a temporary folder was left"
