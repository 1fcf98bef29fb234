"""The bot's reader of 8x8 font files: glyphs, matching, and errors that name the line."""

import pytest

from logo_bot.bot.errors import InputError
from logo_bot.bot.see.font import read_font

A = "[A]\n..##....\n.#..#...\n#....#..\n######..\n#....#..\n#....#..\n........\n........\n"
SPACE = "[ ]\n" + "........\n" * 8


def test_glyphs_read_as_row_bytes_and_match_back(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("; a comment\n\n" + A + "\n" + SPACE)
    font = read_font(path)
    assert font.glyphs["A"] == (0x30, 0x48, 0x84, 0xFC, 0x84, 0x84, 0, 0)
    assert font.match((0x30, 0x48, 0x84, 0xFC, 0x84, 0x84, 0, 0)) == "A"
    assert font.match((0,) * 8) == " "
    assert font.match((1,) * 8) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[A]\n..##....\n", "f.txt:1: [A] needs 8 rows"),
        (A + "\n" + A.replace("[A]", "[B]"), "f.txt:11: [B] looks exactly like [A]"),
        ("..##....\n", "f.txt:1: a glyph row before any [X] header"),
        ("; nothing\n", "no glyphs"),
    ],
)
def test_a_bad_font_file_says_where(tmp_path, text, words):
    path = tmp_path / "f.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=words.replace("[", r"\[").replace("]", r"\]")) as info:
        read_font(path)
    assert info.value.exit_code == 3


def test_a_missing_font_is_bad_input(tmp_path):
    with pytest.raises(InputError, match="cannot read the font"):
        read_font(tmp_path / "none.txt")
