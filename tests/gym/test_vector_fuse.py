"""End-to-end: two environments side by side (Gymnasium's ``AsyncVectorEnv``), each
in a process of its own with its own headless Xvfb and Fuse."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv

from logo_bot.gym.actions import MOVES
from logo_bot.gym.env import LogoGym

pytestmark = pytest.mark.fuse


def headless() -> LogoGym:
    return LogoGym(headless=True, speed=200)


def test_two_environments_play_side_by_side():
    vec = AsyncVectorEnv([headless, headless])
    try:
        obs, info = vec.reset(options={"level": 2})
        assert obs["level"].tolist() == [2, 2] and obs["cursor"].tolist() == [[0, 0], [0, 0]]
        right, down = MOVES.index("right"), MOVES.index("down")  # the first actions
        for actions in ([right, down], [right, down], [right, right]):
            obs, reward, terminated, truncated, info = vec.step(np.array(actions))
            assert info["seen"].all()
        assert obs["cursor"].tolist() == [[0, 3], [2, 1]]
        assert not reward.any() and not terminated.any() and not truncated.any()
    finally:
        vec.close()
