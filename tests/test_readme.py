"""The user's guide and its pages say what the code does: README.md's exit statuses are
bot/errors.py's table, docs/developing.md's layout table lists the repository's folders and
exactly bot/'s, and every link between the Markdown pages leads to a file and heading."""

from __future__ import annotations

import re
from pathlib import Path

from logo_bot import bot
from logo_bot.bot.errors import EXIT_CODES, Exit

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
DEVELOPING = (REPO / "docs" / "developing.md").read_text()
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
    rows = table("| folder | what it holds |", DEVELOPING)
    return {row[0].strip("`").rstrip("/") for row in rows}


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


# The Markdown pages that link to one another: the user's guide, its pages in docs/, and
# the folders' READMEs.
PAGES = [
    REPO / "README.md",
    *sorted((REPO / "docs").glob("*.md")),
    *sorted(REPO.glob("*/README.md")),
]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # no headings in code
    return {anchor(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def broken_links(page: Path) -> list[str]:
    """The links on ``page`` to a file that does not exist, or to a heading it lacks."""
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:: not ours to check
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (
            fragment and linked.suffix == ".md" and fragment not in anchors(linked)
        ):
            broken.append(target)
    return broken


def test_the_anchors_are_githubs():
    assert anchor("Leaving it running: the chaos benchmark") == (
        "leaving-it-running-the-chaos-benchmark"
    )
    assert anchor("Let the bot take over your own Fuse") == "let-the-bot-take-over-your-own-fuse"


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## A heading: here\n")
    page.write_text("[a](other.md#a-heading-here) [b](gone.md#x) [c](other.md#nowhere) [d](#top)\n")
    assert broken_links(page) == ["gone.md#x", "other.md#nowhere", "#top"]


def test_every_link_between_the_pages_leads_somewhere():
    assert len(PAGES) >= 6  # the README, docs/ and the folders' READMEs were found
    broken = {page.relative_to(REPO).as_posix(): broken_links(page) for page in PAGES}
    assert {page: links for page, links in broken.items() if links} == {}


def test_the_readme_links_the_pages_that_hold_its_details():
    for page in (
        "desktops.md",
        "levels.md",
        "developing.md",
        "how-it-works.md",
        "benchmarks.md",
        "gym.md",
    ):
        assert f"(docs/{page}" in README, page
