"""The screen-capture video: a steady timeline at the measured speed, only changed
frames kept, and an MP4 whose length is the captured time (real ffmpeg, fake picture).

The capture runs on a clock the test runs (``FakeClock``), so what it grabs, when, and
what the video shows follow from the test's timeline, not from how busy the machine is.
Figures: Fuse emulates 50.08 frames per second at 100 % (one frame is 19.968 ms); the
capture grabs every 2 emulated frames, so the video has 25.04 frames per emulated second,
and a slot is 39.936 ms of wall time at 100 %, 19.968 ms at 200 %."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pytest

from logo_bot.bot.recording import screen_capture
from logo_bot.bot.recording.screen_capture import Clock, ScreenCapture
from logo_bot.bot.recording.video import probe


class FakeClock(Clock):
    """The capture's time, run by the test: a wait takes no real time, it moves the clock
    on, to ``late_s`` past the moment asked for (a thread wakes a little late), doing on
    the way what the test set for those moments; at ``end_s`` the capture is stopped."""

    def __init__(self, end_s: float, late_s: float = 0.001) -> None:
        self.t = 0.0
        self.end_s = end_s
        self.late_s = late_s
        self.todo: list[tuple[float, Callable[[], None]]] = []

    def at(self, when: float, action: Callable[[], None]) -> None:
        self.todo.append((when, action))
        self.todo.sort(key=lambda item: item[0])

    def now(self) -> float:
        return self.t

    def wait(self, stop: threading.Event, seconds: float) -> bool:
        until = self.t + seconds + self.late_s
        while self.todo and self.todo[0][0] <= min(until, self.end_s):
            when, action = self.todo.pop(0)
            self.t = max(self.t, when)
            action()
        if until > self.end_s:
            self.t = self.end_s
            return True  # stopped: the end of the test's timeline
        self.t = until
        return stop.is_set()


def changing_picture(clock: FakeClock, period_s: float) -> Callable[[], np.ndarray]:
    """A 64x48 picture whose colour changes every ``period_s`` seconds of ``clock``."""
    return lambda: np.full((48, 64, 3), int(clock.t / period_s) * 40 % 256, dtype=np.uint8)


def capture_until_closed(capture: ScreenCapture, closed: threading.Event) -> ScreenCapture:
    capture.start()
    assert closed.wait(10), "the capture thread ended (end of the timeline, or a grab failed)"
    return capture


def spy_on_video_frames(monkeypatch) -> list[int]:
    """The shade of every frame written to the video, in order."""
    shown: list[int] = []
    write_video = screen_capture.write_video

    def spy(path, images, rate):
        def each():
            for image in images:
                shown.append(int(image[0, 0, 0]))
                yield image

        return write_video(path, each(), rate)

    monkeypatch.setattr(screen_capture, "write_video", spy)
    return shown


@pytest.mark.ffmpeg
@pytest.mark.parametrize(
    ("started_at", "measured", "grabs", "frames"),
    [
        # 1 s: a slot at 0 and at 1 ms past each 39.936 ms slot: 0..25
        (100, 100, 26, 25),
        # 1 s: slots of 19.968 ms: 0..50
        (200, 200, 51, 50),
        # slots 0..7 of 39.936 ms until the speed is measured at 0.3 s, then the one
        # due at 0.319 s and 34 more of 19.968 ms
        (100, 200, 8 + 35, 50),
    ],
)
def test_the_video_lasts_the_captured_time_at_the_measured_speed(
    tmp_path, started_at, measured, grabs, frames
):
    """1 s of wall time is 1 emulated second at 100 %, 2 at 200 %: 25.04 or 50.08 video
    frames, of which 25 or 50 whole ones."""
    clock = FakeClock(end_s=1.0)
    closed = threading.Event()
    picture = changing_picture(clock, 0.1)
    capture = ScreenCapture(
        lambda: (picture, closed.set), tmp_path / "frames.tmp", started_at, clock=clock
    )
    clock.at(0.3, lambda: capture.retime(measured))  # the speed has been measured
    info = capture_until_closed(capture, closed).render(tmp_path / "video.mp4", measured)
    assert info["error"] is None and info["path"] == "video.mp4"
    assert info["captured_s"] == 1.0 and info["late_slots"] == 0
    assert info["grabs"] == grabs
    assert info["frames"] == frames
    video = probe(tmp_path / "video.mp4")
    assert video["frames"] == frames and video["codec_name"] == "h264"
    assert video["r_frame_rate"] == "15625/624"  # 25.04: half of 1e6 / 19968 frames/s
    assert (video["width"], video["height"]) == (64, 48)
    assert len(capture.kept) == 10, "each of the 10 pictures kept once, unchanged grabs not"
    assert not (tmp_path / "frames.tmp").exists()


@pytest.mark.ffmpeg
def test_each_video_frame_shows_the_picture_of_its_moment(tmp_path, monkeypatch):
    """0.8 s of wall time at 200 %: 1.6 emulated seconds, 40 video frames, one per
    19.968 ms slot. The capture grabs at 0 and 1 ms past each slot, so frame i (at
    i * 19.968 ms) shows the grab of slot i - 1. The picture changes every 0.1 s: slot 5
    (at 100.8 ms) sees the second one, slots 10, 15, 20, 25, 30 (at 600.0 ms) the next
    ones, and slot 36 (at 719.8 ms), not 35 (at 699.9 ms), the eighth."""
    clock = FakeClock(end_s=0.8)
    closed = threading.Event()
    picture = changing_picture(clock, 0.1)
    capture = ScreenCapture(lambda: (picture, closed.set), tmp_path / "f.tmp", 200, clock=clock)
    capture_until_closed(capture, closed)
    shown = spy_on_video_frames(monkeypatch)
    decompressed = []
    original = capture.pixels

    def spy(kept):
        decompressed.append(int(original(kept)[0, 0, 0]))
        return original(kept)

    capture.pixels = spy
    info = capture.render(tmp_path / "v.mp4", 200)
    assert info["error"] is None and info["frames"] == 40
    pictures = [0, 40, 80, 120, 160, 200, 240, 24]  # 40 more each 0.1 s, modulo 256
    assert decompressed == pictures, "each picture in its turn, decompressed once"
    runs = [6, 5, 5, 5, 5, 5, 6, 3]  # video frames showing each picture
    assert shown == [shade for shade, n in zip(pictures, runs, strict=True) for _ in range(n)]


@pytest.mark.ffmpeg
def test_the_video_begins_where_the_runs_clock_does(tmp_path, monkeypatch):
    """The first grab came 0.4 s after the run's clock began (the thread opening its X
    connections on a busy machine): the video still begins at the run's start, showing
    the first picture until then, so that a level is where the run's clock puts it. At
    200 %, video frame i is at i * 19.968 ms from the start; the second picture was
    grabbed at 0.4 + 0.1008 s, so frame 26 is its first."""
    clock = FakeClock(end_s=0.8)
    closed = threading.Event()
    picture = changing_picture(clock, 0.1)
    capture = ScreenCapture(
        lambda: (picture, closed.set), tmp_path / "f.tmp", 200, clock=clock, origin=-0.4
    )
    capture_until_closed(capture, closed)
    shown = spy_on_video_frames(monkeypatch)
    info = capture.render(tmp_path / "v.mp4", 200)
    assert info["error"] is None and info["captured_s"] == 1.2
    assert info["frames"] == 60  # 1.2 s at 200 %: 2.4 emulated seconds of 25.04 frames
    assert shown[:26] == [0] * 26 and shown[26] == 40


@pytest.mark.ffmpeg
def test_a_grab_that_fails_ends_the_video_with_what_was_captured(tmp_path, monkeypatch):
    """Five grabs at 100 % (at 0, then 1 ms past each 39.936 ms slot); the sixth fails
    at 200.7 ms: 5.03 video frames of 39.936 ms, 5 whole ones, frame i showing grab i - 1."""
    calls = {"n": 0}

    def grab():
        calls["n"] += 1
        if calls["n"] > 5:
            raise RuntimeError("BadWindow")
        return np.full((8, 8, 3), calls["n"], dtype=np.uint8)

    closed = threading.Event()
    clock = FakeClock(end_s=10.0)
    capture = ScreenCapture(lambda: (grab, closed.set), tmp_path / "f.tmp", 100, clock=clock)
    shown = spy_on_video_frames(monkeypatch)
    info = capture_until_closed(capture, closed).render(tmp_path / "v.mp4", 100)
    assert "BadWindow" in info["error"] and info["captured_s"] == 0.201
    assert info["frames"] == 5 and shown == [1, 1, 2, 3, 4]


@pytest.mark.ffmpeg
def test_frames_the_bot_just_grabbed_are_used_instead_of_grabbing_again(tmp_path):
    """The bot looks every 2 ms, but not from 0.41 to 0.59 s. A slot (every 39.936 ms at
    100 %) uses the bot's last look when it is within half a slot (19.968 ms); slot 0
    (before the first look) and slots 11 to 14 (0.439 to 0.559 s, the last look at
    0.408 s) grab the picture themselves; the other 21 of the 26 slots in 1 s do not."""
    grabbed = {"n": 0}
    picture = np.zeros((8, 8, 3), dtype=np.uint8)

    def grab():
        grabbed["n"] += 1
        return picture

    closed = threading.Event()
    clock = FakeClock(end_s=1.0)
    capture = ScreenCapture(lambda: (grab, closed.set), tmp_path / "f.tmp", 100, clock=clock)
    for ms in range(2, 1001, 2):
        if not 410 <= ms < 590:
            clock.at(ms / 1000, lambda at=ms / 1000: capture.offer(picture, at))
    info = capture_until_closed(capture, closed).render(tmp_path / "v.mp4", 100)
    assert (info["grabs"], info["reused"], grabbed["n"]) == (26, 21, 5)
