import pytest

from logo_bot.solvers.levels import LevelFormatError, load_level_list, parse_level, parse_level_list


def error_of(text: str) -> LevelFormatError:
    with pytest.raises(LevelFormatError) as info:
        parse_level_list(text, "t.txt")
    return info.value


def test_list_with_comments_and_metadata():
    text = "# header\n\n# first\n2 3\n1..\n..2\n\ncode: WORD\nname: Two\n1 1\n4\n"
    levels = parse_level_list(text, "t.txt")
    assert [lv.number for lv in levels] == [1, 2]
    assert str(levels[0].board) == "1..\n..2"
    assert levels[1].meta == {"code": "WORD", "name": "Two"}
    assert levels[1].line == 8


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "empty"),
        ("# only a comment\n", 1, 1, "empty"),
        ("2 x\n..\n..\n", 1, 1, "size line"),
        ("0 3\n", 1, 1, "1..64"),
        ("2 3\n...\n", 3, 1, "expected 2 rows"),
        ("1 3\n..5\n", 2, 3, "expected one of"),
        ("1 3\n....\n", 2, 4, "longer than 3"),
        ("2 3\n...\n..\n", 3, 3, "shorter than 3"),
        ("1 2\n..\n..\n", 3, 1, "blank line"),
        ("code: A\ncode: B\n1 1\n.\n", 2, 1, "twice"),
        ("code: A\n", 1, 1, "size line"),
    ],
)
def test_bad_input_names_line_column_and_expectation(text, line, column, words):
    err = error_of(text)
    assert (err.line, err.column) == (line, column)
    assert words in err.message
    assert str(err).startswith(f"t.txt:{line}:{column}: ")


def test_single_level_refuses_a_list():
    with pytest.raises(LevelFormatError, match="expected one level, found 2"):
        parse_level("1 1\n.\n\n1 1\n1\n")


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(LevelFormatError, match="cannot read the file"):
        load_level_list(tmp_path / "nope.txt")
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LevelFormatError, match="not a text file"):
        load_level_list(binary)
