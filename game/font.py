"""The practice game's 8x8 font (``game/font.txt``), for the build and for screen readers.

Every glyph is an 8x8 block of the bitmap format (see ``game.bitmaps``) named
by its single character. The game prints text with any non-black INK on black
PAPER, so a character cell on screen reads back as a glyph by turning each
pixel into "ink" (not black) or "paper" (black) and calling ``Font.match``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from game.bitmaps import BitmapFormatError, load_bitmaps

FONT_FILE = Path(__file__).with_name("font.txt")
FIRST_CODE, LAST_CODE = 32, 95  # printable ASCII the game's text routine can index
REQUIRED = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Glyph = tuple[int, ...]  # 8 row bytes, top row first, bit 7 = leftmost pixel


@dataclass(frozen=True)
class Font:
    """Glyphs by character."""

    glyphs: dict[str, Glyph]
    source: str = "<font>"

    def glyph(self, char: str) -> Glyph:
        try:
            return self.glyphs[char]
        except KeyError:
            raise KeyError(f"{self.source} has no glyph for {char!r}") from None

    def match(self, rows: Glyph) -> str | None:
        """The character whose glyph is exactly ``rows``, or None."""
        return self._by_pattern.get(tuple(rows))

    def missing(self, text: str) -> str:
        """The characters of ``text`` the font cannot draw, each once, in order."""
        return "".join(dict.fromkeys(ch for ch in text if ch not in self.glyphs))

    @cached_property
    def _by_pattern(self) -> dict[Glyph, str]:
        return {pattern: char for char, pattern in self.glyphs.items()}


def load_font(path: str | Path = FONT_FILE) -> Font:
    """Read and check a font file: single printable ASCII characters, 8x8, all distinct."""
    blocks = load_bitmaps(path)
    glyphs: dict[str, Glyph] = {}
    seen: dict[Glyph, str] = {}
    for name, bitmap in blocks.items():
        if len(name) != 1 or not FIRST_CODE <= ord(name) <= LAST_CODE:
            raise BitmapFormatError(
                bitmap.source,
                bitmap.line,
                f"[{name}]: a glyph name is one character from {chr(FIRST_CODE)!r} to "
                f"{chr(LAST_CODE)!r} (capital letters, digits, punctuation)",
            )
        bitmap.require_size(8, 8)
        pattern = tuple(bitmap.cell_bytes(0, 0))
        if pattern in seen:
            raise BitmapFormatError(
                bitmap.source,
                bitmap.line,
                f"[{name}] looks exactly like [{seen[pattern]}], so text could not be read back",
            )
        seen[pattern] = name
        glyphs[name] = pattern
    font = Font(glyphs, str(path))
    if missing := font.missing(REQUIRED):
        raise BitmapFormatError(str(path), 1, f"the font lacks glyphs for {missing!r}")
    return font
