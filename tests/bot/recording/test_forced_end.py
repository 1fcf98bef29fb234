"""A forced end (a second stop signal while the bot hangs) marks the run folder at once: a
real process with a recording open, stuck where nothing checks for a stop, gets two
SIGTERMs and exits 130, leaving every thread's stack in run.log, and run.json, run_end
and report.html saying the run was aborted and ended at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from faults.folder_check import check_folder
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder

STUCK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from logo_bot.bot import interrupts
    from logo_bot.bot.recording.recording import Recording, RecordOptions

    interrupts.install()
    rec = Recording.start(RecordOptions(Path(sys.argv[1])), "walkthrough", ["logo-bot"], None)
    with rec:
        rec.event("level_shown", level=1)
        print(rec.folder.path, flush=True)
        while True:
            time.sleep(0.01)  # stuck: never a safe point
    """
)


def stopped_twice(
    script: str,
    where: Path,
    env: dict[str, str] | None = None,
    when: Callable[[], bool] = lambda: True,
) -> tuple[RunFolder, int, str]:
    """Run ``script`` (it prints its run folder), send SIGTERM once ``when()`` holds and
    again 0.2 s later (two at once are one: the watchdog would force the end, at 8 s);
    its folder, exit status and standard error."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(where)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        folder = RunFolder(Path(process.stdout.readline().strip()))
        while not when():
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return folder, process.returncode, err


def test_a_second_signal_marks_the_folder_and_exits_130(tmp_path):
    folder, code, err = stopped_twice(STUCK, tmp_path)
    assert code == 130, err
    run = json.loads(folder.run_json.read_text())
    assert run["status"] == "aborted"
    assert run["error"].startswith("stopped by SIGTERM, then ended at once: a second stop")
    last = [e for e in read_events(folder.events) if e["event"] == "run_end"][-1]
    assert (last["status"], last["error"]) == ("aborted", run["error"])
    log = folder.log.read_text()
    assert "ended at once (a second stop" in log
    assert "Thread 0x" in log and "in <module>" in log, "the main thread's stack"
    assert folder.state == "finished"
    assert not list(folder.path.glob("*.tmp")), "run.json written whole, by a rename"
    check = check_folder(folder.path, status="aborted")
    assert check.ok, check.problems  # report.html too, and all three agree


ASKING_FFMPEG = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from logo_bot.bot import interrupts, processes
    from logo_bot.bot.recording.encode import Encoded
    from logo_bot.bot.recording.recording import Recording, RecordOptions
    from logo_bot.bot.recording.summary import build_summary

    interrupts.install()
    interrupts.on_force(processes.kill_started, first=True)  # as logo-bot's main does
    rec = Recording.start(RecordOptions(Path(sys.argv[1])), "walkthrough", ["logo-bot"], None)
    with rec:
        rec.event("level_shown", level=1)
        print(rec.folder.path, flush=True)
        build_summary(rec.state, "complete", None, Encoded())  # asks a slow ffmpeg
    """
)
SLOW_FFMPEG = '#!/bin/sh\necho $$ >> "{ran}"\nexec sleep 30\n'


def test_a_forced_end_starts_no_program_and_kills_the_one_asked_for_a_version(tmp_path):
    """The run's end asks ``ffmpeg -version`` for run.json; on a busy machine that can take
    seconds. A forced end meanwhile writes run.json and the report at once, without asking
    again (it has one second), and kills the ffmpeg that was asked."""
    tools, ran = tmp_path / "bin", tmp_path / "ran.txt"
    tools.mkdir()
    (tools / "ffmpeg").write_text(SLOW_FFMPEG.format(ran=ran))
    (tools / "ffmpeg").chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    try:
        folder, code, err = stopped_twice(ASKING_FFMPEG, tmp_path / "runs", env, ran.is_file)
    finally:
        pids = [int(line) for line in ran.read_text().split()] if ran.is_file() else []
        alive = [pid for pid in pids if _running(pid)]
        for pid in alive:
            os.kill(pid, signal.SIGKILL)
    assert code == 130, err
    assert len(pids) == 1, "the forced end asked ffmpeg again"
    assert alive == [], "the ffmpeg asked for its version outlived the bot"
    run = json.loads(folder.run_json.read_text())
    assert run["status"] == "aborted" and run["versions"]["ffmpeg"] is None
    check = check_folder(folder.path, status="aborted")
    assert check.ok, check.problems


def _running(pid: int) -> bool:
    """``pid`` runs and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
