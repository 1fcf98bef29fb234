"""The screen-capture video: a steady timeline at the measured speed, only changed
frames kept, and an MP4 whose length is the captured time (real ffmpeg, fake picture)."""

import time

import numpy as np
import pytest

from bot.recording.screen_capture import ScreenCapture
from bot.recording.video import EMULATED_RATE, probe


def changing_picture(period_s: float):
    """A 64x48 picture whose colour changes every ``period_s`` wall seconds."""
    started = time.monotonic()

    def grab():
        shade = int((time.monotonic() - started) / period_s) * 40 % 256
        return np.full((48, 64, 3), shade, dtype=np.uint8)

    return lambda: (grab, lambda: None)


@pytest.mark.parametrize(("started_at", "measured"), [(100, 100), (200, 200), (100, 200)])
def test_the_video_lasts_the_captured_time_at_the_measured_speed(tmp_path, started_at, measured):
    capture = ScreenCapture(changing_picture(0.1), tmp_path / "frames.tmp", started_at).start()
    time.sleep(0.3)
    capture.retime(measured)  # the speed has been measured meanwhile
    time.sleep(0.7)
    info = capture.render(tmp_path / "video.mp4", measured)
    assert info["error"] is None and info["path"] == "video.mp4"
    emulated_s = info["captured_s"] * measured / 100
    assert info["frames"] == pytest.approx(emulated_s * float(EMULATED_RATE) / 2, rel=0.02, abs=2)
    video = probe(tmp_path / "video.mp4")
    assert video["frames"] == info["frames"] and video["codec_name"] == "h264"
    num, den = (int(x) for x in video["r_frame_rate"].split("/"))
    assert num / den == pytest.approx(float(EMULATED_RATE) / 2)
    assert video["frames"] / (num / den) == pytest.approx(emulated_s, rel=0.02, abs=0.1)
    assert (video["width"], video["height"]) == (64, 48)
    assert len(capture.kept) < capture.grabs, "unchanged frames are not kept again"
    assert not (tmp_path / "frames.tmp").exists()


def test_each_video_frame_shows_the_picture_of_its_moment(tmp_path):
    """A picture that changes every 0.1 s wall at 200 %: every 0.2 emulated seconds,
    so about 5 video frames (at 25.04 per second) each."""
    capture = ScreenCapture(changing_picture(0.1), tmp_path / "f.tmp", 200).start()
    time.sleep(0.8)
    capture.stop()
    shades = []
    original = capture.pixels

    def spy(kept):
        shades.append(int(original(kept)[0, 0, 0]))
        return original(kept)

    capture.pixels = spy
    info = capture.render(tmp_path / "v.mp4", 200)
    assert info["error"] is None
    assert len(shades) == len(set(shades)) >= 6, f"each picture in its turn, once: {shades}"


def test_a_grab_that_fails_ends_the_video_with_what_was_captured(tmp_path):
    calls = {"n": 0}

    def grab():
        calls["n"] += 1
        if calls["n"] > 5:
            raise RuntimeError("BadWindow")
        return np.full((8, 8, 3), calls["n"], dtype=np.uint8)

    capture = ScreenCapture(lambda: (grab, lambda: None), tmp_path / "f.tmp", 100).start()
    time.sleep(0.5)
    info = capture.render(tmp_path / "v.mp4", 100)
    assert info["frames"] == 5 and "BadWindow" in info["error"]


def test_frames_the_bot_just_grabbed_are_used_instead_of_grabbing_again(tmp_path):
    grabbed = {"n": 0}
    picture = np.zeros((8, 8, 3), dtype=np.uint8)

    def grab():
        grabbed["n"] += 1
        return picture

    capture = ScreenCapture(lambda: (grab, lambda: None), tmp_path / "f.tmp", 100).start()
    deadline = time.monotonic() + 0.6
    while time.monotonic() < deadline:  # the bot looks every 2 ms
        capture.offer(picture, time.monotonic())
        time.sleep(0.002)
    info = capture.render(tmp_path / "v.mp4", 100)
    assert info["reused"] >= 0.8 * info["grabs"] and grabbed["n"] <= 0.2 * info["grabs"] + 1
