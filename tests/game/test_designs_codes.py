"""The level designs file and the level codes."""

from __future__ import annotations

import re

import pytest

from game.codes import make_codes
from game.designs import DESIGNS_FILE, DesignError, load_designs, parse_designs
from logo_bot.solvers.board import Board

PLUS = "6 10\n..........\n....X.....\n...XXX....\n....X.....\n..........\n..........\n"


def block(meta: str, grid: str = PLUS) -> str:
    return meta + grid


def designs_text(first_meta: str = "theme: t\nname: a\n", second_meta: str = "name: b\n") -> str:
    return block(first_meta) + "\n" + block(second_meta)


def test_the_shipped_designs_follow_the_rules():
    designs = load_designs(DESIGNS_FILE)
    assert [d.number for d in designs] == list(range(1, 101))
    assert len({d.theme for d in designs}) == 20
    assert all(d.theme == designs[5 * ((d.number - 1) // 5)].theme for d in designs)
    assert len(designs[93].cells) == 60
    published = Board.from_rows(
        ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
    )
    assert designs[0].fixed == published
    assert designs[1].fixed is not None and designs[1].fixed.stone_count == 13
    assert all(d.fixed is None for d in designs[2:])


def test_x_marks_stones_and_the_theme_carries_over():
    first, second = parse_designs(designs_text())
    assert first.cells == ((2, 5), (3, 4), (3, 5), (3, 6), (4, 5))
    assert (first.theme, first.name, second.theme, second.name) == ("t", "a", "t", "b")
    assert first.fixed is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (designs_text(first_meta="name: a\n"), "give it a 'theme: ...' line"),
        (designs_text(second_meta="theme: u\nname: b\n"), "inside a block"),
        (designs_text(second_meta="title: b\n"), "unknown metadata ['title']"),
        (designs_text(second_meta="colour: red\n"), "unknown metadata"),
        (block("theme: t\n", PLUS), "'name: ...' line"),
        (block("theme: t\nname: a\n", PLUS.replace("XXX", "X2X")), "values: as drawn"),
        (block("theme: t\nname: a\nvalues: random\n"), "can only be 'as drawn'"),
        (block("theme: t\nname: a\n", "1 3\nX.X\n"), "every level is 6x10"),
        (block("theme: t\nname: a\nvariant: two\n"), "whole number"),
        (
            block("theme: t\nname: a\nvalues: as drawn\nvariant: 1\n"),
            "values as drawn has no variants",
        ),
    ],
)
def test_design_errors_name_the_level_and_the_fix(text, words):
    with pytest.raises(DesignError, match=re.escape(words)) as info:
        parse_designs(text, "d.txt")
    assert str(info.value).startswith("d.txt:")


def test_values_as_drawn_keeps_the_digits():
    (design,) = parse_designs(
        block("theme: t\nname: a\nvalues: as drawn\n", PLUS.replace("XXX", "X2X"))
    )
    assert design.fixed is not None and design.fixed[(3, 5)] == 2 and design.fixed[(2, 5)] == 1


def test_codes_are_distinct_readable_and_reproducible():
    codes = make_codes(19, "s")
    cons = "[BCDFGHJKLMNPRSTVZ]"
    assert codes == make_codes(19, "s") != make_codes(19, "t")
    assert len(set(codes)) == 19
    assert all(re.fullmatch(cons + "[AEIOU]" + cons + "[AEIOU]" + cons, c) for c in codes)
