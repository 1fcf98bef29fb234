"""Write the practice game's level list, ``game/levels.txt``, from the level designs.

For every design in ``game/level_shapes.txt`` the generator keeps the stone
cells and chooses their values by playing an order of them: any order of any
set of cells gives a solvable target. The order is searched (seeded, so the
output is the same every run) until the level's open pairs (see
``game.difficulty``) come as close as the design allows to the level's aim,
which rises with the level number; each further search from the level's seed
gives the next *variant*. A level is kept only when the planner finds a
verified plan and ``fewest_presses`` proves its fewest keypresses; codes go
on levels 6, 11, ..., 96.

Proving the fewest keypresses takes milliseconds for most targets and
minutes for a few, so a design may pin ``variant: N``; ``--pick-variants``
says which variant of each level proves quickly. Nothing in the output
depends on the machine's speed: the pinned variant is proven or the run fails.

    python -m game.make_levels                   # write game/levels.txt
    python -m game.make_levels --check           # exit 1 if game/levels.txt is not current
    python -m game.make_levels --pick-variants   # suggest variants that prove in < 1 s

Exit codes: 0 done (or current), 1 not current or a design/level problem, 2 bad options.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from game.codes import make_codes
from game.designs import BLOCK, COLS, DESIGNS_FILE, ROWS, Design, DesignError, load_designs
from game.difficulty import Difficulty, StoneSet, measure
from logo_bot.solvers import order, planner
from logo_bot.solvers.board import Board, play
from logo_bot.solvers.levels import LevelFormatError, format_board

HERE = Path(__file__).resolve().parent
DESIGNS = DESIGNS_FILE
OUTPUT = HERE / "levels.txt"
SEED = 1991
LEVELS = 100
FULL_LEVEL = 94
START = (1, 1)
OPEN_PER_LEVEL = 0.7  # the open pairs aimed at: 0.7 x the level number
CLIMB_STEPS = 3000
ORDER_BUDGET_S = 120.0  # for the pinned variant: generous, so speed never changes the output
PICK_BUDGET_S = 1.0
MAX_VARIANTS = 20


class GenerateError(Exception):
    """A level that cannot be made as the rules ask."""


def aim(number: int) -> int:
    return round(OPEN_PER_LEVEL * number)


def choose_values(design: Design, rng: random.Random) -> Board:
    """The target from an order of the design's cells whose open pairs come nearest the aim.

    Hill climbing on the order: swap two stones, keep the swap unless it moves the
    count away from the aim.
    """
    stones = StoneSet(design.cells)
    target = aim(design.number)
    ranks = list(range(len(design.cells)))
    rng.shuffle(ranks)
    miss = abs(stones.open_pairs(ranks) - target)
    for _ in range(CLIMB_STEPS):
        if miss == 0 or len(ranks) < 2:
            break
        i, j = rng.sample(range(len(ranks)), 2)
        ranks[i], ranks[j] = ranks[j], ranks[i]
        now = abs(stones.open_pairs(ranks) - target)
        if now <= miss:
            miss = now
        else:
            ranks[i], ranks[j] = ranks[j], ranks[i]
    return play(Board.empty(ROWS, COLS), [design.cells[k] for k in ranks])


def variants(design: Design, seed: int) -> Iterator[Board]:
    """The level's targets in variant order: 0, 1, 2, ... (only one for fixed values)."""
    if design.fixed is not None:
        yield design.fixed
        return
    rng = random.Random(f"{seed}:{design.number}")
    while True:
        yield choose_values(design, rng)


def nth_variant(design: Design, seed: int) -> Board:
    for k, target in enumerate(variants(design, seed)):
        if k == design.variant:
            return target
    raise DesignError(f"level {design.number} ({design.name}) has no variant {design.variant}")


def prove(target: Board, budget_s: float) -> order.Ordering:
    """The fewest-keypress order of ``target``, after checking it has a verified plan."""
    verdict = planner.solve(target)
    if verdict.plan is None:
        raise GenerateError(f"no plan: {verdict.reason}")
    planner.verify(target, verdict.plan)
    best = order.fewest_presses(target, start=START, wrap=False, budget_s=budget_s)
    planner.verify(target, best.plan)
    return best


def make_level(design: Design, seed: int) -> tuple[Board, Difficulty, int]:
    """The level's target, its difficulty, and its proven fewest keypresses."""
    target = nth_variant(design, seed)
    where = f"level {design.number} ({design.name}, variant {design.variant})"
    try:
        best = prove(target, ORDER_BUDGET_S)
    except GenerateError as exc:
        raise GenerateError(f"{where}: {exc}") from None
    if not best.optimal:
        raise GenerateError(
            f"{where}: fewest_presses did not prove its fewest keypresses within "
            f"{ORDER_BUDGET_S:g} s; run `python -m game.make_levels --pick-variants`"
        )
    return target, measure(target), best.presses


def pick_variants(designs: list[Design], seed: int, budget_s: float) -> list[str]:
    """For each level whose variant's fewest keypresses are not proven within
    ``budget_s``, the first variant that is, as the line to change in the designs file."""
    advice = []
    for design in designs:
        _progress(design.number)
        if prove(nth_variant(design, seed), budget_s).optimal:
            continue
        for k, target in enumerate(variants(design, seed)):
            if k == MAX_VARIANTS:
                advice.append(
                    f"level {design.number} ({design.name}): none of the first {MAX_VARIANTS} "
                    f"variants proves within {budget_s:g} s; redraw it or allow more time"
                )
                break
            if k != design.variant and prove(target, budget_s).optimal:
                advice.append(
                    f"level {design.number} ({design.name}): use 'variant: {k}' "
                    f"(now {design.variant})"
                )
                break
    _progress(None)
    return advice


def _progress(number: int | None) -> None:
    if sys.stderr.isatty():
        text = "" if number is None else f"[make_levels] level {number}/{LEVELS}"
        print(f"\r{text:<40}\r" if number is None else f"\r{text}", end="", file=sys.stderr)


HEADER = """\
# Logo: Part 1 practice game: the 100 levels, five to a theme.
# Written by `python -m game.make_levels` from game/level_shapes.txt (seed {seed}).
# Do not edit by hand: change the designs or the generator and run it again;
# `python -m game.make_levels --check` says whether this file is current.
#
# Metadata of each level:
#   theme      the theme of its block of five
#   name       what the stones draw
#   code       (levels 6, 11, ..., 96) the code shown after the level before;
#              entering it starts the game at this level
#   stones     stones in the target
#   pairs      touching pairs of stones: each is a "which goes first" decision
#   open       pairs whose order neither stone's value gives away
#   solutions  distinct solutions (which stone of each pair goes first)
#   forced     decisions the level forces: open - log2(solutions)
#   aim        the open pairs the generator aimed at (it rises with the level)
#   presses    fewest key presses (cursor moves and actions) that build it, with the
#              cursor starting at 1 1 and stopping at the edges; proven optimal
"""


def render(levels: list[tuple[Design, Board, Difficulty, int]], codes: list[str], seed: int) -> str:
    parts = [HEADER.format(seed=seed)]
    code_of = {1 + BLOCK * k: code for k, code in enumerate(codes, start=1)}
    for design, target, diff, presses in levels:
        meta = [
            f"# level {design.number}",
            f"theme: {design.theme}",
            f"name: {design.name}",
        ]
        if design.number in code_of:
            meta.append(f"code: {code_of[design.number]}")
        meta += [
            f"stones: {diff.stones}",
            f"pairs: {diff.pairs}",
            f"open: {diff.open}",
            f"solutions: {diff.solutions}",
            f"forced: {diff.forced:.1f}",
            f"aim: {'as drawn' if design.fixed else aim(design.number)}",
            f"presses: {presses}",
        ]
        parts.append("\n".join(meta) + "\n" + format_board(target))
    return "\n".join(parts)


def load_checked(designs_path: Path) -> list[Design]:
    designs = load_designs(designs_path)
    if len(designs) != LEVELS:
        raise DesignError(f"{designs_path}: has {len(designs)} levels; the game has {LEVELS}")
    full = designs[FULL_LEVEL - 1]
    if full.fixed is None and len(full.cells) != ROWS * COLS:
        raise DesignError(f"{designs_path}: level {FULL_LEVEL} must fill all {ROWS * COLS} cells")
    return designs


def generate(designs_path: Path = DESIGNS, seed: int = SEED) -> str:
    """The whole level list's text."""
    levels = []
    for design in load_checked(designs_path):
        _progress(design.number)
        levels.append((design, *make_level(design, seed)))
    _progress(None)
    codes = make_codes(LEVELS // BLOCK - 1, f"{seed}:codes")
    return render(levels, codes, seed)


def is_current(text: str, path: Path) -> bool:
    """Whether ``path`` holds exactly ``text``."""
    try:
        return path.read_bytes() == text.encode("utf-8")
    except FileNotFoundError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.make_levels",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 3)[3],
    )
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument(
        "--pick-variants",
        nargs="?",
        const=PICK_BUDGET_S,
        type=float,
        metavar="S",
        help=f"suggest variants proven within S seconds (default {PICK_BUDGET_S:g})",
    )
    parser.add_argument("--designs", type=Path, default=DESIGNS, help="the level designs")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the level list")
    parser.add_argument("--seed", type=int, default=SEED, help=f"default {SEED}")
    args = parser.parse_args(argv)
    try:
        if args.pick_variants is not None:
            advice = pick_variants(load_checked(args.designs), args.seed, args.pick_variants)
            print("\n".join(advice) if advice else "every level's variant proves quickly")
            return 0
        text = generate(args.designs, args.seed)
    except (DesignError, LevelFormatError, GenerateError) as exc:
        print(f"make_levels: {exc}", file=sys.stderr)
        return 1
    if args.check:
        if not is_current(text, args.output):
            print(
                f"make_levels: {args.output} is not what the generator writes; "
                "run `python -m game.make_levels` and commit the result",
                file=sys.stderr,
            )
            return 1
        print(f"{args.output} is current")
        return 0
    args.output.write_bytes(text.encode("utf-8"))
    print(f"wrote {LEVELS} levels to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
