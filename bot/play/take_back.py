"""RESET takes stones back: from a level begun with stones on it, or from a board that
left the plan (a wrong stone); and what follows an act not seen in time. Functions of
the player's ``LevelIO``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from logo_bot.bot.errors import LevelFailed
from logo_bot.bot.play.level_io import LevelIO
from logo_bot.bot.play.level_report import LevelInPlay, LevelReport
from logo_bot.bot.play.observation import Observation
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.order import Ordering
from logo_bot.solvers.resume import plan_from, resume


def pick_up(
    io: LevelIO, target: Board, board: Board, cursor: Cell
) -> tuple[Board, Cell, Ordering | None, int]:
    """A level with stones on it: the plan from its board; when the target cannot be
    reached from there, RESET takes stones back (the game's last first) until it can.
    Returns the board, the cursor, the ordering (None: nothing left to place) and how
    many stones were taken back."""
    taken = 0
    while True:
        with io.env.spent.on("planning"):
            verdict = plan_from(target, board)
        why = {} if verdict.solved else {"reason": verdict.reason}  # a string, or none
        io.env.note("pick_up", board=str(board), reachable=verdict.solved, **why)
        if verdict.solved:
            if not verdict.plan:
                return board, cursor, None, taken
            with io.env.spent.on("planning"):
                ordering = resume(target, board, cursor, wrap=io.keys.wrap).ordering
            return board, cursor, ordering, taken
        if not board.stone_count:
            raise LevelFailed(f"the target cannot be built: {verdict.reason}")
        if taken > target.rows * target.cols:
            raise LevelFailed("RESET does not take the stones back")
        step = io.step([io.keys.reset], partial(_board_not, board=board), io.settle + 4)
        taken += 1
        board = step.obs.board if step.met else io.read("board")
        cursor = io.read("cursor")


# fuse-sdl, its window just made another size in its menu, loses keys pressed in the time
# after, again as the host lets it: measured up to 0.5 s after at a load of 5 (in 3 of 3
# runs to TV 2x, 1 of about 10 to 2x at rest)
AFTER_MENU_S = 1.0


def mended(io: LevelIO, report: LevelReport, kind: str, **data: Any) -> None:
    """A key's effect not seen is mended (``kind``): a correction, noted; or, where Fuse's
    own menu was waited for since the last step began (in it, or in the reads after it:
    the person opened the menu as the key went down, and it took the key from the game),
    noted only; so is one just after the menu closed (``AFTER_MENU_S``). Fuse pauses
    the game as it takes F1 and shows the menu a little later: for the console's
    ``menu_drawn_s``, each of Fuse's drawings is looked at for it first."""
    env = io.env
    missed_at = time.monotonic()
    after = missed_at - env.menu_closed_at < AFTER_MENU_S
    until = missed_at + env.menu_drawn_s
    while env.menu_waited_s <= io.menu_mark and time.monotonic() < until:
        env.wait_drawn(until)
        env.observe()  # waits there for a menu of Fuse's that shows
    if env.menu_waited_s > io.menu_mark or after:
        env.note("lost_to_fuse_menu", kind=kind, **data)
        return
    report.corrections[kind] += 1
    env.note("correction", kind=kind, **data)


def unseen_act(io: LevelIO, level: LevelInPlay, done: int) -> tuple[int, Cell | None, int]:
    """After an act on stone ``done`` not seen in time: the stones placed, the cursor
    when it had to be read again (else None), and 1 when the board needed correcting.
    A lost act is pressed again once the cursor has been read again: it was lost, or
    the cursor moved on after it was confirmed (a doubled move taken a frame late)
    onto a stone, where acting does nothing. RESET takes a wrong stone back
    (``resync``)."""
    plan, states, report = level.plan, level.states, level.report
    want, last = states[done + 1], done + 2 == len(states)
    if last and not io.env.observe().level_shown:
        return done + 1, None, 0  # solved; the game moved on before the board was seen
    seen = io.read("board")
    if seen == want:
        return done + 1, None, 0
    if seen == states[done]:
        mended(io, report, "lost_action", cell=plan[done])
        return done, io.read("cursor"), 1
    index, cursor = resync(io, states, seen, report)
    return index, cursor, 1


def resync(
    io: LevelIO, states: Sequence[Board], seen: Board, report: LevelReport
) -> tuple[int, Cell]:
    """Press RESET until the board is one of the plan's states; returns its index."""
    for _ in range(len(states) + 8):
        if seen in states:
            index = states.index(seen)
            return index, io.read("cursor")
        report.corrections["wrong_stone"] += 1
        io.env.note("correction", kind="wrong_stone", board=str(seen))
        result = io.step([io.keys.reset], lambda o: o.board in states, io.settle + 4)
        report.keys_sent += 1
        seen = result.obs.board if result.met else io.read("board")
    raise LevelFailed(f"RESET did not bring the board back to the plan:\n{seen}")


def _board_not(obs: Observation, board: Board) -> bool:
    return obs.board != board
