import pytest

from game.bitmaps import BitmapFormatError, parse_bitmaps
from game.font import REQUIRED, load_font


def write(tmp_path, text):
    path = tmp_path / "font.txt"
    path.write_text(text)
    return path


def glyph(name, rows):
    return f"[{name}]\n" + "\n".join(rows) + "\n\n"


BLANK = ["........"] * 8


def test_the_game_font_has_every_character_its_texts_need():
    font = load_font()
    for ch in REQUIRED + ":!?-().,/&'*[]_>+=":
        assert ch in font.glyphs, ch
    assert all(len(g) == 8 for g in font.glyphs.values())


def test_every_glyph_reads_back_as_its_character():
    font = load_font()
    for ch, rows in font.glyphs.items():
        assert font.match(rows) == ch
    assert font.match((0xFF,) * 8) is None


def test_glyph_bits_follow_the_file_left_to_right():
    font = load_font()
    # [1] row 6 is ".######." -> 0b01111110
    assert font.glyph("1")[6] == 0x7E
    assert font.glyph(" ") == (0,) * 8


def test_parser_reads_names_including_space_and_brackets():
    text = "; comment\n" + glyph(" ", BLANK) + glyph("]", ["#.......", *BLANK[1:]])
    blocks = parse_bitmaps(text, "t.txt")
    assert list(blocks) == [" ", "]"]
    assert blocks["]"].cell_bytes(0, 0)[0] == 0x80
    assert blocks["]"].line == 12  # comment, 9 lines of [ ], blank line


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("#.......\n", 1, "header line"),
        ("[A]\n#..x....\n", 2, "column 4"),
        ("[A]\n#.......\n#......\n", 3, "7 pixels wide"),
        ("[A]\n\n", 1, "no pixel rows"),
        ("[A]\n#\n\n[A]\n#\n", 4, "defined twice"),
        ("; only comments\n", 1, "no bitmaps"),
    ],
)
def test_bad_bitmap_files_name_the_line(text, line, words):
    with pytest.raises(BitmapFormatError) as info:
        parse_bitmaps(text, "t.txt")
    assert info.value.line == line
    assert words in info.value.message


def test_font_refuses_wrong_size_long_names_lookalikes_and_gaps(tmp_path):
    def complete(extra):
        return (
            "".join(
                glyph(ch, [f"{i:08b}".replace("0", ".").replace("1", "#") for i in range(n, n + 8)])
                for n, ch in enumerate(REQUIRED)
            )
            + extra
        )

    assert len(load_font(write(tmp_path, complete(""))).glyphs) == len(REQUIRED)
    with pytest.raises(BitmapFormatError, match="must be 8x8"):
        load_font(write(tmp_path, complete(glyph("!", BLANK[:7]))))
    with pytest.raises(BitmapFormatError, match="one character"):
        load_font(write(tmp_path, complete(glyph("AB", BLANK))))
    with pytest.raises(BitmapFormatError, match="one character"):
        load_font(write(tmp_path, complete(glyph("a", BLANK))))
    with pytest.raises(BitmapFormatError, match=r"\[!\] looks exactly like \[ \]"):
        first = [f"{i:08b}".replace("0", ".").replace("1", "#") for i in range(8)]
        load_font(write(tmp_path, complete(glyph("!", first))))
    with pytest.raises(BitmapFormatError, match="lacks glyphs for 'Z'"):
        load_font(write(tmp_path, complete("").replace("[Z]", "[!]")))


def test_unreadable_font_file_is_named(tmp_path):
    with pytest.raises(BitmapFormatError, match="cannot read"):
        load_font(tmp_path / "missing.txt")
