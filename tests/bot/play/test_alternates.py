"""A game someone else entered may ignore the alternate keys (7 6 5 8, the cursor-keys
controls): a player that does not know learns it from the first one it presses, and
makes no cursor correction for it either way."""

from __future__ import annotations

import pytest

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import LevelReport, Player
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.keys import KeyTiming
from tests.bot.fake_game import FakeGame
from tests.bot.play.test_player import LEVEL_1, LEVEL_2, LOOK_AFTER, PROFILE

ALTERNATES = set(PROFILE.keys.alternates.values())
MODES = {"until_seen": PROFILE, "look_after": LOOK_AFTER}


def play_levels(
    taken: bool, known: bool | None, mode: str
) -> tuple[list[LevelReport], Player, FakeGame]:
    """Levels 1 and 2 on one player, its ``alternates`` set to ``known`` at the start,
    in a game that takes the alternate keys or not (``taken``)."""
    profile = MODES[mode]
    reports = []
    player = None
    for target in (LEVEL_1, LEVEL_2):
        game = FakeGame(profile, target, alternates=taken)
        game.keys.timing = KeyTiming(0, 0, rollover=True)
        if player is None:
            player = Player(LogoEnv(game, poll_s=0.0), profile, settle_frames=2)
            player.alternates = known
        else:
            player.env = LogoEnv(game, poll_s=0.0)
        reports.append(player.play_level())
        assert game.board == target
    assert player is not None
    return reports, player, game


def alternates_sent(keys: list[str]) -> list[str]:
    return [key for key in keys if key in ALTERNATES]


@pytest.mark.parametrize("mode", MODES)
def test_a_game_that_ignores_the_alternates_is_learnt_from_the_first_with_no_correction(mode):
    reports, player, game = play_levels(taken=False, known=None, mode=mode)
    assert player.alternates is False
    assert [dict(r.corrections) for r in reports] == [{}, {}]
    assert not alternates_sent(game.keys.sent), "level 2: none pressed once it is known"


@pytest.mark.parametrize("mode", MODES)
def test_a_game_that_takes_the_alternates_is_learnt_and_they_are_used(mode):
    reports, player, game = play_levels(taken=True, known=None, mode=mode)
    assert player.alternates is True
    assert [dict(r.corrections) for r in reports] == [{}, {}]
    assert alternates_sent(game.keys.sent), "level 2: the same move twice takes both keys"


def test_the_first_alternate_is_pressed_on_its_own_burst_end_and_noted():
    game = FakeGame(PROFILE, LEVEL_1, alternates=False)
    game.keys.timing = KeyTiming(0, 0, rollover=True)
    notes: list[tuple[str, dict]] = []
    env = LogoEnv(game, poll_s=0.0)
    env.note = lambda event, **data: notes.append((event, data))  # type: ignore[method-assign]
    player = Player(env, PROFILE, settle_frames=2)
    player.alternates = None
    report = player.play_level()
    assert [data for event, data in notes if event == "alternates"] == [
        {"taken": False, "key": alternates_sent(game.keys.sent)[0]}
    ]
    assert len(alternates_sent(game.keys.sent)) == 1
    assert report.keys_sent == report.planned_presses + 1, "one key more: the one ignored"


def test_a_player_sure_of_the_alternates_corrects_a_game_that_ignores_them():
    """What the learning saves: assumed, each ignored alternate is a cursor correction."""
    reports, player, _ = play_levels(taken=False, known=True, mode="until_seen")
    assert player.alternates is True
    assert sum(r.corrections["cursor"] for r in reports) >= 2


def test_a_profile_without_alternates_learns_nothing_and_plays_clean():
    plain = load_profile("practice", ["keys.alternates={}"])
    game = FakeGame(plain, LEVEL_2)
    game.keys.timing = KeyTiming(0, 0, rollover=True)
    player = Player(LogoEnv(game, poll_s=0.0), plain, settle_frames=2)
    player.alternates = None
    report = player.play_level()
    assert not report.corrections and report.keys_sent == report.planned_presses
