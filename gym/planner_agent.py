"""The bot's planner as an agent of the environment: from the first observation of a
level it plans with ``solvers`` (the stones in the order with the fewest key presses
from the cursor) and gives one cell per step of ``CellActions``.

``python -m logo_bot.gym.planner_agent --levels 1-10 --speed 200`` plays the levels, one
episode each, and prints per level the keys pressed against the plan's, the
corrections, and the wall time per key against two emulated frames at the speed."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from logo_bot.bot.frames import FRAME_S
from logo_bot.gym.cells import CellActions
from logo_bot.gym.env import LogoGym
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.order import fewest_presses


class PlannerAgent:
    """Plans at ``begin`` (the reset's observation), then ``act`` gives the next cell."""

    def __init__(self, wrap: bool = False, budget_s: float = 1.0) -> None:
        self.wrap = wrap
        self.budget_s = budget_s
        self.plan: list[Cell] = []
        self.presses = 0  # the plan's keys: moves and places

    def begin(self, obs: dict[str, Any]) -> None:
        target = _board(obs["target"])
        row, col = obs["cursor"]
        start = (int(row) + 1, int(col) + 1)
        ordering = fewest_presses(target, start=start, wrap=self.wrap, budget_s=self.budget_s)
        self.plan = list(ordering.plan)
        self.presses = ordering.presses

    def act(self, obs: dict[str, Any]) -> np.ndarray:
        """The next cell of the plan, from 0 (``CellActions``' action)."""
        row, col = self.plan.pop(0)
        return np.array([row - 1, col - 1])


@dataclass
class Episode:
    """One level played: its end, and what it cost."""

    level: int
    reward: float = 0.0
    solved: bool = False
    keys: int = 0
    planned: int = 0
    corrections: int = 0
    seconds: float = 0.0  # from the first key to the level's end
    frame_s: float = FRAME_S
    rewards: list[float] = field(default_factory=list)

    @property
    def per_key_frames(self) -> float:
        """Wall time per key, in emulated frames at the speed."""
        return self.seconds / max(self.keys, 1) / self.frame_s


def play_level(env: CellActions, agent: PlannerAgent, level: int) -> Episode:
    """One episode of ``level``: plan from the reset's observation, a cell per step."""
    obs, _ = env.reset(options={"level": level})
    agent.begin(obs)
    game: LogoGym = env.unwrapped  # type: ignore[assignment]
    episode = Episode(level, planned=agent.presses, frame_s=game.session.frame_s)  # type: ignore[union-attr]
    started = time.monotonic()
    while agent.plan:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        episode.keys += info["keys"]
        episode.corrections += info["corrections"]
        episode.rewards.append(float(reward))
        if terminated or truncated:
            break
    episode.seconds = time.monotonic() - started
    episode.reward = sum(episode.rewards)
    episode.solved = episode.reward > 0
    return episode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m logo_bot.gym.planner_agent",
        description="Play practice levels with the planner as a Gymnasium agent.",
    )
    parser.add_argument("--levels", default="1-10", help="a range FIRST-LAST (default 1-10)")
    parser.add_argument("--speed", type=int, default=200, help="Fuse's speed, percent")
    parser.add_argument("--display", help="play on this X display (default: a private Xvfb)")
    args = parser.parse_args(argv)
    first, _, last = args.levels.partition("-")
    levels = range(int(first), int(last or first) + 1)
    game = LogoGym(speed=args.speed, display=args.display, headless=args.display is None)
    env = CellActions(game)
    agent = PlannerAgent(wrap=game.profile.keys.wrap)
    print("level  solved  keys  planned  corrections  ms/key  frames/key")
    total = Episode(0, frame_s=FRAME_S * 100 / args.speed)
    failed = 0
    try:
        for level in levels:
            e = play_level(env, agent, level)
            print(
                f"{e.level:5}  {'yes' if e.solved else 'NO':>6}  {e.keys:4}  {e.planned:7}  "
                f"{e.corrections:11}  {1000 * e.seconds / max(e.keys, 1):6.1f}  "
                f"{e.per_key_frames:10.2f}"
            )
            total.keys += e.keys
            total.planned += e.planned
            total.corrections += e.corrections
            total.seconds += e.seconds
            failed += not e.solved
    finally:
        env.close()
    print(
        f"all    {len(levels) - failed:>6}  {total.keys:4}  {total.planned:7}  "
        f"{total.corrections:11}  {1000 * total.seconds / max(total.keys, 1):6.1f}  "
        f"{total.per_key_frames:10.2f}"
    )
    return 0 if not failed and total.keys == total.planned else 1


def _board(cells: np.ndarray) -> Board:
    rows, cols = cells.shape
    return Board(rows, cols, tuple(int(v) for v in cells.flat))


if __name__ == "__main__":
    sys.exit(main())
