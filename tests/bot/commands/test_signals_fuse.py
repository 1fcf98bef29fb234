"""End-to-end: SIGTERM and SIGHUP end a headless walkthrough like Ctrl-C, and SIGKILL
leaves nothing running: no Xvfb, no Fuse, no temporary folder or file."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from faults.folder_check import check_folder
from faults.kill_round import Proc, process_table, running
from logo_bot.bot.commands import runs
from logo_bot.bot.fuse.homes import HOME_PREFIX
from logo_bot.bot.recording.events import read_events
from tests.bot.bot_process import bot_process

pytestmark = pytest.mark.fuse


def children_of(pid: int) -> list[Proc]:
    """The processes whose parent is ``pid`` now."""
    return [proc for proc in process_table().values() if proc.ppid == pid]


def wait_all_ended(procs: list[Proc], seconds: float = 10) -> list[Proc]:
    """The ``procs`` still running after ``seconds`` (bounded against a hang)."""
    deadline = time.monotonic() + seconds
    while (left := [p for p in procs if running(p)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def start_mid_level(tmp_path: Path, *extra: str):
    """``logo-bot walkthrough --headless`` with its own temporary folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp))
    env.pop("DISPLAY", None)
    root = tmp_path / "runs"
    args = ["walkthrough", "--levels", "1-3", "--headless", *extra]
    args += ["--video-dir", str(root)] if "--no-record" not in extra else []
    return temp, root, bot_process(args, env=env)


def left_in(temp: Path) -> list[Path]:
    """What a run left in its temporary folder, but for the one file every run shares
    and keeps: an empty X authority file when ~/.Xauthority is missing (bot.x11.display)."""
    return [p for p in temp.iterdir() if not p.name.endswith(".Xauthority")]


def wait_keys_of_level_1(root: Path, process) -> None:
    deadline = time.monotonic() + 120
    while True:
        events = [e for path in root.glob("*/events.jsonl") for e in read_events(path)]
        if any(e["event"] == "keys" and e.get("level") == 1 for e in events):
            return
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "level 1 was never played"
        time.sleep(0.01)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_finish_the_run_folder_and_stop_everything(tmp_path, name):
    temp, root, running = start_mid_level(tmp_path)
    with running as process:
        wait_keys_of_level_1(root, process)
        started = children_of(process.pid)
        assert len(started) >= 2, "Xvfb and Fuse"
        process.send_signal(getattr(signal, name))
        _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert f"stopped by {name}" in err
    assert wait_all_ended(started) == []
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="aborted")
    assert check.ok, check.problems
    assert check.run["error"] == f"stopped by {name}"
    assert (folder / "video.mp4").is_file() and (folder / "report.html").is_file()
    assert left_in(temp) == [], "a temporary folder was left"


def test_sigkill_leaves_no_program_no_fuse_home_and_a_folder_read_as_killed(tmp_path, capsys):
    """Nothing of the bot's runs once it is SIGKILLed in level 1, and its reaper leaves
    nothing in the temporary folder (no next run needed) nor in the run folder, which
    ``logo-bot runs`` lists as killed, with the levels asked for (1-3), not those reached."""
    temp, root, running = start_mid_level(tmp_path)
    with running as process:
        wait_keys_of_level_1(root, process)
        started = children_of(process.pid)
        homes = list(temp.glob(f"{HOME_PREFIX}*"))
        process.kill()
        process.wait()
    names = sorted(p.name for p in started)
    assert len(names) == 3 and {"Xvfb", "fuse-sdl"} < set(names), "and the reaper"
    assert len(homes) == 1, "Fuse's home, while it runs"
    assert wait_all_ended(started) == [], "Xvfb, Fuse and the reaper, once its work is done"
    assert left_in(temp) == [], "the Fuse home and any temporary file"
    (folder,) = list(root.iterdir())
    check = check_folder(folder, status="killed")
    assert check.ok, check.problems
    assert runs.main(["--runs-dir", str(root), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["levels"], row["done"], row["requested"]) == ("killed", "1-3", 0, 3)


def test_sigterm_without_recording_stops_xvfb_and_fuse(tmp_path):
    temp, _, running = start_mid_level(tmp_path, "--no-record")
    with running as process:
        deadline = time.monotonic() + 120
        while len(started := children_of(process.pid)) < 2:  # Xvfb, then Fuse
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "Fuse never started"
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert wait_all_ended(started) == []
    assert left_in(temp) == [], "a temporary folder was left"
