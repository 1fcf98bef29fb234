"""Playing an RZX input recording back in Fuse, and knowing when it has ended.

At the end of a playback Fuse pauses behind an "Info: Finished RZX playback" dialog
(measured: it waits for Return). ``play`` watches the window for that dialog once the
recording's frames should have been played, then stops Fuse with SIGTERM, which
finishes the movie Fuse was asked to write.
"""

from __future__ import annotations

import logging
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.errors import EmulatorError, Unreadable
from logo_bot.bot.frames import FPS
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.recording.movie import read_frames
from logo_bot.bot.recording.rzx import frame_count
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.grab import open_grabber

log = logging.getLogger(__name__)
CHECK_EVERY = 50  # frames compared between safe points (``interrupts.check``)


@dataclass(frozen=True)
class Playback:
    rzx: Path
    frames: int  # in the recording
    seconds: float
    ended_by: str  # "dialog", "fuse exited" or "time limit"
    movie: Path | None


def finished_dialog(frame: np.ndarray) -> bool:
    """Fuse's info dialog is up: at least four rows of bright white across the middle
    seven tenths of the window (the game's own screens never draw that)."""
    height, width = frame.shape[:2]
    band = frame[:, width * 15 // 100 : width * 85 // 100]
    white = (band >= 240).all(axis=2).mean(axis=1) >= 0.98
    return int(white.sum()) >= 4 * max(1, height // 240)


def play(
    rzx: Path,
    xserver: XServer,
    speed: int = 100,
    scale: int = 1,
    rom: Path | None = None,
    movie: Path | None = None,
    log_path: Path | None = None,
) -> Playback:
    """Play ``rzx`` in a new Fuse on ``xserver`` until the end; Fuse is stopped after."""
    frames = frame_count(rzx)
    expected = frames / (FPS * speed / 100)
    config = FuseConfig(
        rom=rom or OPENSE_ROM,  # the caller checked that a ROM it names is there
        scale=scale,
        speed=speed,
        playback=rzx,
        movie=movie,
    )
    started = time.monotonic()
    fuse = Fuse.start(config, xserver.display, log_path=log_path)
    ended_by = "time limit"
    try:
        grabber = open_grabber(xserver.display, fuse.window_id)
        try:
            limit = started + expected * 2 + 10
            while time.monotonic() < limit:
                if not fuse.alive():
                    ended_by = "fuse exited"
                    break
                if time.monotonic() - started >= expected * 0.8:
                    try:
                        frame = grabber.grab()
                    except EmulatorError:
                        ended_by = "fuse exited"
                        break
                    if finished_dialog(frame):
                        ended_by = "dialog"
                        break
                interrupts.sleep(0.05)  # a safe point: a stop ends the replay here
        finally:
            grabber.close()
    finally:
        fuse.stop()
    seconds = time.monotonic() - started
    log.info("played %s (%d frames) in %.1f s; ended by %s", rzx.name, frames, seconds, ended_by)
    return Playback(rzx, frames, seconds, ended_by, movie if movie and movie.is_file() else None)


@dataclass(frozen=True)
class Comparison:
    """How a replay's frames compare with the run's movie."""

    compared: int
    identical: int  # pixel for pixel
    same_game: int  # not identical, but the same board, target and level on screen

    @property
    def matches(self) -> bool:
        return self.compared > 0 and self.identical + self.same_game == self.compared


def compare_movies(
    original: Path, replay: Path, offset: int, vision: Vision, skip: int = 0
) -> Comparison:
    """Frame ``i`` of ``replay`` against frame ``offset + i`` of ``original``, from
    ``i = skip`` on (the first frame after loading a state is drawn before the machine
    has run, so a level replay skips it). Measured: a replay is pixel-identical except
    for rare frames where the FLASH phase flips one frame apart or a byte drawn during
    the frame lands on the other side of the beam; those still show the same game."""
    with closing(read_frames(original)) as frames, closing(read_frames(replay)) as replayed:
        for _ in range(offset):
            if next(frames, None) is None:
                return Comparison(0, 0, 0)
        identical = same = compared = 0
        for index, frame in enumerate(replayed):
            if index % CHECK_EVERY == 0:
                interrupts.check()
            want = next(frames, None)
            if want is None:
                break
            if index < skip:
                continue
            compared += 1
            if np.array_equal(frame, want):
                identical += 1
            elif _game(vision, frame) == _game(vision, want):
                same += 1
    return Comparison(compared, identical, same)


def _game(vision: Vision, frame: np.ndarray) -> tuple[object, ...]:
    """What the game shows in ``frame``: level on screen, target and board."""
    out: list[object] = []
    for reader in (vision.level_shown, vision.preview, vision.board):
        try:
            out.append(reader(frame))
        except Unreadable as exc:
            out.append(exc.reason)
    return tuple(out)
