"""A cell as one action: the cursor moved there and a stone placed, as the bot plays.

``CellActions`` wraps ``LogoGym``: its action is a (row, column) from 0, and one step
presses the moves one primitive step at a time, each toward the cell from where the
screen shows the cursor after the last (a move the game did not take is a correction,
and the next move starts from where the cursor is), then the place. Its info says how
many keys it pressed and how many it had to correct (a move that did not go where it
should; a place not seen, pressed again: placing on a stone does nothing, so that is
safe)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from logo_bot.gym.actions import PLACE
from logo_bot.gym.env import LogoGym
from logo_bot.solvers.board import Cell
from logo_bot.solvers.cursor import alternating, moves, walk


class CellActions(gymnasium.Wrapper[dict[str, Any], np.ndarray, dict[str, Any], np.int64]):
    """Actions are cells: ``MultiDiscrete([rows, cols])``; ``max_moves`` bounds the moves
    one cell may take (then the step ends without a place, ``info["reached"]`` False),
    ``places`` the presses of a place the game was not seen to take."""

    def __init__(
        self, env: gymnasium.Env[dict[str, Any], np.int64], max_moves: int = 40, places: int = 3
    ) -> None:
        # gymnasium 1.4 types the wrapped environment with the wrapper's own action (here a
        # cell, an array), not the one it takes (a key, an integer)
        super().__init__(env)  # type: ignore[arg-type]
        self._press = env.step  # the inner step, typed as it is
        game: LogoGym = env.unwrapped  # type: ignore[assignment]
        self.size = game.size
        self.wrap = game.profile.keys.wrap
        self.index = {name: i for i, name in enumerate(game.actions)}
        self.action_space = spaces.MultiDiscrete(list(self.size))
        self.max_moves = max_moves
        self.places = places
        self._obs: dict[str, Any] | None = None

    def reset(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self._obs = obs
        return obs, info

    def step(
        self, action: np.ndarray | tuple[int, int]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._obs is None:
            raise RuntimeError("call reset() first")
        goal_0 = (int(action[0]), int(action[1]))
        goal: Cell = (goal_0[0] + 1, goal_0[1] + 1)
        obs, total, keys, corrections = self._obs, 0.0, 0, 0
        while (cursor := _cursor(obs)) != goal:
            if keys >= self.max_moves:
                info = {"keys": keys, "corrections": corrections, "reached": False}
                return obs, total, False, False, info
            move = alternating(moves(cursor, goal, self.wrap, self.size))[0]
            expected = walk(cursor, [move], self.wrap, self.size)[0]
            obs, reward, terminated, truncated, info = self._press(np.int64(self.index[move]))
            self._obs, total, keys = obs, total + float(reward), keys + 1
            if _cursor(obs) != expected:
                corrections += 1
            if terminated or truncated:
                return obs, total, terminated, truncated, info | _counts(keys, corrections)
        for _ in range(self.places):  # a place not seen is pressed again, as the bot does
            obs, reward, terminated, truncated, info = self._press(np.int64(self.index[PLACE]))
            self._obs, total, keys = obs, total + float(reward), keys + 1
            if info.get("seen", True) or terminated or truncated or obs["board"][goal_0] != 0:
                break  # (a stone drawn late: placing on it again does nothing)
            corrections += 1
        return obs, total, terminated, truncated, info | _counts(keys, corrections)


def _cursor(obs: dict[str, Any]) -> Cell:
    row, col = obs["cursor"]
    return int(row) + 1, int(col) + 1


def _counts(keys: int, corrections: int) -> dict[str, Any]:
    return {"keys": keys, "corrections": corrections, "reached": True}
