"""The environment's primitive actions as keys, each with what the screen shows once the
game took it: the key is held down until then (``LevelIO.step_seen``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from logo_bot.bot.play.level_io import placed
from logo_bot.bot.play.observation import Expectation, Observation
from logo_bot.bot.profile import Keys
from logo_bot.solvers.board import Board, Cell, act
from logo_bot.solvers.cursor import walk

MOVES = ("up", "down", "left", "right")
PLACE = "place"
TAKE_BACK = "take_back"  # the profile's RESET key: the last stone placed taken back


@dataclass(frozen=True)
class Level:
    """What the screen showed after the last step, and the keys before it."""

    board: Board
    target: Board
    cursor: Cell
    placed: tuple[Board, ...]  # the board before each stone seen placed, last one last
    last_key: str | None


def key_for(
    name: str, keys: Keys, level: Level, size: tuple[int, int]
) -> tuple[str, Expectation, Board | None]:
    """The key for action ``name``, what the screen shows once the game took it, and the
    board it leads to (None: no stone changes). A move the same way as the last key takes
    the direction's other key where the game has one (no wait for the first to be up).
    Where the action changes nothing (a move into the edge, a stone placed on a stone)
    any change will do: none comes, and the key is held for the bound."""
    board, cursor = level.board, level.cursor
    if name in MOVES:
        key = getattr(keys, name)
        if key == level.last_key and keys.other(key):
            key = keys.other(key) or key
        to = walk(cursor, [name], keys.wrap, size)[0]
        if to != cursor:
            return key, partial(_cursor_on, cell=to), None
    elif name == PLACE:
        key = keys.act
        if board[cursor] == 0:
            want = act(board, cursor)
            return key, partial(placed, want=want, last=want == level.target), want
    else:
        key = keys.reset
        if level.placed:
            before = level.placed[-1]
            return key, partial(placed, want=before, last=False), before
    return key, partial(_changed, board=board, cursor=cursor), None


def _cursor_on(obs: Observation, cell: Cell) -> bool:
    return obs.cursor == cell


def _changed(obs: Observation, board: Board, cursor: Cell) -> bool:
    return not obs.level_shown or obs.board != board or obs.cursor != cursor
