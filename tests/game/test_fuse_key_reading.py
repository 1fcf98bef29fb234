"""Builds of the practice game that read keys as a 1990 game might, in the real Fuse
with hand-timed XTest presses: a polled build loses presses shorter than its poll
interval and moves once per held press; a polled-repeat build repeats a held key
after its delay, and not before."""

import pytest

from game import build
from game.keyreading import KeyReading
from logo_bot.bot.x11.keys import KeyTiming

from .gamefuse import Game

pytestmark = pytest.mark.fuse

SLOW = KeyTiming(150, 150)  # every press seen by any of the builds (menus, name)


@pytest.fixture(scope="module")
def polled(tmp_path_factory):
    return build.build(tmp_path_factory.mktemp("polled"), key_reading=KeyReading("polled", 4))


@pytest.fixture(scope="module")
def repeating(tmp_path_factory):
    reading = KeyReading("polled-repeat", 2, repeat_delay=20, repeat_every=5)
    return build.build(tmp_path_factory.mktemp("repeat"), key_reading=reading)


def started(xserver, snapshot) -> Game:
    game = Game.open(xserver.display, snapshot, speed=100)
    try:
        game.session.keys.timing = SLOW
        game.start()
        assert game.cursor() == (1, 1)
    except BaseException:
        game.close()  # its Fuse ends with the failed start, not at the module's end
        raise
    return game


def hold(game: Game, key: str, ms: float, times: int = 1, gap_ms: float = 150) -> tuple:
    """Press ``key`` ``times`` times, each held ``ms``; the cursor once the game has
    had time to react."""
    game.session.keys.timing = KeyTiming(ms, gap_ms)
    game.press(*[key] * times)
    game.session.keys.timing = SLOW
    game.settle(12)
    return game.cursor()


def test_a_polled_build_loses_short_presses_and_moves_once_per_held_press(xserver, polled):
    assert polled.z80.name == "practice-polled-p4.z80"
    game = started(xserver, polled.z80)
    try:
        # 30 ms presses (1.5 frames) against reads every 4 frames: most fall between
        row, col = hold(game, "p", 30, times=9, gap_ms=50)
        assert row == 1 and col - 1 < 9, "a polled game must miss presses between its reads"
        # a press held over several reads moves once
        for expected_row in (2, 3, 4):
            assert hold(game, "a", 400) == (expected_row, col)
    finally:
        game.close()


def test_a_polled_repeat_build_repeats_a_held_key_after_its_delay(xserver, repeating):
    assert repeating.z80.name == "practice-polled-repeat-p2-d20-e5.z80"
    game = started(xserver, repeating.z80)
    try:
        assert hold(game, "a", 200) == (2, 1), "10 frames held: shorter than the delay"
        row, col = hold(game, "p", 800)  # 40 frames: the delay, then every 5 frames
        assert row == 2 and 1 + 3 <= col <= 1 + 7, f"moved {col - 1} for one held press"
    finally:
        game.close()
