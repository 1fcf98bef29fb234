"""A forced end (a second stop signal while the bot hangs) marks the run folder at once: a
real process with a recording open, stuck where nothing checks for a stop, gets two
SIGTERMs and exits 130, leaving every thread's stack in run.log, and run.json, run_end
and report.html saying the run was aborted and ended at once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
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


def test_a_second_signal_marks_the_folder_and_exits_130(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", STUCK, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        folder = RunFolder(Path(process.stdout.readline().strip()))
        process.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
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
