"""The practice game's level list (``game/levels.txt``) and its codes, checked.

The file is a level list in the solver's format (``solvers.levels``): exactly
100 levels of 6x10. Levels 6, 11, ..., 96 carry ``code: WORD`` metadata, WORD
being 5 capital letters: the code shown after levels 5, 10, ..., 95 that starts
the game at that level. No other level has a code and no two codes are equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from logo_bot.solvers.board import Board
from logo_bot.solvers.levels import LevelFormatError, load_level_list

LEVELS_FILE = Path(__file__).with_name("levels.txt")
LEVEL_COUNT = 100
ROWS, COLS = 6, 10
CODE_EVERY = 5  # a code after every 5th level
CODE_LENGTH = 5
_CODE = re.compile(rf"^[A-Z]{{{CODE_LENGTH}}}$")


class LevelDataError(ValueError):
    """A level list the practice game cannot be built from."""


@dataclass(frozen=True)
class GameLevels:
    """The 100 targets (index 0 = level 1) and the codes by the level they start."""

    boards: tuple[Board, ...]
    codes: dict[int, str]
    source: str = "<levels>"

    def code_after(self, level: int) -> str | None:
        """The code shown after finishing ``level`` (None when none is shown)."""
        return self.codes.get(level + 1)

    def level_of_code(self, word: str) -> int | None:
        return next((n for n, w in self.codes.items() if w == word), None)


def code_levels() -> list[int]:
    """The levels a code starts: 6, 11, ..., 96."""
    return list(range(CODE_EVERY + 1, LEVEL_COUNT, CODE_EVERY))


def load_game_levels(path: str | Path = LEVELS_FILE) -> GameLevels:
    """Read ``path`` and check it is a complete practice-game level list."""
    try:
        levels = load_level_list(path)
    except LevelFormatError as exc:
        raise LevelDataError(str(exc)) from None
    where = str(path)
    if len(levels) != LEVEL_COUNT:
        raise LevelDataError(f"{where}: expected {LEVEL_COUNT} levels, found {len(levels)}")
    codes: dict[int, str] = {}
    wanted = set(code_levels())
    for level in levels:
        at = f"{level.source}:{level.line}: level {level.number}"
        if (level.board.rows, level.board.cols) != (ROWS, COLS):
            raise LevelDataError(
                f"{at} is {level.board.rows}x{level.board.cols}, the game needs {ROWS}x{COLS}"
            )
        if level.board.stone_count == 0:
            raise LevelDataError(f"{at} has no stones: an empty target cannot be won")
        code = level.meta.get("code")
        if level.number in wanted:
            if code is None:
                raise LevelDataError(f"{at} needs a 'code: WORD' line (it is a code level)")
            if not _CODE.match(code):
                raise LevelDataError(
                    f"{at}: code {code!r} must be {CODE_LENGTH} capital letters A-Z"
                )
            if code in codes.values():
                raise LevelDataError(f"{at}: code {code} is already used by another level")
            codes[level.number] = code
        elif code is not None:
            raise LevelDataError(
                f"{at} has a code, but only levels {', '.join(map(str, sorted(wanted)))} may"
            )
    return GameLevels(tuple(lv.board for lv in levels), codes, where)
