"""The reaper cleans up after a bot killed outright: it ends the programs it was told
about (and no other process), removes the files it was told about (and not those given
back), and ends once that is done; a normal end leaves it nothing to do."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap

from faults.kill_round import (
    ProcessWatch,
    end_killed,
    kill_and_settle,
    read_process,
    running,
    set_subreaper,
)
from logo_bot.bot import reaper
from logo_bot.bot.reaper import Reaper, start_time

# A bot that tells its reaper of two programs (one that ignores the signal it is given,
# so the reaper must SIGKILL it), a folder and a file, gives one file back, and waits to
# be killed. Its programs have no death signal from the kernel: only the reaper ends them.
BOT = textwrap.dedent(
    """
    import signal, subprocess, sys, time
    from pathlib import Path
    from logo_bot.bot.reaper import Reaper

    work = Path(sys.argv[1])
    reaper = Reaper()
    ignores = lambda: signal.signal(signal.SIGTERM, signal.SIG_IGN)
    programs = [
        subprocess.Popen(["sleep", "600"], start_new_session=True),
        subprocess.Popen(["sleep", "600"], start_new_session=True, preexec_fn=ignores),
    ]
    for program in programs:
        reaper.program(program, signal.SIGTERM)
    (work / "home" / ".config").mkdir(parents=True)
    (work / "video.mp4.part").write_bytes(b"half a video")
    (work / "kept.log").write_text("the bot keeps this one")
    for path in ("home", "video.mp4.part", "kept.log"):
        reaper.path(work / path)
    reaper.removed(work / "kept.log")
    print(*(p.pid for p in programs), reaper.pid, flush=True)
    time.sleep(600)
    """
)


def test_a_killed_bots_reaper_ends_its_programs_removes_its_files_and_ends(tmp_path):
    set_subreaper(True)  # what the killed bot leaves comes back to this process, and is seen
    bot = subprocess.Popen([sys.executable, "-c", BOT, str(tmp_path)], stdout=subprocess.PIPE)
    try:
        watch = ProcessWatch(bot.pid)
        assert bot.stdout is not None
        *pids, reaper_pid = (int(n) for n in bot.stdout.readline().split())
        programs = [read_process(pid) for pid in pids]
        assert {p.name for p in watch.sample()} >= {"sleep"}
        assert read_process(reaper_pid) is not None, "the reaper runs beside its bot"
        left = kill_and_settle(bot, watch, reaper.GRACE_S + reaper.KILL_WAIT_S + 5)
    finally:
        end_killed(bot)
    assert left == [], "the reaper ended both programs, then itself"
    assert not any(running(p) for p in programs if p is not None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.log"]


def reaper_told(*messages: dict) -> int:
    """The reaper program given ``messages``, then the end of its pipe; its exit status."""
    program = subprocess.Popen([sys.executable, "-I", "-S", reaper.__file__], stdin=subprocess.PIPE)
    lines = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    program.communicate(lines, timeout=reaper.GRACE_S + reaper.KILL_WAIT_S + 10)
    return program.returncode


def test_the_reaper_signals_no_process_but_the_one_it_was_told_about():
    """A PID whose start time is not the one told is another process (a reused PID):
    left alone. So is one the bot said has ended."""
    other = subprocess.Popen(["sleep", "600"])
    try:
        started = start_time(other.pid)
        assert started is not None
        wrong = {"program": other.pid, "start": started + 1, "signal": int(signal.SIGKILL)}
        assert reaper_told(wrong) == 0
        right = {"program": other.pid, "start": started, "signal": int(signal.SIGKILL)}
        assert reaper_told(right, {"ended": other.pid}) == 0
        assert other.poll() is None, "a process the reaper was not told about was signalled"
        assert reaper_told(right) == 0
        assert other.wait(10) == -signal.SIGKILL
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()


def test_a_normal_end_leaves_the_reaper_nothing_to_do(tmp_path):
    """Programs the bot waited for and files it gave back are not the reaper's: at the
    end of the pipe it touches nothing and exits 0."""
    kept = tmp_path / "kept"
    kept.mkdir()
    guard = Reaper()
    program = subprocess.Popen(["sleep", "0.01"])
    guard.program(program, signal.SIGKILL)
    program.wait()
    guard.path(kept)
    guard.removed(kept)
    assert guard.pid is not None
    assert guard.close() == 0
    assert kept.is_dir()


def test_a_reaper_ended_by_someone_is_started_again_and_told_everything(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    guard = Reaper()
    guard.path(first)
    old = guard.pid
    assert old is not None
    guard._process.kill()  # type: ignore[union-attr]
    guard._process.wait()  # type: ignore[union-attr]
    guard.path(second)
    assert guard.pid not in (None, old)
    assert guard.close() == 0
    assert list(tmp_path.iterdir()) == []
