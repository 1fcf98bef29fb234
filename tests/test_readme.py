"""The README's tables say what the code does: the exit statuses are bot/errors.py's
table, and the layout table lists the repository's folders and exactly bot/'s."""

from __future__ import annotations

from pathlib import Path

import bot
from bot.errors import EXIT_CODES, Exit

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
BOT = Path(bot.__file__).resolve().parent
# Top-level folders that are not part of the project (tools' caches, build output).
NOT_PROJECT = {"build", "dist"}


def table(header: str, text: str = README) -> list[list[str]]:
    """The rows (cells stripped, without the header) of the table whose header line is
    ``header``."""
    lines = text.splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_table_reader_stops_at_the_tables_end():
    text = "x\n| a | b |\n|---|---|\n| 1 | `one` |\n| 2 | two |\n\nmore\n| 3 | three |"
    assert table("| a | b |", text) == [["1", "`one`"], ["2", "two"]]


def test_the_exit_statuses_are_the_codes():
    rows = table("| status | meaning |")
    readme = {int(code): meaning.replace("`", "") for code, meaning in rows}
    assert readme == {int(code): meaning for code, meaning in EXIT_CODES.items()}
    assert set(EXIT_CODES) == set(Exit)


def folders_listed() -> set[str]:
    return {row[0].strip("`").rstrip("/") for row in table("| folder | what it holds |")}


def test_the_layout_lists_exactly_the_bot_folders():
    listed = {name for name in folders_listed() if name.startswith("bot/")}
    assert listed == {f"bot/{p.parent.name}" for p in BOT.glob("*/__init__.py")}
    assert "bot" in folders_listed()


def test_the_layout_lists_every_top_level_folder():
    folders = {
        p.name
        for p in REPO.iterdir()
        if p.is_dir()
        and not p.name.startswith((".", "_"))
        and not p.name.endswith(".egg-info")
        and p.name not in NOT_PROJECT
    }
    assert {name for name in folders_listed() if "/" not in name} == folders
