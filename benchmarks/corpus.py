"""Seeded corpora of targets for the solver benchmark.

Solvable targets come from forward play: any order of any set of cells
reaches some target. Unsolvable ones are small changes to a solvable target
that keep every counting condition (so no counting shortcut refutes them),
certified unsolvable by a decider the caller passes in. The adversarial ones
are those, from a larger pool, on which the published backward search
wanders longest (most positions visited under a node cap, so the choice does
not depend on the machine's speed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from benchmarks.peers import reference
from logo_bot.solvers.board import Board, bump

Decider = Callable[[Board], bool]

SOLVABLE, UNSAT, ADVERSARIAL = "solvable", "unsat", "adversarial"
KINDS = (SOLVABLE, UNSAT, ADVERSARIAL)


@dataclass(frozen=True)
class Family:
    """Targets of one size with a stone count drawn from ``stones`` (inclusive)."""

    name: str
    rows: int
    cols: int
    stones: tuple[int, int]


FAMILIES = (
    Family("6x10 sparse", 6, 10, (8, 18)),
    Family("6x10 medium", 6, 10, (25, 40)),
    Family("6x10 full", 6, 10, (60, 60)),
    Family("10x10 full", 10, 10, (100, 100)),
    Family("16x16 full", 16, 16, (256, 256)),
    Family("24x24 full", 24, 24, (576, 576)),
    Family("32x32 full", 32, 32, (1024, 1024)),
)


@dataclass(frozen=True)
class BoardClass:
    family: Family
    kind: str

    @property
    def name(self) -> str:
        return self.family.name if self.kind == SOLVABLE else f"{self.family.name} {self.kind}"

    @property
    def solvable(self) -> bool:
        return self.kind == SOLVABLE


CLASSES = tuple(BoardClass(f, k) for f in FAMILIES for k in KINDS)


def class_named(name: str) -> BoardClass:
    for board_class in CLASSES:
        if board_class.name == name:
            return board_class
    known = ", ".join(repr(c.name) for c in CLASSES)
    raise ValueError(f"no board class named {name!r}; known classes: {known}")


def forward_play(rows: int, cols: int, order: Sequence[int]) -> Board:
    """The target reached by acting on the 0-based cell indices ``order`` in turn."""
    cells = [0] * (rows * cols)
    for i in order:
        r, c = divmod(i, cols)
        cells[i] = 1
        for j, inside in ((i - cols, r > 0), (i + cols, r < rows - 1)):
            if inside and cells[j]:
                cells[j] = bump(cells[j])
        for j, inside in ((i - 1, c > 0), (i + 1, c < cols - 1)):
            if inside and cells[j]:
                cells[j] = bump(cells[j])
    return Board(rows, cols, tuple(cells))


def random_target(family: Family, rng: random.Random) -> Board:
    """A solvable target: a random stone set of the family's size, played in random order."""
    size = family.rows * family.cols
    count = rng.randint(*family.stones)
    order = rng.sample(range(size), count)
    return forward_play(family.rows, family.cols, order)


def stone_degrees(board: Board) -> list[int]:
    """For every cell, how many of its neighbours hold stones (0 for empty cells)."""
    degrees = [0] * len(board.cells)
    for cell in board.stones():
        degrees[board.index(cell)] = sum(1 for n in board.neighbours(cell) if board[n])
    return degrees


def counts_hold(board: Board) -> bool:
    """Every counting condition a solvable target meets.

    A stone showing v has v-1 neighbours placed after it, or 4 when it shows 1
    and has four; so v-1 never exceeds its stone neighbours, and in each group
    of touching stones, where every touching pair adds one to exactly one
    count, the pairs minus the sum of v-1 is a multiple of 4 between 0 and 4
    times the number of 1s with four stone neighbours.
    """
    degrees = stone_degrees(board)
    seen: set[tuple[int, int]] = set()
    for start in board.stones():
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            group.append(cell)
            for n in board.neighbours(cell):
                if board[n] and n not in seen:
                    seen.add(n)
                    todo.append(n)
        pairs = surplus = wraps = 0
        for cell in group:
            value, degree = board[cell], degrees[board.index(cell)]
            if value - 1 > degree:
                return False
            pairs += degree
            surplus += value - 1
            wraps += value == 1 and degree == 4
        extra = pairs // 2 - surplus
        if extra < 0 or extra % 4 or extra > 4 * wraps:
            return False
    return True


def variants(target: Board, rng: random.Random) -> Iterator[Board]:
    """Endless changes to ``target`` that keep every counting condition.

    Either one stone goes up by one and another down by one, or (when the
    board has empty cells) a stone moves to an empty cell.
    """
    stones = list(target.stones())
    empties = [
        (r, c)
        for r in range(1, target.rows + 1)
        for c in range(1, target.cols + 1)
        if not target[(r, c)]
    ]
    while True:
        cells = list(target.cells)
        if empties and rng.random() < 0.5:
            src, dst = rng.choice(stones), rng.choice(empties)
            cells[target.index(dst)] = cells[target.index(src)]
            cells[target.index(src)] = 0
        else:
            a, b = rng.sample(stones, 2)
            cells[target.index(a)] = bump(cells[target.index(a)])
            cells[target.index(b)] = bump(cells[target.index(b)], -1)
        changed = Board(target.rows, target.cols, tuple(cells))
        if counts_hold(changed):
            yield changed


def unsolvable_target(
    family: Family, rng: random.Random, solvable: Decider, tries: int = 400
) -> Board:
    """A counting-proof change to a random target that ``solvable`` rejects."""
    for _ in range(tries):
        base = random_target(family, rng)
        for n, changed in enumerate(variants(base, rng)):
            if not solvable(changed):
                return changed
            if n == 20:
                break
    raise RuntimeError(f"no unsolvable variant found for {family.name} in {tries} targets")


def generate(
    board_class: BoardClass,
    count: int,
    seed: int,
    solvable: Decider,
    pool_factor: int = 3,
    node_cap: int | None = None,
) -> list[Board]:
    """``count`` targets of the class, the same for the same seed.

    Adversarial targets are the ``count`` out of ``pool_factor * count``
    unsolvable ones on which the reference visits most positions, counted up
    to ``node_cap`` (by default ``adversarial_node_cap``).
    """
    rng = random.Random(f"{seed}:{board_class.name}")
    family = board_class.family
    if board_class.kind == SOLVABLE:
        return [random_target(family, rng) for _ in range(count)]
    if board_class.kind == UNSAT:
        return [unsolvable_target(family, rng, solvable) for _ in range(count)]
    pool = [unsolvable_target(family, rng, solvable) for _ in range(pool_factor * count)]
    return hardest(pool, count, node_cap or adversarial_node_cap(family))


def adversarial_node_cap(family: Family) -> int:
    """About 0.1-0.2 s of the reference's search on any size (a position costs more on
    bigger boards), so picking the adversarial targets stays affordable."""
    return max(20_000, 10_000_000 // (family.rows * family.cols))


def hardest(pool: Sequence[Board], count: int, node_cap: int) -> list[Board]:
    """The ``count`` targets of ``pool`` on which the reference visits most positions,
    in pool order (earlier ones win ties)."""
    effort = [reference.solve(b, node_cap=node_cap).nodes for b in pool]
    ranked = sorted(range(len(pool)), key=lambda k: (-effort[k], k))
    return [pool[k] for k in sorted(ranked[:count])]
