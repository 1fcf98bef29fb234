"""Level lists written for tests: the game's own file with a change, or an easy set."""

from __future__ import annotations

from pathlib import Path

from game.leveldata import code_levels


def code_word(level: int) -> str:
    """A distinct 5-letter code for ``level`` (e.g. 6 -> "CODAG")."""
    return "COD" + chr(ord("A") + level // 26) + chr(ord("A") + level % 26)


def easy_levels(path: Path) -> Path:
    """100 levels whose target is one stone showing 1 at row 1, column 1 + (n-1) % 10;
    every code level carries ``code_word(n)``."""
    blocks = []
    for n in range(1, 101):
        row = ["."] * 10
        row[(n - 1) % 10] = "1"
        meta = f"code: {code_word(n)}\n" if n in code_levels() else ""
        blocks.append(f"# level {n}\n{meta}6 10\n{''.join(row)}\n" + "..........\n" * 5)
    path.write_text("\n".join(blocks))
    return path


def easy_levels_with(path: Path, old: str, new: str) -> Path:
    """The easy level list with the first ``old`` replaced by ``new``."""
    text = easy_levels(path).read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path
