"""End-to-end: the bot sees the real Fuse draw through DAMAGE reports, and plays by them."""

from __future__ import annotations

import pytest

from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.damage import DamageWatch

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
