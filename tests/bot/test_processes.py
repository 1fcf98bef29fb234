"""Programs the bot starts end with it, even when the bot is killed outright."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from bot import processes
from faults.kill_round import Proc, read_process, running


def wait_ended(proc: Proc, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while running(proc):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize("death", ["SIGTERM", "SIGHUP", "SIGKILL"])
def test_a_child_gets_its_signal_when_the_bot_is_killed(death):
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import signal, sys, time
                from bot import processes
                child = processes.start(["sleep", "600"], signal.{death})
                print(child.pid, flush=True)
                time.sleep(600)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    child: Proc | None = None
    try:
        assert parent.stdout is not None
        child = read_process(int(parent.stdout.readline()))
        assert child is not None and running(child)
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
