"""A bot killed outright (SIGKILL) while it writes the video, and a forced end while it
writes the folder: no video file that does not play, no temporary file, no program of
its own left, and a folder that tells the truth (``logo-bot runs`` says killed, with the
levels asked for)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest

from faults.folder_check import check_folder
from faults.kill_round import ProcessWatch, end_killed, kill_and_settle, set_subreaper
from logo_bot.bot import interrupts, processes
from logo_bot.bot.commands import runs
from logo_bot.bot.play.unattended import RunReport
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import chapters as chapters_module
from logo_bot.bot.recording.chapters import Chapter, temporaries, write_chapters
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.bot.recording.unfinished import read_run
from logo_bot.bot.recording.video import leftovers
from tests.bot.recording.run_folders import fake_session

# A run of levels 1-3 whose first level was done as it stopped; its movie gives 200
# frames, then the bot stops there for good (printing "encoding"), with ffmpeg running.
KILLED_IN_ENCODING = """
import sys, time
from pathlib import Path
import numpy as np
from logo_bot.bot.recording import encode
from tests.bot.recording.run_folders import started_run

def frames(path):
    for number in range(10**6):
        if number == 200:
            print("encoding", flush=True)
            time.sleep(600)
        yield np.full((240, 320, 3), number % 200, dtype=np.uint8)

encode.read_frames = frames
with started_run(Path(sys.argv[1]), 3, "failed"):
    pass
"""


@pytest.mark.ffmpeg
def test_a_bot_killed_while_it_writes_the_video_leaves_none_and_reads_as_killed(tmp_path, capsys):
    root = tmp_path / "runs"
    set_subreaper(True)  # ffmpeg, orphaned by the kill, comes back to this process
    bot = subprocess.Popen(
        [sys.executable, "-c", KILLED_IN_ENCODING, str(root)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        watch = ProcessWatch(bot.pid)
        assert bot.stdout.readline() == "encoding\n"
        reaper = Path(sys.executable).name[:15]  # as /proc names it
        assert sorted(p.name for p in watch.sample()) == sorted(["ffmpeg", reaper])
        left = kill_and_settle(bot, watch, 10)
    finally:
        end_killed(bot)
    assert left == []
    (folder,) = root.iterdir()
    assert not (folder / "video.mp4").exists(), "a video.mp4 that does not play"
    assert [p.name for p in leftovers(folder / "video.mp4") if p.exists()] == [], "the reaper's"
    run = read_run(RunFolder(folder))
    assert run["status"] == "killed", run["error"]
    assert run["video"]["unfinished"]
    check = check_folder(folder, status="killed")
    assert check.ok, check.problems
    assert runs.main(["--runs-dir", str(root), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["levels"], row["done"], row["requested"]) == ("killed", "1-3", 0, 3)


def forced_recording(tmp_path) -> Recording:
    recording = Recording.start(
        RecordOptions(tmp_path / "runs"), "walkthrough", ["x"], load_profile("practice")
    )
    folder = recording.folder
    recording.state.session = fake_session(folder)
    recording.requested = (1, 1)
    recording.report = RunReport(1, 1)
    return recording


def test_a_forced_end_leaves_no_temporary_file(tmp_path):
    """Ended at once while the videos were written, their chapters put in, the pictures
    kept for them: none of their files is left in the folder, and no video."""
    recording = forced_recording(tmp_path)
    path = recording.folder.path
    made = [path / "capture.tmp", path / "frames.tmp"]
    for video in (recording.folder.video, recording.folder.annotated):
        made += [video, *leftovers(video), *temporaries(video)]
    for file in made:
        file.write_bytes(b"x")
    with pytest.raises(interrupts.Stopped), recording:
        interrupts.request("stopped by Ctrl-C")
        recording._forced("a second stop (stopped by Ctrl-C)")
        left = sorted(p.name for p in path.iterdir() if p in made)
        interrupts.check()
    assert left == []


def test_a_forced_end_kills_the_chapters_ffmpeg_and_its_files_go(tmp_path, monkeypatch):
    """The remux that puts the chapters in is a program of the bot's: a forced end kills
    it (``processes.kill_started``), and the files it worked with are removed."""
    started = tmp_path / "started"
    fake = tmp_path / "fake-ffmpeg"
    says = f"echo $$ > {started}.tmp && mv {started}.tmp {started}"  # whole, or not yet
    fake.write_text(f"#!/bin/sh\n{says}\nexec sleep 60\n")
    fake.chmod(0o755)
    monkeypatch.setattr(chapters_module.shutil, "which", lambda name: str(fake))
    # only the programs this test starts: the worker's own Xvfb is no program of a run's
    started_here: weakref.WeakSet = weakref.WeakSet()
    monkeypatch.setattr(processes, "_started", started_here)
    video = tmp_path / "video.mp4"
    video.write_bytes(b"a video")
    result: list[str | None] = []
    remux = threading.Thread(
        target=lambda: result.append(write_chapters(video, [Chapter(0, 50, "Level 1")]))
    )
    remux.start()
    try:
        # the program has started (it says so), and the bot holds it (a busy machine may
        # run the program's first lines before its start has returned)
        while not (started.exists() and len(started_here)):
            remux.join(0.01)
            assert remux.is_alive(), "write_chapters ended before its program started"
        processes.kill_started("a forced end")
        remux.join(10)
        assert not remux.is_alive(), "the chapters' program was not killed"
    finally:
        if remux.is_alive():
            os.kill(int(started.read_text()), signal.SIGKILL)
            remux.join()
    assert result and result[0] is not None  # no chapters, said why
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-ffmpeg", "started", "video.mp4"]
    assert video.read_bytes() == b"a video"
