"""Video writing (ffmpeg, and OpenCV when ffmpeg is missing), finding levels in frames,
and spotting Fuse's end-of-playback dialog."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from logo_bot.bot.frames import FRAME_RATE
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.playback import finished_dialog
from logo_bot.bot.recording.scan import LevelScanner, LevelSpan, span_of
from logo_bot.bot.recording.video import FfmpegWriter, OpenCvWriter, open_video, probe
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board
from tests.bot.fake_frames import draw

PROFILE = load_profile("practice")
TARGET = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)


def frames(count: int) -> list[np.ndarray]:
    return [np.full((240, 320, 3), (i * 7) % 256, dtype=np.uint8) for i in range(count)]


@pytest.mark.ffmpeg
def test_ffmpeg_writes_browser_playable_h264_with_every_frame(tmp_path):
    path = tmp_path / "v.mp4"
    with open_video(path, (320, 240), zoom=2) as writer:
        for f in frames(37):
            writer.write(f)
    assert isinstance(writer, FfmpegWriter) and writer.frames == 37
    info = probe(path)
    assert info["codec_name"] == "h264" and info["pix_fmt"] == "yuv420p"
    assert (info["width"], info["height"]) == (640, 480)
    assert info["frames"] == 37
    assert info["r_frame_rate"] == f"{FRAME_RATE.numerator}/{FRAME_RATE.denominator}"
    data = path.read_bytes()
    assert data.index(b"moov") < data.index(b"mdat"), "+faststart puts the index first"


@pytest.mark.ffmpeg
def test_opencv_writes_the_video_when_ffmpeg_is_not_on_path(tmp_path, monkeypatch):
    import cv2  # noqa: F401  (the video extra, installed by scripts/setup.sh)

    ffprobe = shutil.which("ffprobe")
    bare = tmp_path / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))
    assert shutil.which("ffmpeg") is None
    path = tmp_path / "v.mp4"
    with open_video(path, (320, 240), zoom=2) as writer:
        for f in frames(25):
            writer.write(f)
    assert isinstance(writer, OpenCvWriter) and writer.codec in ("h264", "mpeg4")
    monkeypatch.setenv("PATH", os.path.dirname(ffprobe))
    info = probe(path)
    assert info["frames"] == 25 and (info["width"], info["height"]) == (640, 480)
    assert info["codec_name"] == writer.codec


@pytest.mark.ffmpeg
def test_writer_refuses_a_frame_of_another_size(tmp_path):
    from logo_bot.bot.errors import VideoError

    with open_video(tmp_path / "v.mp4", (320, 240)) as writer:
        with pytest.raises(VideoError, match="320x240"):
            writer.write(np.zeros((10, 10, 3), dtype=np.uint8))
        writer.write(frames(1)[0])


@pytest.mark.ffmpeg
def test_an_ffmpeg_failure_quotes_the_end_of_its_log(tmp_path):
    from logo_bot.bot.errors import VideoError

    (tmp_path / "v.mp4.part").mkdir()  # ffmpeg cannot write the video over a folder
    writer = FfmpegWriter(tmp_path / "v.mp4", (320, 240), FRAME_RATE)
    with pytest.raises(VideoError, match=r"ffmpeg .*/v\.mp4: .*/v\.mp4\.part: Is a directory"):
        writer.write(frames(1)[0])
        writer.close()
    assert (tmp_path / "v.ffmpeg.log").is_file(), "kept for a look"


def test_scanner_finds_each_level_and_its_end_board():
    vision = Vision(PROFILE, 1)
    blank = np.zeros((240, 320, 3), dtype=np.uint8)
    half = Board.from_rows(
        ["..........", "....1.....", "..........", "..........", "..........", ".........."]
    )
    sequence = (
        [blank] * 5
        + [draw(TARGET, cursor=(1, 1))] * 10
        + [draw(TARGET, half, cursor=(2, 5))] * 3
        + [draw(None, TARGET, cursor=(3, 5))] * 4  # the level is done: preview cleared
        + [blank] * 2
        + [draw(TARGET, cursor=(1, 1))] * 6  # the next level, still on at the end
    )
    scanner = LevelScanner(vision, segment=1)
    for f in sequence:
        scanner.feed(f)
    spans = scanner.finish()
    assert [(s.start, s.end) for s in spans] == [(5, 18), (24, None)]
    assert spans[0].target == TARGET and spans[0].end_board == TARGET
    assert spans[1].end_board == Board.empty(6, 10)
    assert scanner.frames == 30 and scanner.final_board == Board.empty(6, 10)


def test_a_level_is_placed_by_its_target_when_the_clock_runs_late():
    """CI once saw the wall-clock origin 60 frames late (the bot noticed Fuse's window
    after Fuse had begun): level 1's estimate fell before its span, level 2's nearer
    level 1's. The target decides; the clock only picks among a level's own spans."""
    other = Board.from_rows(["..........", "....2....."] + [".........."] * 4)
    one, two = LevelSpan(1, 146, 528, TARGET), LevelSpan(1, 580, 678, other)
    again = LevelSpan(1, 900, 1200, TARGET)  # level 1 shown again later
    spans = [one, two, again, LevelSpan(2, 100, 300, TARGET)]
    assert span_of(spans, 1, 85, TARGET) is one
    assert span_of(spans, 1, 520, other) is two
    assert span_of(spans, 1, 880, TARGET) is again
    assert span_of(spans, 2, 0, TARGET) is spans[3]
    # no target known (a level stopped before it was read): the last span begun by then
    assert span_of(spans, 1, 520) is one and span_of(spans, 1, 540) is two
    assert span_of(spans, 1, 50) is None
    assert span_of(spans, 1, 520, Board.empty(6, 10)) is one  # no span shows it


def test_scanner_ignores_screens_whose_target_cannot_be_read():
    vision = Vision(PROFILE, 1)
    noise = np.random.default_rng(3).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    scanner = LevelScanner(vision, segment=1)
    for f in [noise] * 40 + [np.zeros((240, 320, 3), dtype=np.uint8)]:
        scanner.feed(f)
    assert scanner.finish() == []


@pytest.mark.parametrize("scale", [1, 2])
def test_finished_dialog_is_told_from_game_screens(scale):
    game = draw(TARGET, TARGET, cursor=(3, 5), scale=scale)
    assert not finished_dialog(game)
    assert not finished_dialog(np.full_like(game, 192))  # BASIC's paper is not bright
    dialog = game.copy()
    dialog[48 * scale : 63 * scale, 41 * scale : 279 * scale] = (248, 252, 248)
    dialog[50 * scale : 55 * scale, 45 * scale : 120 * scale] = 0  # its text
    assert finished_dialog(dialog)
