"""Reading the picture: ms per call of ``Vision``'s board, cursor and preview readers.

    .venv/bin/python benchmarks/reading.py
    .venv/bin/python benchmarks/reading.py --frames 50 --repeats 9

For each graphics scale (1x, 2x, 3x) it draws ``--frames`` synthetic frames of the
practice game (``tests/bot/fake_frames.py``: random boards, targets, cursor cells, FLASH
phases) and times every reader on all of them, ``--repeats`` times in turn: the readers
of ``bot.see.vision`` (one numpy step over all cells) and the plain per-cell reference
they must agree with (``tests/bot/see/per_cell.py``), in the same run. It prints the
median ms per call of each and the reference's time over the reader's. Figures only;
the readings are checked to be the same, nothing else is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.report import ms, table
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board
from tests.bot import fake_frames
from tests.bot.see import per_cell

READERS = ("board", "cursor", "preview")
SCALES = (1, 2, 3)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/reading.py",
        description=__doc__.split("\n\n")[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--frames", type=int, default=20, help="frames per scale (20)")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes (7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the frames (1)")
    return parser.parse_args(argv)


def random_board(rng: random.Random) -> Board:
    return Board(6, 10, tuple(rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(60)))


def frames(rng: random.Random, count: int, scale: int) -> list[np.ndarray]:
    return [
        fake_frames.draw(
            random_board(rng),
            random_board(rng),
            cursor=(rng.randint(1, 6), rng.randint(1, 10)),
            flash=rng.random() < 0.5,
            scale=scale,
        )
        for _ in range(count)
    ]


def seconds_per_call(read: Callable[[np.ndarray], object], pictures: list[np.ndarray]) -> float:
    start = time.perf_counter()
    for picture in pictures:
        read(picture)
    return (time.perf_counter() - start) / len(pictures)


def timed(vision: Vision, name: str, pictures: list[np.ndarray], repeats: int) -> list[str]:
    """The table row of one reader: median ms per call, numpy and per cell, and the ratio."""
    readers = {
        "numpy": getattr(vision, name),
        "per cell": lambda frame: getattr(per_cell, name)(vision, frame),
    }
    readings = [[read(p) for p in pictures] for read in readers.values()]
    if readings[0] != readings[1]:
        raise SystemExit(f"{name} at {vision.scale}x reads differently from the reference")
    times: dict[str, list[float]] = {kind: [] for kind in readers}
    for _ in range(repeats):
        for kind, read in readers.items():
            times[kind].append(seconds_per_call(read, pictures))
    fast, slow = (statistics.median(times[kind]) for kind in readers)
    return [f"{vision.scale}x", name, ms(fast), ms(slow), f"{slow / fast:.1f}"]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    profile = load_profile("practice")
    rows = []
    for scale in SCALES:
        vision = Vision(profile, scale)
        pictures = frames(rng, args.frames, scale)
        rows += [timed(vision, name, pictures, args.repeats) for name in READERS]
    print(f"ms per call, median of {args.repeats} passes over {args.frames} frames per scale")
    print(table(["scale", "reader", "numpy", "per cell", "per cell / numpy"], rows, right_from=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
