"""The player against the fake game. A game that repeats a held key is played on
virtual time (the ``clock`` fixture), where how long a key stays down cannot depend on
how busy the machine is."""

from itertools import pairwise

import pytest

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.level_io import move_keys
from logo_bot.bot.play.player import Player
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.solvers.board import Board
from tests.bot.fake_game import FakeGame

PROFILE = load_profile("practice")
# the keys of a burst pressed one after another with their fixed timing, one look after
LOOK_AFTER = load_profile("practice", ["timing.until_seen=false"])
LEVEL_1 = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)
LEVEL_2 = Board.from_rows(
    ["..........", ".....1....", "....111...", "...11111..", "....111...", ".....1...."]
)


def play(game: FakeGame, rollover: bool = False):
    game.keys.timing = KeyTiming(0, 0, rollover)
    return Player(LogoEnv(game, poll_s=0.0), PROFILE, settle_frames=2).play_level()


class CountingEnv(LogoEnv):
    """The environment, counting its key bursts (those held until seen apart)."""

    bursts: list[tuple[str, ...]]
    seen_bursts: list[tuple[str, ...]]

    def step(self, keys, expect=None, timeout_frames=6):
        self.bursts = [*getattr(self, "bursts", []), tuple(keys)]
        return super().step(keys, expect, timeout_frames)

    def step_seen(self, keys, expects, longest_frames, ends=()):
        result = super().step_seen(keys, expects, longest_frames, ends)
        self.seen_bursts = [*getattr(self, "seen_bursts", []), result.keys]
        return result


def test_move_keys_without_and_with_wrap():
    keys = PROFILE.keys
    assert move_keys(keys, (1, 1), (3, 4), 6, 10) == ["p", "a", "p", "a", "p"]
    assert move_keys(keys, (3, 4), (1, 1), 6, 10) == ["o", "q", "o", "q", "o"]
    wrapping = load_profile("practice", ["keys.wrap=true"]).keys
    assert move_keys(wrapping, (1, 1), (6, 10), 6, 10) == ["q", "o"]


def test_the_same_move_twice_takes_the_directions_two_keys_in_turn():
    keys = PROFILE.keys
    assert keys.other("p") == "8" and keys.other("8") == "p" and keys.other("space") is None
    assert move_keys(keys, (1, 1), (2, 5), 6, 10) == ["p", "a", "p", "p", "p"]
    assert move_keys(keys, (1, 1), (2, 5), 6, 10, alternate=True) == ["p", "a", "p", "8", "p"]
    assert move_keys(keys, (6, 1), (1, 1), 6, 10, alternate=True) == ["q", "7", "q", "7", "q"]
    plain = load_profile("practice", ["keys.alternates={}"]).keys
    assert move_keys(plain, (1, 1), (1, 4), 6, 10, alternate=True) == ["p", "p", "p"]


@pytest.mark.parametrize("rollover", [False, True], ids=["taps", "rollover"])
@pytest.mark.parametrize("target", [LEVEL_1, LEVEL_2])
def test_clean_play_uses_exactly_the_planned_presses(target, rollover):
    game = FakeGame(PROFILE, target)
    report = play(game, rollover)
    assert game.done and game.board == target
    assert report.end_board == target
    assert report.keys_sent == report.planned_presses == game.presses
    assert not report.corrections


@pytest.mark.parametrize("rollover", [False, True], ids=["taps", "rollover"])
@pytest.mark.parametrize("seed", range(6))
def test_lost_and_doubled_presses_are_corrected(seed, rollover):
    game = FakeGame(PROFILE, LEVEL_2, drop=0.2, double=0.05, seed=seed)
    report = play(game, rollover)
    assert game.done and game.board == LEVEL_2
    assert game.dropped > 0
    assert sum(report.corrections.values()) > 0
    assert report.keys_sent > report.planned_presses


def test_a_level_that_leaves_the_screen_stops_the_player():
    from logo_bot.bot.errors import LevelFailed

    game = FakeGame(PROFILE, LEVEL_2)
    player = Player(LogoEnv(game, poll_s=0.0), PROFILE, settle_frames=2)
    first = player.wait_level()
    game.done = True  # as if TIME UP cleared the preview
    with pytest.raises(LevelFailed, match="left the screen"):
        player.play_level(first)
    assert game.presses == 0, "no key after the level was gone"


@pytest.mark.parametrize("rollover", [False, True], ids=["taps", "rollover"])
@pytest.mark.parametrize("seed", range(8))
def test_a_doubled_move_that_shows_late_is_caught_before_acting_again(seed, rollover):
    """The cursor was confirmed, then moved on: acting there does nothing (a stone) or
    places a wrong stone; the player must look at the cursor again, not press forever."""
    game = FakeGame(PROFILE, LEVEL_2, double=0.3, seed=seed, late=True)
    report = play(game, rollover)
    assert game.done and game.board == LEVEL_2 and report.end_board == LEVEL_2


def test_a_game_that_repeats_a_held_key_gets_long_straight_moves_as_one_hold(clock):
    # the cursor goes along the edges for the corner stones: 5 and 9 cells straight,
    # held 12 + 3 * 6 and 12 + 7 * 6 frames (of 2 ms, on virtual time)
    target = Board.from_rows(["1........1"] + [".........."] * 4 + ["1........1"])
    game = FakeGame(PROFILE, target, repeat=(0.024, 0.012), clock=clock.monotonic)
    game.frame_s = 0.002  # a held key moves again after 12 frames, then every 6
    game.keys.timing = KeyTiming(8, 8)  # 4 frames held, 4 up: 8 a tap, 40 for 5 cells
    player = Player(LogoEnv(game), PROFILE, settle_frames=2)
    player.repeat = (12, 6)
    report = player.play_level()
    assert report.end_board == target and not report.corrections
    assert report.held_moves == 3, "down 5, right 9 and up 5 cells: one hold each"
    assert game.keys.sent == ["space", "a", "space", "p", "space", "q", "space"]
    assert (report.keys_sent, report.planned_presses) == (7, 23)
    assert game.presses == 23, "each hold let go after its last cell, not a cell further"
    assert player.hold_frames(["p", "p"]) is None, "two cells: taps"
    assert player.hold_frames(["p", "a", "p"]) is None, "not straight: taps"
    assert player.hold_frames(["p"] * 9) == 12 + 8 * 6 - 1


def test_without_a_repeat_every_move_is_tapped(clock):
    target = Board.from_rows(["1........1"] + [".........."] * 5)
    game = FakeGame(PROFILE, target, clock=clock.monotonic)
    report = Player(LogoEnv(game), PROFILE).play_level()
    assert report.held_moves == 0 and report.keys_sent == report.planned_presses


@pytest.mark.parametrize("rollover", [False, True], ids=["taps", "rollover"])
def test_with_rollover_each_stone_and_the_move_after_it_are_one_burst(rollover):
    """A game that sees each key's own press gets the act and the moves to the next cell
    in one burst, checked with one look (board and cursor); without rollover the act
    waits for its own check. Either way every press is the plan's."""
    game = FakeGame(LOOK_AFTER, LEVEL_2)
    game.keys.timing = KeyTiming(0, 0, rollover)
    env = CountingEnv(game, poll_s=0.0)
    report = Player(env, LOOK_AFTER, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and not report.corrections
    stones = len(report.plan)
    acts = [burst for burst in env.bursts if "space" in burst]
    assert len(acts) == stones
    assert all(burst[0] == "space" for burst in acts), "the act goes first in its burst"
    if rollover:
        assert len(env.bursts) == stones + 1, "the first move, then one burst per stone"
        assert all(a != b for burst in env.bursts for a, b in pairwise(burst)), (
            "the same move twice takes the direction's other key"
        )
        assert all(len(burst) > 1 for burst in acts[:-1]), "the moves go with the act"
    else:
        assert len(env.bursts) == 2 * stones, "a move and an act per stone"
        assert all(burst == ("space",) for burst in acts)
    assert sum(len(burst) for burst in env.bursts) == report.keys_sent == game.presses


def test_a_game_not_known_to_queue_its_keys_gets_each_act_on_its_own():
    """Rollover alone (what the probe finds out) does not say that the game keeps a
    press made while it draws a stone: without ``timing.queued`` the act goes alone."""
    profile = load_profile("practice", ["timing.queued=false", "timing.until_seen=false"])
    game = FakeGame(profile, LEVEL_2)
    game.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(game, poll_s=0.0)
    report = Player(env, profile, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and not report.corrections
    assert len(env.bursts) == 2 * len(report.plan)
    assert all(burst == ("space",) for burst in env.bursts if "space" in burst)


class NotingEnv(LogoEnv):
    """The environment, keeping the player's notes."""

    def note(self, event, **data):
        self.notes = [*getattr(self, "notes", []), (event, data)]


def test_a_level_begun_with_a_wrong_stone_is_picked_up_and_noted_without_nones():
    """RESET takes the wrong stone back, then the plan goes on from the board; each
    pick_up note gives a reason only while the target cannot be reached (the event
    schema wants a string there, never null)."""
    game = FakeGame(PROFILE, LEVEL_2)
    game.keys.timing = KeyTiming(0, 0, True)
    game.apply("space")  # a stone on (1, 1), where the target has none
    env = NotingEnv(game, poll_s=0.0)
    report = Player(env, PROFILE, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and report.corrections["taken_back"] == 1
    picked = [data for event, data in env.notes if event == "pick_up"]
    assert [data["reachable"] for data in picked] == [False, True]
    assert isinstance(picked[0]["reason"], str) and "reason" not in picked[1]
