"""The bitmap text format of ``game/font.txt`` and ``game/tiles.txt``.

A file is a list of named blocks::

    ; a comment (lines starting with ';' are ignored everywhere)
    [A]
    ..####..
    .##..##.
    ...

A block starts with a header line ``[NAME]`` (NAME is everything between the
first ``[`` and the last ``]``, so ``[ ]`` names the space and ``[]]`` the
closing bracket) and holds rows of ``#`` (INK, a set bit) and ``.`` (PAPER),
leftmost pixel first, all of one width. A blank line or the next header ends
it. Every error names the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

INK, PAPER = "#", "."


class BitmapFormatError(ValueError):
    """A bitmap file that does not follow the format."""

    def __init__(self, source: str, line: int, message: str) -> None:
        self.source, self.line, self.message = source, line, message
        super().__init__(f"{source}:{line}: {message}")


@dataclass(frozen=True)
class Bitmap:
    """One named block: ``rows`` of ``#``/``.`` strings, top row first."""

    name: str
    rows: tuple[str, ...]
    source: str = "<string>"
    line: int = 1

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def ink(self, x: int, y: int) -> bool:
        """True when pixel (x, y) (x rightwards, y downwards) is INK."""
        return self.rows[y][x] == INK

    def cell_bytes(self, cell_col: int, cell_row: int) -> list[int]:
        """The 8 pixel-row bytes of the 8x8 character cell at (cell_col, cell_row)."""
        out = []
        for y in range(8 * cell_row, 8 * cell_row + 8):
            bits = self.rows[y][8 * cell_col : 8 * cell_col + 8]
            out.append(int(bits.replace(INK, "1").replace(PAPER, "0"), 2))
        return out

    def require_size(self, width: int, height: int) -> None:
        if (self.width, self.height) != (width, height):
            raise BitmapFormatError(
                self.source,
                self.line,
                f"[{self.name}] must be {width}x{height} pixels, not {self.width}x{self.height}",
            )


def parse_bitmaps(text: str, source: str = "<string>") -> dict[str, Bitmap]:
    """Every block of ``text`` by name, in file order."""
    blocks: dict[str, Bitmap] = {}
    name: str | None = None
    start = 0
    rows: list[str] = []

    def close() -> None:
        if name is None:
            return
        if not rows:
            raise BitmapFormatError(source, start, f"[{name}] has no pixel rows")
        blocks[name] = Bitmap(name, tuple(rows), source, start)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith(";"):
            continue
        if not line.strip():
            close()
            name, rows = None, []
            continue
        if line.startswith("[") and line.rstrip().endswith("]") and len(line.rstrip()) >= 3:
            close()
            header = line.rstrip()
            name, rows, start = header[1:-1], [], number
            if name in blocks:
                raise BitmapFormatError(source, number, f"[{name}] is defined twice")
            continue
        if name is None:
            raise BitmapFormatError(
                source, number, f"expected a header line like '[A]', found {line!r}"
            )
        row = line.rstrip()
        bad = next((i for i, ch in enumerate(row) if ch not in (INK, PAPER)), None)
        if bad is not None:
            raise BitmapFormatError(
                source,
                number,
                f"column {bad + 1}: expected '{INK}' (ink) or '{PAPER}' (paper), "
                f"found {row[bad]!r}",
            )
        if rows and len(row) != len(rows[0]):
            raise BitmapFormatError(
                source,
                number,
                f"row is {len(row)} pixels wide, the rows above are {len(rows[0])}",
            )
        rows.append(row)
    close()
    if not blocks:
        raise BitmapFormatError(source, 1, "no bitmaps found (expected '[NAME]' blocks)")
    return blocks


def load_bitmaps(path: str | Path) -> dict[str, Bitmap]:
    """The blocks of the file at ``path``; unreadable files raise ``BitmapFormatError``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BitmapFormatError(str(path), 1, f"cannot read the file: {exc}") from None
    return parse_bitmaps(text, str(path))
