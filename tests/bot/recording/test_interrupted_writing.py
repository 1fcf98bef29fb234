"""A Ctrl-C or signal while the run's recording is written (video, chapters, report):
the writing stops, the run is aborted in run.json and the report, no half-written video
is left, and the interrupt goes on (exit 130)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bot.fuse.session import Segment
from bot.interrupts import Terminated
from bot.play.unattended import RunReport
from bot.profile import load_profile
from bot.recording import encode as encode_module
from bot.recording import recording as recording_module
from bot.recording import video as video_module
from bot.recording.events import read_events
from bot.recording.recording import Recording, RecordOptions
from bot.see.vision import Vision

PROFILE = load_profile("practice")


def interrupt(message: str = ""):
    def raising(*args, **kwargs):
        raise Terminated(message) if message else KeyboardInterrupt()

    return raising


def complete_run(tmp_path) -> Recording:
    recording = Recording.start(RecordOptions(tmp_path), "walkthrough", ["x"], PROFILE)
    recording.requested = (1, 1)
    recording.report = RunReport(1, 1, status="complete")
    return recording


def run_json(recording: Recording) -> dict:
    return json.loads((recording.folder.path / "run.json").read_text())


def test_a_signal_while_the_video_is_written_aborts_the_run_and_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(recording_module, "encode", interrupt("stopped by SIGTERM"))
    recording = complete_run(tmp_path)
    with pytest.raises(Terminated, match="SIGTERM"), recording:
        pass  # play ended complete; the signal comes during the video
    run = run_json(recording)
    assert (run["status"], run["error"]) == ("aborted", "stopped by SIGTERM")
    assert run["video"]["path"] is None
    assert run["video"]["error"].startswith("interrupted: stopped by SIGTERM")
    assert (recording.folder.path / "report.html").is_file()
    (end,) = [e for e in read_events(recording.folder.events) if e["event"] == "run_end"]
    assert end["status"] == "complete", "the play itself was complete"


def test_ctrl_c_while_the_report_is_written_still_leaves_run_json_and_the_report(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(Recording, "_chapters", interrupt())
    recording = complete_run(tmp_path)
    with pytest.raises(KeyboardInterrupt), recording:
        pass
    run = run_json(recording)
    assert (run["status"], run["error"]) == ("aborted", "stopped by Ctrl-C")
    assert (recording.folder.path / "report.html").is_file()


def test_a_second_signal_while_an_aborted_run_is_written_keeps_the_first_reason(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(recording_module, "encode", interrupt("stopped by SIGHUP"))
    recording = complete_run(tmp_path)
    with pytest.raises(Terminated) as caught, recording:
        raise Terminated("stopped by SIGTERM")
    assert str(caught.value) == "stopped by SIGTERM"
    run = run_json(recording)
    assert (run["status"], run["error"]) == ("aborted", "stopped by SIGTERM")
    assert run["video"]["error"].startswith("interrupted: stopped by SIGHUP")


def black_frames(count: int):
    for _ in range(count):
        yield np.zeros((240, 320, 3), dtype=np.uint8)
    raise Terminated("stopped by SIGTERM")


@pytest.mark.ffmpeg
def test_an_interrupted_encoding_stops_ffmpeg_and_leaves_no_video(tmp_path, monkeypatch):
    movie = tmp_path / "movie.fmf"
    movie.write_bytes(b"FMF")
    monkeypatch.setattr(encode_module, "read_frames", lambda path: black_frames(30))
    writers = []

    def opened(*args, **kwargs):
        writers.append(video_module.open_video(*args, **kwargs))
        return writers[-1]

    monkeypatch.setattr(encode_module, "open_video", opened)
    video = tmp_path / "video.mp4"
    segment = Segment(1, 0.0, 0.0, 100, None, movie)
    with pytest.raises(Terminated):
        encode_module.encode([segment], Vision(PROFILE, 1), video)
    (writer,) = writers
    assert writer._process.poll() is not None, "ffmpeg was left running"
    assert not video.exists() and not video.with_suffix(".ffmpeg.log").exists()


@pytest.mark.ffmpeg
def test_write_video_leaves_no_file_when_interrupted(tmp_path):
    video = tmp_path / "annotated.mp4"
    with pytest.raises(Terminated):
        video_module.write_video(video, black_frames(10))
    assert list(tmp_path.iterdir()) == []
