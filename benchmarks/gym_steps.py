"""What the Gymnasium environment (``logo_bot.gym``) costs: a reset to a level, and a
primitive step's wall time (against the game's floor, two emulated frames) and this
Python's CPU, headless at each speed; then steps per second of N environments side by
side (``AsyncVectorEnv``, each with its own Xvfb and Fuse), as Markdown tables.

``.venv/bin/python benchmarks/gym_steps.py [--steps N] [--speeds 100,200] [--vector 1,2,4]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from gymnasium.vector import AsyncVectorEnv

from logo_bot.bot.frames import FRAME_S
from logo_bot.gym.env import LogoGym

RESET_LEVELS = (1, 50, 94, 100, 7)


def measure(speed: int, steps: int) -> dict[str, float]:
    """Resets to ``RESET_LEVELS`` (after a first one that starts Xvfb and Fuse), then
    ``steps`` moves right and left along row 1 of level 2, each one the game shows."""
    env = LogoGym(speed=speed, headless=True)
    try:
        env.reset(options={"level": 1})
        resets = []
        for level in RESET_LEVELS:
            started = time.perf_counter()
            env.reset(options={"level": level})
            resets.append(time.perf_counter() - started)
        env.reset(options={"level": 2})
        walls, cpus, unseen = [], [], 0
        for i in range(steps):
            action = env.actions.index("right" if (i // 9) % 2 == 0 else "left")
            wall, cpu = time.perf_counter(), time.process_time()
            *_, info = env.step(action)
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
            unseen += not info["seen"]
    finally:
        env.close()
    floor = 2 * FRAME_S * 100 / speed
    return {
        "reset_s": statistics.median(resets),
        "reset_max_s": max(resets),
        "step_ms": 1000 * statistics.mean(walls),
        "floor_ms": 1000 * floor,
        "ratio": statistics.mean(walls) / floor,
        "cpu_ms": 1000 * statistics.mean(cpus),
        "unseen": unseen,
    }


def headless_200() -> LogoGym:
    return LogoGym(speed=200, headless=True, max_steps=10**9)


def side_by_side(n: int, steps: int) -> float:
    """Steps per second of ``n`` environments at 200 % stepping together (moves along
    row 1 of level 2, as ``measure``)."""
    vec = AsyncVectorEnv([headless_200] * n)
    try:
        vec.reset(options={"level": 2})
        wall = time.perf_counter()
        for i in range(steps):
            vec.step(np.full(n, 3 if (i // 9) % 2 == 0 else 2))
        wall = time.perf_counter() - wall
    finally:
        vec.close()
    return n * steps / wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--speeds", default="100,200")
    parser.add_argument("--vector", default="1,2,4", help="N environments side by side")
    args = parser.parse_args(argv)
    print("| speed | reset (median, max) | step | 2 frames | ratio | CPU per step | unseen |")
    print("|---|---|---|---|---|---|---|")
    for speed in (int(s) for s in args.speeds.split(",")):
        m = measure(speed, args.steps)
        print(
            f"| {speed} % | {m['reset_s']:.2f} s, {m['reset_max_s']:.2f} s | "
            f"{m['step_ms']:.1f} ms | {m['floor_ms']:.0f} ms | {m['ratio']:.2f} | "
            f"{m['cpu_ms']:.2f} ms | {m['unseen']} of {args.steps} |"
        )
    print("\n| N at 200 % | steps/s | against N = 1 |")
    print("|---|---|---|")
    one = None
    for n in (int(v) for v in args.vector.split(",")):
        rate = side_by_side(n, args.steps)
        one = one or rate
        print(f"| {n} | {rate:.1f} | {rate / one:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
