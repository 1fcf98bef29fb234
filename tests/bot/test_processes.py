"""Programs the bot starts end with it, even when the bot is killed outright."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from faults.kill_round import Proc, read_process, running
from logo_bot.bot import processes


def wait_ended(proc: Proc, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while running(proc):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def ignored_signals(pid: int) -> int:
    """The mask of signals process ``pid`` ignores (SigIgn in /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line")


@pytest.mark.parametrize("death", ["SIGTERM", "SIGHUP", "SIGKILL"])
@pytest.mark.parametrize("nohup", [False, True], ids=["", "under-nohup"])
def test_a_child_gets_its_signal_when_the_bot_is_killed(death, nohup):
    """Also when the bot ignores the stop signals (nohup, a background job): its
    programs do not, or the death signal would not end them."""
    ignore = signal.SIG_IGN if nohup else signal.SIG_DFL
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import signal, sys, time
                from logo_bot.bot import processes
                child = processes.start(["sleep", "600"], signal.{death})
                print(child.pid, flush=True)
                time.sleep(600)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: [signal.signal(s, ignore) for s in processes.DEFAULT_SIGNALS],
    )
    child: Proc | None = None
    try:
        assert parent.stdout is not None
        child = read_process(int(parent.stdout.readline()))
        assert child is not None and running(child)
        stop_signals = sum(1 << (s - 1) for s in processes.DEFAULT_SIGNALS)
        if nohup:
            assert ignored_signals(parent.pid) & stop_signals == stop_signals
        assert ignored_signals(child.pid) & stop_signals == 0, "the child ignores a stop signal"
        assert os.getsid(child.pid) == child.pid, (
            "in a session of its own: Ctrl-C reaches the bot only"
        )
        parent.kill()  # SIGKILL: the bot has no chance to stop anything
        parent.wait()
        assert wait_ended(child), f"sleep (pid {child.pid}) outlived the bot"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if child is not None and running(child):
            os.kill(child.pid, signal.SIGKILL)


def test_a_child_of_a_living_bot_runs_on_and_is_a_normal_popen():
    child = processes.start(["sleep", "600"], stdout=subprocess.DEVNULL)
    try:
        assert isinstance(child, subprocess.Popen)
        time.sleep(0.2)
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()


def test_a_forced_end_kills_every_program_started_that_still_runs():
    """In a process of its own: here it would kill this test worker's own Xvfb too."""
    code = (
        "from logo_bot.bot import processes\n"
        "running = processes.start(['sleep', '30'])\n"
        "done = processes.start(['true'])\n"
        "done.wait()\n"
        "processes.kill_started()\n"
        "print(running.poll(), done.returncode)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == ["-9", "0"], result.stderr
