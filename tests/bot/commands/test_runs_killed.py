"""A run whose bot is SIGKILLed leaves no run.json: ``logo-bot runs`` lists it as
running while its bot lives and as killed after, and ``logo-bot report`` renders the
levels its events.jsonl holds (a real process holds the recording and is killed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from logo_bot.bot.commands import report, runs
from logo_bot.bot.errors import InputError, UsageError
from logo_bot.bot.fuse.homes import HOME_PREFIX
from logo_bot.bot.recording.folder import RunFolder, find_run
from logo_bot.bot.recording.unfinished import read_run
from tests.bot.recording.run_folders import TARGET

WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from logo_bot.bot.recording.recording import Recording, RecordOptions

    rec = Recording.start(RecordOptions(Path(sys.argv[1])), "walkthrough", ["logo-bot"], None)
    if len(sys.argv) > 2:
        rec.requested = (1, int(sys.argv[2]))
    target = {target!r}
    rec.event("fuse_started", pid=1, display=":1")
    rec.event("level_shown", level=1)
    rec.event("target", level=1, target=target, cursor=[0, 0])
    rec.event("plan", level=1, plan=[[1, 4]], presses=7, lower_bound=6, optimal=False)
    rec.event("keys", level=1, keys=["q", "p", "space"], met=True, board=target)
    rec.event("correction", level=1, kind="cursor")
    rec.event("level_done", level=1, keys=9)
    rec.event("level_shown", level=2)
    rec.event("keys", level=2, keys=["o"], met=True)
    print(rec.folder.path, flush=True)
    time.sleep(60)
    """
).format(target=TARGET)


def kill_writer(root: Path, *args: str) -> tuple[RunFolder, str]:
    """The run folder of a writer killed after level 2 began, and its state before."""
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root), *args], stdout=subprocess.PIPE, text=True
    )
    try:
        folder = RunFolder(Path(process.stdout.readline().strip()))
        running = folder.state
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        process.stdout.close()
    return folder, running


@pytest.fixture
def killed(tmp_path):
    """(runs folder, the run folder, whether ``runs`` saw it running before the kill)."""
    root = tmp_path / "runs"
    return root, *kill_writer(root)


def test_a_killed_run_is_listed_as_killed_and_was_running_before(killed, capsys):
    root, folder, running = killed
    assert running == "running"
    assert folder.state == "killed"
    assert not folder.run_json.exists()
    assert runs.main(["--runs-dir", str(root), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert (row["folder"], row["status"], row["mode"]) == (folder.name, "killed", "walkthrough")
    assert (row["levels"], row["done"]) == ("1-2", 1)
    assert runs.main(["--runs-dir", str(root)]) == 0
    table = capsys.readouterr().out
    assert "killed" in table and "1/2" in table and "No recorded runs" not in table


def test_a_killed_run_is_listed_with_the_levels_asked_for(tmp_path, capsys):
    """Levels 1-5 asked, killed in level 2: the row says 1-5 and 1/5, not the levels
    reached (1-2)."""
    root = tmp_path / "runs"
    folder, _ = kill_writer(root, "5")
    assert read_run(folder)["requested"] == {"first": 1, "last": 5}
    assert runs.main(["--runs-dir", str(root), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["levels"], row["done"], row["requested"]) == ("killed", "1-5", 1, 5)
    assert runs.main(["--runs-dir", str(root)]) == 0
    assert "1/5" in capsys.readouterr().out


def test_report_renders_what_a_killed_run_has(killed, capsys):
    root, folder, _ = killed
    assert find_run("last", root) == folder
    assert report.main([folder.name, "--runs-dir", str(root)]) == 0
    assert "report:" in capsys.readouterr().out
    page = (folder.path / "report.html").read_text()
    assert "status killed" in page
    assert "1 of 2" in page, "levels done of the levels reached"
    assert "logo-bot replay" not in page, "a killed run cannot be replayed"
    run = read_run(folder)
    one, two = run["levels"]
    assert (one["status"], one["keys_sent"], one["planned_presses"]) == ("done", 9, 7)
    assert (one["target"], one["end_board"], one["corrections"]) == (TARGET, TARGET, {"cursor": 1})
    assert (two["status"], two["reason"]) == ("aborted", "the bot was killed here")
    assert run["totals"]["keys_sent"] == 10
    with pytest.raises(InputError, match="the run is killed") as refused:  # replay needs one
        folder.read()
    assert "logo-bot report" in refused.value.hint


def test_a_folder_that_is_not_a_run_is_still_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match=r"neither run\.json nor events\.jsonl"):
        find_run(str(tmp_path / "empty"), tmp_path)


def test_runs_removes_the_fuse_home_a_killed_bot_left(tmp_path, monkeypatch, capsys):
    """A bot killed outright cannot remove its Fuse's private home: ``logo-bot runs``
    removes it (a home of a bot still running stays)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    dead = subprocess.Popen(["true"])
    dead.wait()  # a PID no bot runs under now
    left = temp / f"{HOME_PREFIX}{dead.pid}-abc"
    live = temp / f"{HOME_PREFIX}{os.getpid()}-def"
    for home in (left, live):
        (home / ".config").mkdir(parents=True)
    assert runs.main(["--runs-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert (left.exists(), live.exists()) == (False, True)
