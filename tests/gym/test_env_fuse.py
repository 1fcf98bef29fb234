"""End-to-end: the Gymnasium environment over the real practice game in Fuse, on the
tests' Xvfb: Gymnasium's own checker, a level's start shown at once, a solved level's
reward and end, and a TIME UP's."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import AddRenderObservation

import logo_bot.gym
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.cursor import moves
from logo_bot.solvers.levels import load_level_list
from logo_bot.solvers.order import fewest_presses

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}


@pytest.fixture(scope="module")
def env(xserver):
    """One environment (one Fuse) for the module: each reset starts Fuse again."""
    game = gymnasium.make(
        "logo_bot.gym:Logo-v0",
        display=xserver.display,
        headless=False,
        speed=200,
        render_mode="rgb_array",
        max_steps=20,
    )
    yield game
    game.close()


def test_gymnasiums_checker_passes_on_the_real_fuse(env):
    check_env(env.unwrapped)


@pytest.mark.parametrize("level", [1, 50, 94])
def test_a_reset_shows_the_levels_start(env, level):
    obs, info = env.reset(options={"level": level})
    target = LEVELS[level]
    assert obs["target"].tolist() == np.array(target.cells).reshape(6, 10).tolist()
    assert not obs["board"].any(), "a level starts with an empty board"
    assert obs["level"] == info["level"] == level
    # the panel's time: 30 s and 3 s a stone, less the emulated seconds since the level
    # began (at most info["frames"], counted from its snapshot's load: a busy machine may
    # show the level to the bot a few seconds after the game began it)
    full = 30 + 3 * target.stone_count
    assert full - info["frames"] // 50 - 1 <= obs["time_left"] <= full
    assert obs in env.observation_space
    assert env.render().shape == (240, 320, 3)


def test_a_solved_level_gives_plus_one_and_ends(env):
    obs, _ = env.reset(options={"level": 1})
    game = env.unwrapped
    cursor = (int(obs["cursor"][0]) + 1, int(obs["cursor"][1]) + 1)
    plan = fewest_presses(LEVELS[1], start=cursor).plan
    rewards, ends = [], []
    for cell in plan:
        for move in moves(cursor, cell):
            *_, reward, terminated, truncated, info = env.step(game.actions.index(move))
            assert info["seen"], f"the game did not show the move {move}"
            rewards.append(reward)
            ends.append(terminated or truncated)
        obs, reward, terminated, truncated, info = env.step(game.actions.index("place"))
        rewards.append(reward)
        ends.append(terminated or truncated)
        cursor = cell
    assert rewards[-1] == 1.0 and not any(rewards[:-1])
    assert ends[-1] and not any(ends[:-1])
    assert obs["board"].tolist() == obs["target"].tolist()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_step_limit_truncates(env):
    env.reset(options={"level": 2})
    ends = [env.step(0)[2:4] for _ in range(20)]  # up, up, ...: nothing ends the level
    assert ends[-1] == (False, True) and not any(any(end) for end in ends[:-1])


def test_time_up_gives_minus_one_and_ends(xserver):
    """Level 1's 45 s at 1000 %: the game's TIME UP, waited for on its screen."""
    game = logo_bot.gym.LogoGym(display=xserver.display, headless=False, speed=1000)
    try:
        game.reset(options={"level": 1})
        _, shown = game.env.wait_for(lambda o: o.shows("time_up"), 20_000)
        assert shown, "no TIME UP"
        obs, reward, terminated, truncated, info = game.step(game.actions.index("right"))
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert obs["time_left"] == info["time_left"] == 0
    finally:
        game.close()


def test_gymnasiums_own_wrapper_adds_the_pixels_to_the_observation(env):
    pixels = AddRenderObservation(env, render_only=False)  # not closed: the module's env
    obs, _ = pixels.reset(options={"level": 4})
    assert obs["pixels"].shape == (240, 320, 3) and obs["pixels"].dtype == np.uint8
    # the target preview's first stone of level 4, in its value's colour on the pixels
    row, col = (int(v) for v in np.argwhere(obs["target"] > 0)[0])
    colour = PROFILE.palette.preview_values[int(obs["target"][row, col])]
    x, y = PROFILE.geometry.preview.cell_origin(row + 1, col + 1)
    dx, dy = PROFILE.geometry.preview_stone
    assert tuple(obs["pixels"][y + dy, x + dx]) == PROFILE.palette.colours[colour]


def test_a_reset_without_a_level_starts_the_last_one_again(env):
    env.reset(options={"level": 7})
    env.step(env.unwrapped.actions.index("right"))
    obs, info = env.reset()  # as a vector environment's autoreset does
    assert obs["level"] == info["level"] == 7 and obs["cursor"].tolist() == [0, 0]
    assert obs["target"].tolist() == np.array(LEVELS[7].cells).reshape(6, 10).tolist()
