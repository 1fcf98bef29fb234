"""The level text format.

A level is an ``R C`` line followed by R rows of C characters from ``.1234``
(``.`` empty). A level list holds many levels separated by blank lines; inside
a level's block, ``# comment`` lines may stand anywhere and ``key: value``
metadata lines (e.g. ``code: WORD``) may precede the ``R C`` line.

Every error names the source, line and column and says what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from logo_bot.solvers.board import SYMBOLS, Board

MAX_SIDE = 64
_META = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_SIZE = re.compile(r"^\s*(\S+)\s+(\S+)\s*$")


class LevelFormatError(ValueError):
    """A level text that does not follow the format."""

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.source, self.line, self.column, self.message = source, line, column, message
        super().__init__(f"{source}:{line}:{column}: {message}")


@dataclass(frozen=True)
class Level:
    """One level of a level list: its board, 1-based number, metadata and origin."""

    board: Board
    number: int
    meta: dict[str, str] = field(default_factory=dict)
    source: str = "<string>"
    line: int = 1


def _is_comment(text: str) -> bool:
    return text.lstrip().startswith("#")


def _parse_block(lines: list[tuple[int, str]], source: str, number: int) -> Level:
    meta: dict[str, str] = {}
    body = [(n, t) for n, t in lines if not _is_comment(t)]
    pos = 0
    while pos < len(body) and _META.match(body[pos][1]):
        n, text = body[pos]
        m = _META.match(text)
        assert m is not None
        key = m.group(1).lower()
        if key in meta:
            raise LevelFormatError(source, n, 1, f"metadata '{key}' is given twice for one level")
        meta[key] = m.group(2)
        pos += 1
    if pos == len(body):
        n = lines[-1][0]
        raise LevelFormatError(source, n, 1, "expected a size line 'ROWS COLS' (e.g. '6 10')")
    size_line, size_text = body[pos]
    rows, cols = _parse_size(size_text, source, size_line)
    grid = body[pos + 1 :]
    if len(grid) < rows:
        at = grid[-1][0] + 1 if grid else size_line + 1
        raise LevelFormatError(
            source, at, 1, f"expected {rows} rows after '{size_text.strip()}', found {len(grid)}"
        )
    if len(grid) > rows:
        n, text = grid[rows]
        raise LevelFormatError(
            source,
            n,
            1,
            f"expected a blank line after the {rows} rows of this level, found {text.strip()!r}",
        )
    cells: list[int] = []
    for n, text in grid:
        row = text.rstrip()
        for col, ch in enumerate(row, start=1):
            if ch not in SYMBOLS:
                raise LevelFormatError(
                    source, n, col, f"expected one of '{SYMBOLS}' ('.' is empty), found {ch!r}"
                )
            if col > cols:
                raise LevelFormatError(
                    source, n, col, f"row is longer than {cols} columns ({len(row)} characters)"
                )
        if len(row) < cols:
            raise LevelFormatError(
                source,
                n,
                len(row) + 1,
                f"row is shorter than {cols} columns ({len(row)} characters)",
            )
        cells.extend(SYMBOLS.index(ch) for ch in row)
    return Level(Board(rows, cols, tuple(cells)), number, meta, source, lines[0][0])


def _parse_size(text: str, source: str, line: int) -> tuple[int, int]:
    m = _SIZE.match(text)
    if not m or not m.group(1).isdigit() or not m.group(2).isdigit():
        raise LevelFormatError(
            source,
            line,
            1,
            f"expected a size line 'ROWS COLS' (e.g. '6 10'), found {text.strip()!r}",
        )
    rows, cols = int(m.group(1)), int(m.group(2))
    for value, name, col in ((rows, "rows", m.start(1) + 1), (cols, "columns", m.start(2) + 1)):
        if not 1 <= value <= MAX_SIDE:
            raise LevelFormatError(
                source, line, col, f"number of {name} must be 1..{MAX_SIDE}, not {value}"
            )
    return rows, cols


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            current.append((n, raw))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    # A block of nothing but comments (a file header, say) is not a level.
    return [b for b in blocks if not all(_is_comment(t) for _, t in b)]


def parse_level_list(text: str, source: str = "<string>") -> list[Level]:
    """Every level in ``text``, numbered from 1."""
    blocks = _blocks(text)
    if not blocks:
        raise LevelFormatError(source, 1, 1, "expected at least one level, the text is empty")
    return [_parse_block(block, source, i) for i, block in enumerate(blocks, start=1)]


def parse_level(text: str, source: str = "<string>") -> Board:
    """The single level in ``text``."""
    levels = parse_level_list(text, source)
    if len(levels) > 1:
        raise LevelFormatError(
            source,
            levels[1].line,
            1,
            f"expected one level, found {len(levels)} (choose one with a level number)",
        )
    return levels[0].board


def read_text(path: str | Path) -> str:
    """A level file's text; unreadable files raise ``LevelFormatError`` naming the file."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise LevelFormatError(str(path), 1, 1, f"not a text file ({exc.reason})") from None
    except OSError as exc:
        raise LevelFormatError(str(path), 1, 1, f"cannot read the file: {exc.strerror}") from None


def load_level_list(path: str | Path) -> list[Level]:
    return parse_level_list(read_text(path), str(path))


def format_board(board: Board) -> str:
    """The level text of ``board`` (size line and rows, newline-terminated)."""
    return f"{board.rows} {board.cols}\n{board}\n"
