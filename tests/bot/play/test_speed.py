"""Measuring the emulation speed from FLASH swaps, on synthetic flashing frames timed by
a clock the test runs (the real game in Fuse: test_speed_fuse.py)."""

import itertools

import pytest

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.play.speed import board_area, measure_speed
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.board import Board
from tests.bot.fake_frames import draw

PROFILE = load_profile("practice")
STEADY = draw(Board.empty(6, 10), cursor=(3, 4), flash=False)
SWAPPED = draw(Board.empty(6, 10), cursor=(3, 4), flash=True)
FRAME_US = 19968  # one frame of Fuse's 48K Spectrum at 100 %: 50.08 frames per second


class Emulated:
    """A game emulated at ``percent`` speed on the test's clock: each look at the screen
    shows the next emulated frame (and takes its time, ``FRAME_US * 100 / percent``),
    and the cursor swaps on FLASH every 16 frames."""

    def __init__(self, percent: float, frames=None) -> None:
        self.percent = percent
        self.shown = 0  # emulated frames shown so far
        self.frames = frames  # the pictures, one per look; FLASH swaps by default

    def frame(self):
        self.shown += 1
        if self.frames is not None:
            return next(self.frames)
        return SWAPPED if self.shown // 16 % 2 else STEADY

    def clock(self) -> float:
        return self.shown * FRAME_US * 100 / self.percent / 1e6


@pytest.mark.parametrize(
    ("percent", "frame_s", "swaps", "seconds"),
    # swaps 16 frames apart, 7 of them or more over a second or more: periods of 16
    # frames of 19.968 ms / (percent / 100)
    [(400, 0.004992, 14, 1.038), (800, 0.002496, 27, 1.038), (100, 0.019968, 7, 1.917)],
)
def test_the_speed_is_read_from_the_flash_period(percent, frame_s, swaps, seconds):
    game = Emulated(percent)
    reading = measure_speed(game.frame, board_area(PROFILE, 1), poll_s=0, clock=game.clock)
    assert reading.swaps == swaps
    assert reading.percent == percent
    assert reading.frame_s == pytest.approx(frame_s, rel=1e-9)
    assert reading.seconds == seconds


def test_a_still_picture_has_no_speed():
    game = Emulated(100, frames=itertools.repeat(STEADY))
    with pytest.raises(Unreadable, match="flashed 0 times in 8 s"):
        measure_speed(game.frame, board_area(PROFILE, 1), poll_s=0, clock=game.clock)
    watched = game.clock() - FRAME_US / 1e6  # from the first look
    assert 8.0 <= watched < 8.0 + FRAME_US / 1e6, "it watched the board for its 8 s timeout"


def test_changes_outside_the_board_do_not_count():
    pictures = [STEADY.copy(), STEADY.copy()]

    def frames():
        for nxt in itertools.cycle(pictures):
            nxt[230, 300] = (nxt[230, 300] + 1) % 255  # the panel's clock ticking
            yield nxt

    game = Emulated(100, frames=frames())
    with pytest.raises(Unreadable, match="flashed 0 times"):
        measure_speed(game.frame, board_area(PROFILE, 1), poll_s=0, clock=game.clock)


class CatchingUp(Emulated):
    """A Fuse that was stopped: its first ``missed`` frames come ``burst`` times faster
    than its speed (it catches up on them), then at its speed."""

    def __init__(self, percent: float, missed: int, burst: float) -> None:
        super().__init__(percent)
        self.missed, self.burst = missed, burst

    def clock(self) -> float:
        fast = min(self.shown, self.missed)
        frame_s = FRAME_US * 100 / self.percent / 1e6
        return fast * frame_s / self.burst + (self.shown - fast) * frame_s


@pytest.mark.parametrize("burst", [30, 3])
def test_a_fuse_catching_up_on_missed_frames_is_timed_once_it_has_caught_up(burst):
    """After SIGCONT Fuse runs the frames it missed back to back: here 200 frames (2 s at
    200 %), whose 12 FLASH swaps come 30 (or 3) times too fast, at a steady pace."""
    game = CatchingUp(200, missed=200, burst=burst)
    reading = measure_speed(game.frame, board_area(PROFILE, 1), poll_s=0, clock=game.clock)
    assert reading.percent == 200


def test_an_unsteady_pace_is_taken_as_it_is_at_the_timeout():
    """Swaps that never settle: the last 7 count, as before there was a steadiness test."""
    gaps = itertools.cycle([10, 30])  # frames between swaps, alternately
    pictures, flash = [], False
    for _ in range(60):
        flash = not flash
        pictures += [SWAPPED if flash else STEADY] * next(gaps)
    game = Emulated(100, frames=iter(pictures + [pictures[-1]] * 2000))
    reading = measure_speed(game.frame, board_area(PROFILE, 1), poll_s=0, clock=game.clock)
    assert reading.swaps == 7
