"""End-to-end: the bot plays the real practice game in Fuse on a private Xvfb."""

from __future__ import annotations

import pytest

from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.codes import code_table
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.levels import load_level_list

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}


class Notes(EnvWrapper):
    """The events the bot notes, by name."""

    def __init__(self, env: LogoEnv) -> None:
        super().__init__(env)
        self.seen: list[str] = []

    def note(self, event: str, **data) -> None:
        self.seen.append(event)
        super().note(event, **data)


def play(xserver, first: int, last: int, speed: int = 200, notes: list[str] | None = None):
    options = SessionOptions(display=xserver.display, headless=False, speed=speed)
    with open_session(PROFILE, options) as session:
        env = Notes(LogoEnv(session))
        walk = Walkthrough(session, env, PROFILE, first, last)
        report = walk.run()
    if notes is not None:
        notes.extend(env.seen)
    return report


def test_levels_1_to_10_unattended(xserver):
    notes: list[str] = []
    report = play(xserver, 1, 10, notes=notes)
    assert report.status == "complete" and report.levels_done == 10
    # the code screen after level 5 was seen, read and skipped (it would go by itself)
    assert notes.count("code_seen") == 1 and notes.count("skip_screen") == 1, notes
    for number, result in report.results.items():
        assert result.report.target == LEVELS[number], f"level {number} target misread"
        assert result.report.end_board == LEVELS[number], f"level {number} end board"
    assert report.restarts == 0


def test_code_jump_to_the_full_board_level_94(xserver):
    start = max(n for n in code_table(PROFILE) if n <= 94)
    report = play(xserver, 94, 94)
    assert start < 94
    result = report.results[94]
    assert result.status == "done"
    assert result.report.end_board == LEVELS[94]
    assert result.report.end_board.stone_count == 60
