"""End-to-end: the bot sees the real Fuse draw through DAMAGE reports, and plays by them."""

from __future__ import annotations

import pytest

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv, when_seen
from logo_bot.bot.play.observation import Glimpse
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.damage import DamageWatch
from logo_bot.bot.x11.framebuffer_watch import FramebufferWatch

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")


def test_a_level_is_played_woken_by_fuses_drawing(xserver):
    options = SessionOptions(display=xserver.display, headless=False, speed=200)
    with open_session(PROFILE, options) as session:
        assert isinstance(session.watch, DamageWatch)
        assert session.target is not None and session.target.picture is session.watch
        report = Walkthrough(session, LogoEnv(session), PROFILE, 1, 2).run()
        picture = session.run_record["picture"]
    assert report.status == "complete" and report.levels_done == 2
    # in play, no correction: every move and stone was seen as it was drawn. A menu key
    # the game answered late may be pressed again (CI has starved Fuse that long); a
    # fresh grab decides that, never a missed report, so run_corrections are not counted
    in_play = report.corrections - report.run_corrections
    assert sum(in_play.values()) == 0, in_play
    assert picture["seen_by"] == "damage" and picture["why"] is None
    # every wait ended on a report, and no report went unanswered by a look
    assert 0 < picture["wakeups"] <= picture["reports"] <= picture["looks"]


def outcome(read):
    """A reading, or the reason it could not be read."""
    try:
        return read()
    except Unreadable as exc:
        return exc.reason


class CheckedGlimpses(EnvWrapper):
    """Reads every step's glimpse again from a whole frame, as ``Vision`` reads it."""

    def __init__(self, env: LogoEnv) -> None:
        super().__init__(env)
        self.checked = 0

    def step_seen(self, keys, expects, longest_frames, ends=()):
        return self.env.step_seen(keys, when_seen(expects, self.check), longest_frames, ends)

    def check(self, i, obs) -> None:
        """The glimpse that saw key ``i`` checked against a frame."""
        # the frame is looked at just after the reading: the same picture, unless the
        # level ended in between (after its last stone), or the cursor flashed (the
        # rules read it in both phases)
        if isinstance(obs, Glimpse) and obs.level_shown and obs.vision.level_shown(obs.frame):
            frame, vision = obs.frame, obs.vision
            assert outcome(lambda: obs.cursor) == outcome(lambda: vision.cursor(frame))
            assert outcome(lambda: obs.board) == outcome(lambda: vision.board(frame))
            self.checked += 1


def test_a_level_on_the_bots_own_xvfb_is_played_by_glimpses_of_the_cells_fuse_drew():
    """Each key's check reads the cells Fuse drew straight from the screen file (a
    ``CellSight``), and what it read is what a whole frame shows."""
    with open_session(PROFILE, SessionOptions(headless=True, speed=200)) as session:
        assert isinstance(session.watch, FramebufferWatch)
        env = CheckedGlimpses(LogoEnv(session))
        report = Walkthrough(session, env, PROFILE, 1, 2).run()
        picture = session.run_record["picture"]
    assert report.status == "complete" and report.levels_done == 2
    in_play = report.corrections - report.run_corrections
    assert sum(in_play.values()) == 0, in_play
    in_levels = sum(result.report.keys_sent for result in report.results.values())
    assert picture["sightings"] >= in_levels > 0, picture
    assert env.checked >= in_levels // 2, (env.checked, in_levels)
