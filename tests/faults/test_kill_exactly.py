"""The fault tools kill a process they saw, never a later one that got its PID."""

from __future__ import annotations

import dataclasses
import signal
import subprocess

from faults.kill_round import kill_exactly, read_process


def test_the_process_seen_is_killed():
    child = subprocess.Popen(["sleep", "30"])
    try:
        seen = read_process(child.pid)
        assert seen is not None
        assert kill_exactly(seen)
        assert child.wait(5) == -signal.SIGKILL
    finally:
        child.kill()
        child.wait()


def test_a_process_with_the_pid_but_another_start_is_left_alone():
    """What a PID taken over by a new process looks like: the same number, another start."""
    child = subprocess.Popen(["sleep", "30"])
    try:
        seen = read_process(child.pid)
        assert seen is not None
        earlier = dataclasses.replace(seen, start=seen.start - 1)
        assert not kill_exactly(earlier)
        assert child.poll() is None, "the process that has the PID now still runs"
    finally:
        child.kill()
        child.wait()


def test_a_process_that_ended_is_not_signalled():
    child = subprocess.Popen(["true"])
    seen = read_process(child.pid)
    child.wait()
    assert seen is not None and not kill_exactly(seen)
