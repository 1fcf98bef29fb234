"""8x8 screen fonts as data: a text file of ``[X]`` glyphs, 8 rows of ``#`` (ink) and ``.``.

Lines starting with ``;`` are comments; a glyph's header ``[X]`` names its one
character (``[ ]`` is space) and the next 8 lines are its pixel rows, top first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from logo_bot.bot.errors import InputError

Glyph = tuple[int, ...]  # 8 row bytes, top row first, bit 7 = leftmost pixel


@dataclass(frozen=True)
class Font:
    """Glyphs by character, and the character of each glyph pattern."""

    glyphs: dict[str, Glyph]
    _chars: dict[Glyph, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_chars", {g: ch for ch, g in self.glyphs.items()})

    def match(self, rows: Glyph) -> str | None:
        """The character whose glyph is exactly ``rows``, or None."""
        return self._chars.get(tuple(rows))


def read_font(path: Path) -> Font:
    """Read a font file; every problem names the file and line."""
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the font {path}: {exc}") from None
    glyphs: dict[str, Glyph] = {}
    owner: dict[Glyph, str] = {}
    rows: list[str] = []
    name, header = None, 0

    def close() -> None:
        if name is None:
            return
        if len(rows) != 8 or any(len(r) != 8 or set(r) - {"#", "."} for r in rows):
            raise InputError(f"{path}:{header}: [{name}] needs 8 rows of 8 '#' or '.'")
        glyph = tuple(int(r.replace("#", "1").replace(".", "0"), 2) for r in rows)
        if glyph in owner:
            raise InputError(f"{path}:{header}: [{name}] looks exactly like [{owner[glyph]}]")
        glyphs[name], owner[glyph] = glyph, name

    for number, line in enumerate(lines, 1):
        if line.startswith(";"):
            continue
        if line.startswith("[") and line.rstrip().endswith("]") and len(line.rstrip()) == 3:
            close()
            name, rows, header = line[1], [], number
        elif line.strip():
            if name is None:
                raise InputError(f"{path}:{number}: a glyph row before any [X] header")
            rows.append(line.strip())
        else:
            close()
            name = None
    close()
    if not glyphs:
        raise InputError(f"{path}: no glyphs (a font is [X] headers, each with 8 rows)")
    return Font(glyphs)
