import re

import pytest

from game.leveldata import LevelDataError, code_levels, load_game_levels
from logo_bot.solvers.board import Board

from .levelfiles import code_word, easy_levels, easy_levels_with


def test_the_game_levels_are_complete():
    levels = load_game_levels()
    assert len(levels.boards) == 100
    assert sorted(levels.codes) == code_levels() == list(range(6, 100, 5))
    assert all(re.fullmatch("[A-Z]{5}", w) for w in levels.codes.values())
    assert len(set(levels.codes.values())) == 19
    # Levels 1 and 2 are the two published targets of LOGO-GAME.md section 1.
    assert levels.boards[0] == Board.from_rows(
        ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
    )
    assert levels.boards[1] == Board.from_rows(
        ["..........", ".....1....", "....111...", "...11111..", "....111...", ".....1...."]
    )


def test_codes_are_found_both_ways(tmp_path):
    levels = load_game_levels(easy_levels(tmp_path / "l.txt"))
    assert levels.code_after(5) == code_word(6)
    assert levels.code_after(6) is None
    assert levels.code_after(100) is None
    assert levels.level_of_code(code_word(96)) == 96
    assert levels.level_of_code("NOPE") is None


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("# level 100\n6 10\n", "# level 100\nsize: x\n6 10\n", None),
        (f"code: {code_word(6)}\n", "", "level 6 needs a 'code: WORD' line"),
        (f"code: {code_word(6)}\n", "code: CUNE\n", "must be 5 capital letters"),
        (f"code: {code_word(6)}\n", "code: cuneb\n", "must be 5 capital letters"),
        (f"code: {code_word(11)}\n", f"code: {code_word(6)}\n", "already used"),
        ("# level 7\n6 10\n", "# level 7\ncode: ABCDE\n6 10\n", "only levels 6, 11"),
        ("# level 3\n6 10\n..1.......\n", "# level 3\n5 10\n", "is 5x10, the game needs 6x10"),
    ],
)
def test_bad_level_lists_say_what_is_wrong(tmp_path, old, new, words):
    path = easy_levels_with(tmp_path / "levels.txt", old, new)
    if words is None:  # other metadata is allowed
        assert len(load_game_levels(path).boards) == 100
        return
    with pytest.raises(LevelDataError, match=re.escape(words)):
        load_game_levels(path)


def test_wrong_count_empty_target_and_format_errors(tmp_path):
    text = tmp_path / "levels.txt"
    easy = easy_levels(tmp_path / "easy.txt").read_text()
    text.write_text(easy.rsplit("\n# level 100", 1)[0])
    with pytest.raises(LevelDataError, match="expected 100 levels, found 99"):
        load_game_levels(text)
    text.write_text(easy.replace("# level 4\n6 10\n...1......", "# level 4\n6 10\n.........."))
    with pytest.raises(LevelDataError, match="level 4 has no stones"):
        load_game_levels(text)
    text.write_text(easy.replace("# level 4\n6 10\n...1......", "# level 4\n6 10\n...5......"))
    with pytest.raises(LevelDataError, match="expected one of"):
        load_game_levels(text)
