"""benchmarks/kill.py in a few rounds: each moment once, a single signal, two close
together, a second one after the bot's last line, a hung-up terminal and SIGKILL (in
play, and while the video is written), two rounds on the test's own display; after
every one nothing left running, no hang, no grab, no key down, and a valid, truthful
run folder (the benchmark plays 100)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import time

import pytest

from benchmarks import kill
from faults.kill_round import ProcessWatch, RoundOptions, process_table, set_subreaper

ROUNDS = [  # (stop, moment, on the test's display)
    ("SIGTERM", "restart", False),
    ("HANGUP", "encoding", False),
    ("SIGINT+SIGINT", "play", True),
    ("SIGKILL", "menus", False),
    ("SIGTERM+SIGTERM", "start-up", True),
    ("SIGKILL", "encoding", False),
    ("SIGINT+AFTER", "play", False),
]


@pytest.mark.fuse
def test_no_stop_at_any_moment_leaves_a_process_a_key_a_grab_or_a_false_folder(tmp_path, xserver):
    table = io.StringIO()
    options = RoundOptions(levels="1", speed=200, probe=False)
    results = kill.run_rounds(
        ROUNDS, options, seed=5, work=tmp_path, display=xserver.display, out=table
    )
    report = table.getvalue() + "\n".join(kill.totals(results))
    assert [r.orphans for r in results] == [[]] * len(ROUNDS), report
    failed = {r.number: (r.folder, r.temp_left, r.problems) for r in results if not r.ok}
    assert failed == {}, report


def test_the_watch_finds_a_process_left_running_after_its_parent_ended():
    """What makes the kill test able to fail: an orphan comes back to the benchmark."""
    set_subreaper(True)
    left = []
    try:
        parent = subprocess.Popen(["sh", "-c", "sleep 30 & sleep 0.3"])
        watch = ProcessWatch(parent.pid)
        parent.wait()
        left = watch.left_running(0.5)
    finally:
        set_subreaper(False)
        for proc in left:
            os.kill(proc.pid, signal.SIGKILL)
            os.waitpid(proc.pid, 0)
    assert [p.name for p in left] == ["sleep"]


def test_the_watch_leaves_out_what_an_earlier_test_left_dying():
    """In a test process, an orphan of something started before the bot is not the
    bot's (the kill test would take a dying Fuse of an earlier test for the bot's)."""
    set_subreaper(True)
    try:
        earlier = subprocess.Popen(["sh", "-c", "sleep 30 & sleep 0.5"])
        time.sleep(0.1)
        bot = subprocess.Popen(["sleep", "0.1"])
        watch = ProcessWatch(bot.pid)
        bot.wait()
        earlier.wait()
        left = watch.left_running(0.3)
    finally:
        set_subreaper(False)
        for proc in process_table().values():
            if proc.ppid == os.getpid() and proc.name == "sleep":
                os.kill(proc.pid, signal.SIGKILL)
                os.waitpid(proc.pid, 0)
    assert left == []
