"""Glimpses in the environment: the level's cells read where the console can, the whole
frame looked at only when asked, and waits that ask glimpses only of ``ByCells``."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

from logo_bot.bot.errors import EmulatorError, Unreadable
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.observation import ByCells, Glimpse
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.cell_sight import CellReading, CellSight
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.keys import KeyClock, Taps
from logo_bot.solvers.board import Board
from tests.bot import fake_frames
from tests.bot.see.test_cell_sight import Screen
from tests.bot.see.test_marks import packed, write
from tests.bot.see.test_vision_per_cell import random_board

PROFILE = load_profile("practice")


class Console:
    """Frames of a level whose cursor moves one cell right at each ``wait_drawn``; looks
    and glimpses counted. ``cells`` False: a console with no glimpses (polled)."""

    def __init__(self, cells: bool = True) -> None:
        self.vision = Vision(PROFILE, 1)
        self.frame_s = 0.02
        self.target = random_board(Random(3))
        self.column = 1
        self.looks = self.glimpses = 0
        self.cells = cells
        self.sight = CellSight(self.vision)
        self.keys = None
        self.dead = False  # Fuse has died: a look raises, a glance still gives a picture

    def picture(self) -> np.ndarray:
        return fake_frames.draw(self.target, None, cursor=(1, self.column))

    def frame(self) -> np.ndarray:
        if self.dead:
            raise EmulatorError("Fuse has stopped (exit -9)")
        return self.glance()

    def glance(self) -> np.ndarray:
        self.looks += 1
        return self.picture()

    def wait_drawn(self, until: float) -> bool:
        self.column = min(self.column + 1, 10)
        return True

    def glimpse(self) -> CellReading | None:
        if not self.cells:
            return None
        self.glimpses += 1
        return self.sight.update(Screen.around(self.picture()))


def test_a_wait_by_cells_asks_glimpses_and_looks_at_no_frame():
    console = Console()
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, met = env.wait_for(ByCells(lambda o: o.cursor == (1, 4)), 10)
    assert met and isinstance(obs, Glimpse) and obs.cursor == (1, 4)
    assert console.glimpses == 4 and console.looks == 0
    assert obs.board == Board.empty(6, 10) and obs.level_shown
    assert console.looks == 0, "the cells' readings looked at the frame"


def test_a_glimpses_frame_and_its_screen_are_looked_at_when_asked_once():
    console = Console()
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, _ = env.wait_for(ByCells(lambda o: o.cursor == (1, 2)), 10)
    assert console.looks == 0
    assert obs.target == console.target  # from the frame
    assert obs.screen is None and obs.frame.shape == (240, 320, 3)
    assert console.looks == 1


def test_a_plain_wait_looks_at_whole_frames():
    console = Console()
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, met = env.wait_for(lambda o: o.cursor == (1, 3), 10)
    assert met and not isinstance(obs, Glimpse)
    assert console.looks == 3 and console.glimpses == 0


def test_with_no_glimpse_from_the_console_a_wait_by_cells_looks():
    console = Console(cells=False)
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, met = env.wait_for(ByCells(lambda o: o.cursor == (1, 2)), 10)
    assert met and not isinstance(obs, Glimpse) and console.looks == 2


def test_a_glimpse_says_unreadable_as_vision_does():
    vision = Vision(PROFILE, 1)
    frame = fake_frames.draw(None, None, cursor=None)
    reading = CellSight(vision).update(Screen.around(frame))
    obs = Glimpse(reading, lambda: frame, vision)
    with pytest.raises(Unreadable, match="the cursor rule matches no cell"):
        _ = obs.cursor
    assert not obs.level_shown
    assert "Glimpse(" in repr(obs) and obs != Glimpse(reading, lambda: frame, vision)


def test_a_glimpses_frame_is_a_glance_that_fuse_dying_since_does_not_stop():
    """A failure's picture is taken of the last glimpse after the failure: Fuse may have
    died meanwhile, and the picture is still what the screen shows."""
    console = Console()
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, _ = env.wait_for(ByCells(lambda o: o.cursor == (1, 2)), 10)
    console.dead = True
    with pytest.raises(EmulatorError):
        env.observe()
    assert obs.frame.shape == (240, 320, 3)


def test_a_glimpse_names_the_screen_from_its_own_pixels_and_looks_at_no_frame():
    """Between levels a wait by cells asks for the screen at every drawing: the glimpse's
    pixels say it, as a look at the frame would."""
    console = Console()
    shown = console.picture()
    spot = PROFILE.screens.marks["code"]
    write(shown, 1, spot, spot.text)
    console.picture = lambda: shown  # type: ignore[method-assign]
    env = LogoEnv(console)  # type: ignore[arg-type]
    obs, met = env.wait_for(ByCells(lambda o: o.screen in {"code", "final"}), 10)
    assert met and isinstance(obs, Glimpse) and obs.screen == "code"
    assert console.looks == 0, "the screen was read from a frame"
    assert env.observe().screen == "code"


def test_a_glimpse_whose_pixels_were_let_go_reads_the_screen_from_a_frame():
    """A Fuse restarted since: the screen file's memory is let go, and a look says."""
    vision = Vision(PROFILE, 1)
    frame = fake_frames.draw(None, None, cursor=(1, 1))
    spot = PROFILE.screens.marks["final"]
    write(frame, 1, spot, spot.text)
    picture = packed(frame)
    reading = CellSight(vision).update(picture)
    looks = []
    screens = ScreenReader(PROFILE, 1)
    picture.pixels.release()
    obs = Glimpse(reading, lambda: (looks.append(1), frame)[1], vision, screens)
    assert obs.screen == "final" and looks == [1]


class SeeingKeys:
    """A key driver that holds each key until ``seen`` says so, the console drawing the
    next frame between looks."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.clock = KeyClock()

    def taps_until(self, keys, seen, longest_ms, poll_s=0.001, first_look_ms=0.0) -> Taps:
        taps = Taps()
        for i, _ in enumerate(keys):
            taps.pressed += 1
            while not seen(i):
                self.console.wait_drawn(0.0)
            taps.seen += 1
        return taps


def test_a_bursts_glimpses_are_charged_to_grab_each_counted():
    """A key held until seen glimpses with no time span of its own: the burst moves their
    seconds and their number to ``grab`` at its end, out of the burst's own time."""
    console = Console()
    console.keys = SeeingKeys(console)  # type: ignore[assignment]
    env = LogoEnv(console)  # type: ignore[arg-type]
    expects = [ByCells(lambda o, c=c: o.cursor == (1, c)) for c in (3, 5)]
    with env.spent.phase("level"):
        result = env.step_seen(["p", "p"], expects, 10)
    assert result.met and console.glimpses == 6 and console.looks == 0
    assert env.spent.counts["level"]["grab"] == 6
    seconds = env.spent.seconds["level"]
    assert seconds["grab"] > 0 and seconds["focus_checks"] >= 0
    env.step_seen(["p"], [ByCells(lambda o: o.cursor == (1, 6))], 10)  # outside the level
    assert env.spent.counts["level"]["grab"] == 6, "a burst's glimpses counted twice"
