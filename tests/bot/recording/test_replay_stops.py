"""A stop during ``logo-bot replay``: playing a video with ffplay and comparing a replay's
movie with the run's are safe points, so a stop ends them at once (a signal no longer
raises by itself)."""

from __future__ import annotations

import subprocess
import threading
import time

import numpy as np
import pytest

from logo_bot.bot import interrupts, processes
from logo_bot.bot.interrupts import Stopped, Terminated
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import playback, video_replay
from logo_bot.bot.see.vision import Vision


def stop_in(seconds: float) -> None:
    timer = threading.Timer(seconds, interrupts.request, ("stopped by SIGTERM", Terminated))
    timer.start()


def test_a_stop_ends_a_video_being_played(tmp_path, monkeypatch):
    started = []
    start = processes.start

    def long_player(command, **kwargs):
        started.append(start(["sleep", "30"], stdin=subprocess.DEVNULL))
        return started[-1]

    monkeypatch.setattr(video_replay, "installed", lambda *args: "ffplay")
    monkeypatch.setattr(video_replay.processes, "start", long_player)
    stop_in(0.2)
    began = time.monotonic()
    with pytest.raises(Terminated):
        video_replay.show(tmp_path / "video.mp4", ":99")
    assert time.monotonic() - began < 2
    assert started[0].poll() is not None, "the player was stopped"


def test_a_stop_ends_the_comparison_of_two_movies(monkeypatch):
    def endless(path):
        while True:
            yield np.zeros((240, 320, 3), dtype=np.uint8)

    monkeypatch.setattr(playback, "read_frames", endless)
    stop_in(0.2)
    with pytest.raises(Stopped):
        playback.compare_movies(None, None, 0, Vision(load_profile("practice"), 1))
