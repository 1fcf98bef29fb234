"""Plans made before their level shows (bot.play.plan_ahead), against the fake game: a
level uses the plan made ahead only when it shows that target with the cursor on the
cell the plan starts from."""

import pytest

from logo_bot.bot.play import player as player_module
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.plan_ahead import Expected, expected_levels, plan_ahead
from logo_bot.bot.play.player import Player
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.board import Board
from tests.bot.fake_game import FakeGame

PROFILE = load_profile("practice", ["timing.until_seen=false"])
LEVEL_1 = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)
LEVEL_2 = Board.from_rows(
    ["..........", ".....1....", "....111...", "...11111..", "....111...", ".....1...."]
)


def player_for(game: FakeGame) -> Player:
    return Player(LogoEnv(game, poll_s=0.0), PROFILE, settle_frames=2)


@pytest.fixture
def plans(monkeypatch):
    """The targets the player plans for itself as each level shows."""
    planned: list[Board] = []
    real = player_module.fewest_presses

    def counted(target, **kwargs):
        planned.append(target)
        return real(target, **kwargs)

    monkeypatch.setattr(player_module, "fewest_presses", counted)
    return planned


def test_a_level_planned_ahead_is_played_with_that_plan(plans):
    player = player_for(FakeGame(PROFILE, LEVEL_1))
    player.play_level()
    assert plans == [LEVEL_1] and player.start_cursor == (1, 1)
    player.plan_ahead(Expected(LEVEL_2))
    ahead = player.ahead
    assert ahead is not None and ahead.cursor == (1, 1)
    game = FakeGame(PROFILE, LEVEL_2)
    player.env = LogoEnv(game, poll_s=0.0)
    report = player.play_level()
    assert plans == [LEVEL_1], "the level shown was the one planned ahead: no planning"
    assert game.done and report.plan == ahead.ordering.plan
    assert report.keys_sent == ahead.ordering.presses == game.presses
    assert player.ahead is None, "a plan ahead serves one level"


def test_a_plan_ahead_for_another_target_or_cursor_is_not_used(plans):
    player = player_for(FakeGame(PROFILE, LEVEL_1))
    player.play_level()
    player.plan_ahead(Expected(LEVEL_1))  # the level file says so, the screen shows another
    game = FakeGame(PROFILE, LEVEL_2)
    player.env = LogoEnv(game, poll_s=0.0)
    player.play_level()
    assert plans == [LEVEL_1, LEVEL_2] and game.done
    player.plan_ahead(Expected(LEVEL_2))
    game = FakeGame(PROFILE, LEVEL_2)
    game.cursor = (3, 4)  # the level begins with the cursor elsewhere
    player.env = LogoEnv(game, poll_s=0.0)
    player.play_level()
    assert plans == [LEVEL_1, LEVEL_2, LEVEL_2] and game.done
    assert player.start_cursor == (3, 4)


def test_nothing_is_planned_ahead_before_a_level_has_shown_the_cursor(plans):
    player = player_for(FakeGame(PROFILE, LEVEL_1))
    player.plan_ahead(Expected(LEVEL_1))
    assert player.ahead is None and plans == []


def test_an_unsolvable_target_has_no_plan_ahead():
    lone_two = Board.from_rows(["2.........", *[".........."] * 5])
    assert plan_ahead(lone_two, (1, 1), wrap=False) is None
    assert plan_ahead(LEVEL_1, (1, 1), wrap=False).fits(LEVEL_1, (1, 1))


def test_expected_levels_come_from_the_profiles_level_file_only():
    expected = expected_levels(load_profile("practice"))
    assert sorted(expected) == list(range(1, 101)) and expected[1].target == LEVEL_1
    assert expected[1].fewest == 17 and all(e.fewest for e in expected.values())
    assert expected_levels(load_profile("logo-part1")) == {}


def test_the_files_fewest_presses_bound_a_plan_from_the_cell_they_were_proven_from():
    level = Expected(LEVEL_2, 20)
    assert level.proven_from((1, 1), wrap=False) == 20
    assert level.proven_from((1, 2), wrap=False) == 0, "proven from 1 1 only"
    assert level.proven_from((1, 1), wrap=True) == 0, "proven with no wrap only"
    assert Expected(LEVEL_2).proven_from((1, 1), wrap=False) == 0


def test_a_plan_ahead_ends_on_the_level_files_fewest_presses(plans):
    expected = expected_levels(load_profile("practice"))[2]
    player = player_for(FakeGame(PROFILE, LEVEL_1))
    player.play_level()
    player.plan_ahead(expected)
    ahead = player.ahead
    assert ahead is not None and ahead.proven and ahead.ordering.optimal
    assert ahead.ordering.presses == ahead.ordering.lower_bound == expected.fewest
    player.plan_ahead(Expected(LEVEL_2))  # no figure: the search proves its own
    assert player.ahead is not None and not player.ahead.proven
    assert player.ahead.ordering.presses == expected.fewest
