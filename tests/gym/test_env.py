"""The environment's refusals, before any Fuse runs: a game with no snapshot to start a
level from, and a reset after close."""

from __future__ import annotations

import pytest

from logo_bot.bot.errors import InputError
from logo_bot.gym.env import LogoGym


def test_a_game_on_tape_is_refused_with_what_to_play():
    with pytest.raises(InputError, match="snapshot") as raised:
        LogoGym(profile="logo-part1")
    assert "practice" in raised.value.hint


def test_a_closed_environment_says_so_at_reset():
    env = LogoGym(headless=True)
    env.close()
    env.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(options={"level": 1})


def test_the_actions_are_the_moves_the_place_and_the_games_reset_key():
    env = LogoGym(headless=True)
    try:
        assert env.actions == ("up", "down", "left", "right", "place", "take_back")
        assert env.action_space.n == 6
        assert env.observation_space["board"].shape == (6, 10)
    finally:
        env.close()
