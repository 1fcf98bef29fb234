"""A stop while the run's folder is written (video, chapters, report): the encoders stop
at a safe point once the finishing time is up, no half-written video is left, the status
stays what play ended with (a complete run stays complete, its video unfinished), and
run.json, run_end and report.html agree; the stop goes on (exit 130)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from faults.folder_check import check_folder
from logo_bot.bot import interrupts
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.interrupts import Stopped, Terminated
from logo_bot.bot.play.unattended import RunReport
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import encode as encode_module
from logo_bot.bot.recording import video as video_module
from logo_bot.bot.recording.encode import Encoded
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.recording import Recording
from logo_bot.bot.see.vision import Vision
from tests.bot.recording.run_folders import started_run

PROFILE = load_profile("practice")


def black_frames(count: int):
    for _ in range(count):
        yield np.zeros((240, 320, 3), dtype=np.uint8)


def complete_run(tmp_path, monkeypatch, frames: int = 400) -> Recording:
    """A run whose one level was done, with a movie of ``frames`` black frames."""
    monkeypatch.setattr(encode_module, "read_frames", lambda path: black_frames(frames))
    return started_run(tmp_path / "runs", 1, "complete")


def run_json(recording: Recording) -> dict:
    return json.loads(recording.folder.run_json.read_text())


def run_end(recording: Recording) -> dict:
    return [e for e in read_events(recording.folder.events) if e["event"] == "run_end"][-1]


@pytest.mark.ffmpeg
def test_a_stop_while_the_video_is_written_keeps_a_complete_run_complete(tmp_path, monkeypatch):
    monkeypatch.setattr(interrupts, "FINISH_S", 0.0)  # the finishing time is up at once
    recording = complete_run(tmp_path, monkeypatch)
    with pytest.raises(Terminated, match="SIGTERM"), recording:
        interrupts.request("stopped by SIGTERM", Terminated)  # as play ended
    run = run_json(recording)
    assert (run["status"], run["error"]) == ("complete", None)
    video = run["video"]
    assert (video["path"], video["unfinished"]) == (None, True)
    assert video["error"].startswith("unfinished: stopped by SIGTERM while it was written")
    assert f"'logo-bot replay {recording.folder.path} --headless' makes it" in video["error"]
    assert (run_end(recording)["status"], run_end(recording)["error"]) == ("complete", None)
    page = (recording.folder.path / "report.html").read_text()
    assert "status complete" in page and "video unfinished" in page
    assert not recording.folder.video.exists(), "no half-written video"
    check = check_folder(recording.folder.path, status="complete")
    assert check.ok, check.problems


@pytest.mark.ffmpeg
def test_a_video_short_enough_is_still_written_after_a_stop(tmp_path, monkeypatch):
    recording = complete_run(tmp_path, monkeypatch, frames=60)
    with pytest.raises(Stopped, match="Ctrl-C"), recording:
        interrupts.request("stopped by Ctrl-C")
        interrupts.check()  # the stop during play
    run = run_json(recording)
    assert (run["status"], run["error"]) == ("aborted", "stopped by Ctrl-C")
    assert (run["video"]["path"], run["video"]["frames"]) == ("video.mp4", 60)
    assert not run["video"].get("unfinished")
    assert run_end(recording)["status"] == "aborted"
    check = check_folder(recording.folder.path, status="aborted")
    assert check.ok, check.problems


def test_the_first_run_json_marks_the_video_not_written_yet(tmp_path, monkeypatch):
    """What a folder says when its bot is killed while the video is written."""
    seen = {}

    def killed(*args, **kwargs):
        seen.update(run_json(recording))
        raise Stopped("stopped by SIGTERM")

    monkeypatch.setattr(Recording, "_encode", killed)
    recording = complete_run(tmp_path, monkeypatch)
    with pytest.raises(Stopped), recording:
        pass
    assert seen["status"] == "complete"
    assert seen["video"]["unfinished"] and "not written yet" in seen["video"]["error"]


def test_a_stop_while_the_report_is_written_keeps_the_video(tmp_path, monkeypatch):
    def stopped(*args):
        raise Stopped("stopped by the Pause key")

    monkeypatch.setattr(Recording, "_chapters", stopped)
    recording = complete_run(tmp_path, monkeypatch, frames=0)
    with pytest.raises(Stopped, match="Pause key"), recording:
        pass
    run = run_json(recording)
    assert run["status"] == "complete"
    assert not run["video"].get("unfinished"), "the video was done (here: no frames at all)"
    assert (recording.folder.path / "report.html").is_file()


def test_a_forced_end_during_play_marks_the_folder_aborted(tmp_path, monkeypatch):
    recording = complete_run(tmp_path, monkeypatch, frames=0)  # the process exits: no video
    recording.report = RunReport(1, 1)
    with pytest.raises(Terminated), recording:
        interrupts.request("stopped by SIGTERM", Terminated)
        recording._forced("a second stop (stopped by SIGTERM)")
        forced = run_json(recording)
        page = (recording.folder.path / "report.html").read_text()
        log = recording.folder.log.read_text()
        last = run_end(recording)
        recording.report = RunReport(1, 1, status="complete")  # would not be reached
        raise Terminated("stopped by SIGTERM")
    assert forced["status"] == "aborted"
    assert forced["error"] == (
        "stopped by SIGTERM, then ended at once: a second stop (stopped by SIGTERM)"
    )
    assert (last["status"], last["error"]) == ("aborted", forced["error"])
    assert "status aborted" in page, "the report, written at once too"
    assert "ended at once (a second stop" in log
    assert "Current thread" in log and "in test_a_forced_end_during_play" in log


def test_a_forced_end_while_the_video_is_written_keeps_the_status(tmp_path, monkeypatch):
    seen = []

    def forced_meanwhile(self):
        self._forced("the stop took over 8 s")  # the process would exit right after
        seen.append((run_json(self), run_end(self)))
        return Encoded()

    monkeypatch.setattr(Recording, "_encode", forced_meanwhile)
    recording = complete_run(tmp_path, monkeypatch)
    with pytest.raises(Terminated), recording:
        interrupts.request("stopped by SIGTERM", Terminated)
    ((run, last),) = seen
    assert (run["status"], run["error"]) == ("complete", None)
    assert run["video"]["unfinished"]
    assert "stopped by SIGTERM, then ended at once: the stop took over 8 s" in run["video"]["error"]
    assert (last["status"], last["forced"]) == ("complete", "the stop took over 8 s")


@pytest.mark.ffmpeg
def test_a_stopped_encoding_stops_ffmpeg_and_leaves_no_video(tmp_path, monkeypatch):
    monkeypatch.setattr(encode_module, "read_frames", lambda path: black_frames(300))
    writers = []

    def opened(*args, **kwargs):
        writers.append(video_module.open_video(*args, **kwargs))
        interrupts.request("stopped by SIGTERM", Terminated)  # check() raises at once
        return writers[-1]

    monkeypatch.setattr(encode_module, "open_video", opened)
    movie = tmp_path / "movie.fmf"
    movie.write_bytes(b"FMF")
    video = tmp_path / "video.mp4"
    with pytest.raises(Terminated):
        encode_module.encode([Segment(1, 0.0, 0.0, 100, None, movie)], Vision(PROFILE, 1), video)
    (writer,) = writers
    assert writer._process.poll() is not None, "ffmpeg was left running"
    assert writer.frames < 300, "stopped at a safe point, not at the end"
    assert not video.exists() and not video.with_suffix(".ffmpeg.log").exists()


@pytest.mark.ffmpeg
def test_write_video_stops_at_a_safe_point_and_leaves_no_file(tmp_path):
    video = tmp_path / "annotated.mp4"
    interrupts.request("stopped by Ctrl-C")
    with pytest.raises(Stopped):
        video_module.write_video(video, black_frames(200))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.ffmpeg
def test_write_video_inside_finishing_goes_on_until_the_deadline(tmp_path):
    video = tmp_path / "annotated.mp4"
    interrupts.request("stopped by Ctrl-C")
    with interrupts.finishing():
        info = video_module.write_video(video, black_frames(120))
    assert info["frames"] == 120 and video.is_file()
