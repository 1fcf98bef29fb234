"""The cursor: how many key presses a plan costs, and which keys to press.

The cursor moves one cell per key press and each action is one more press. By default
it stops at the board edges; with ``wrap`` it wraps round like a torus and always takes
the shorter way.
"""

from __future__ import annotations

from collections.abc import Iterable

from logo_bot.solvers.board import Cell

DEFAULT_KEYS = "qaop "  # up, down, left, right, act
GAME_SIZE = (6, 10)


def steps(a: Cell, b: Cell, wrap: bool = False, size: tuple[int, int] = GAME_SIZE) -> int:
    """Key presses to move the cursor from ``a`` to ``b``."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    if wrap:
        rows, cols = size
        dr, dc = min(dr, rows - dr), min(dc, cols - dc)
    return dr + dc


def presses_of(
    plan: Iterable[Cell],
    start: Cell = (1, 1),
    wrap: bool = False,
    size: tuple[int, int] = GAME_SIZE,
) -> int:
    """Key presses for ``plan``: every cursor step plus one per action."""
    total, at = 0, start
    for cell in plan:
        total += steps(at, cell, wrap, size) + 1
        at = cell
    return total


def _axis(src: int, dst: int, length: int, wrap: bool, minus: str, plus: str) -> list[str]:
    if not wrap:
        return [plus if dst > src else minus] * abs(dst - src)
    forward, backward = (dst - src) % length, (src - dst) % length
    return [plus] * forward if forward <= backward else [minus] * backward


def moves(a: Cell, b: Cell, wrap: bool = False, size: tuple[int, int] = GAME_SIZE) -> list[str]:
    """The cursor steps from ``a`` to ``b`` as "up"/"down" (first), then "left"/"right"."""
    rows, cols = size
    return _axis(a[0], b[0], rows, wrap, "up", "down") + _axis(
        a[1], b[1], cols, wrap, "left", "right"
    )


STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def walk(
    start: Cell, steps: Iterable[str], wrap: bool = False, size: tuple[int, int] = GAME_SIZE
) -> list[Cell]:
    """The cell the cursor is on after each of ``steps`` from ``start`` (a step past an
    edge wraps round with ``wrap``, else the cursor stays)."""
    rows, cols = size
    (r, c), cells = start, []
    for step in steps:
        dr, dc = STEPS[step]
        if wrap:
            r, c = (r - 1 + dr) % rows + 1, (c - 1 + dc) % cols + 1
        else:
            r, c = min(max(r + dr, 1), rows), min(max(c + dc, 1), cols)
        cells.append((r, c))
    return cells


def alternating(steps: list[str]) -> list[str]:
    """The same steps with the two axes taken in turn, the longer axis first, so that a
    step follows one of its own kind as rarely as possible (a game with key rollover
    takes a different key at once, the same key only after it was seen up)."""
    rows = [s for s in steps if s in ("up", "down")]
    cols = [s for s in steps if s in ("left", "right")]
    long, short = (rows, cols) if len(rows) >= len(cols) else (cols, rows)
    out: list[str] = []
    for k, step in enumerate(long):
        out.append(step)
        if k < len(short):
            out.append(short[k])
    return out


def keys_for(
    plan: Iterable[Cell],
    start: Cell = (1, 1),
    wrap: bool = False,
    keys: str = DEFAULT_KEYS,
    size: tuple[int, int] = GAME_SIZE,
    alternate: bool = False,
) -> str:
    """The key string that plays ``plan``: moves (rows first, then columns, or with
    ``alternate`` the two directions in turn, see ``alternating``), then act.

    ``keys`` names the up, down, left, right and act keys, in that order.
    """
    if len(keys) != 5:
        raise ValueError(f"keys must name 5 keys (up, down, left, right, act), not {keys!r}")
    names = dict(zip(("up", "down", "left", "right"), keys, strict=False))
    out: list[str] = []
    at = start
    for cell in plan:
        steps = moves(at, cell, wrap, size)
        out += [names[step] for step in (alternating(steps) if alternate else steps)]
        out.append(keys[4])
        at = cell
    return "".join(out)
