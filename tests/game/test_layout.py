import pytest

from game.bitmaps import load_bitmaps
from game.build import TILES_FILE
from game.layout import LAYOUT_FILE, SCREEN_COLS, LayoutError, load_layout
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.board import Board, act
from logo_bot.solvers.levels import load_level_list

from .render import render

LAYOUT = load_layout()
PROFILE = load_profile("practice")


def cells_of(row, col, width):
    return {(row, col + i) for i in range(width)}


def board_area(layout):
    g = layout.geometry
    return {
        (g["board_row"] + r, g["board_col"] + c)
        for r in range(2 * g["rows"])
        for c in range(2 * g["cols"])
    }


def preview_area(layout):
    g = layout.geometry
    return {
        (g["preview_row"] + r, g["preview_col"] + c)
        for r in range(g["rows"])
        for c in range(g["cols"])
    }


def test_geometry_is_logo_game_section_2_and_the_practice_profile():
    g = LAYOUT.geometry
    for r in range(1, 7):
        for c in range(1, 11):
            # Main board cell (r, c): 16x16 at window (32 + 16c, 24 + 16r).
            x = 32 + 8 * (g["board_col"] + 2 * (c - 1))
            y = 24 + 8 * (g["board_row"] + 2 * (r - 1))
            assert (x, y) == (32 + 16 * c, 24 + 16 * r)
            assert (x, y) == PROFILE.geometry.board.cell_origin(r, c)
            # Preview cell (r, c): 8x8 at window (40 + 8c, 152 + 8r).
            x = 32 + 8 * (g["preview_col"] + c - 1)
            y = 24 + 8 * (g["preview_row"] + r - 1)
            assert (x, y) == (40 + 8 * c, 152 + 8 * r)
            assert (x, y) == PROFILE.geometry.preview.cell_origin(r, c)


def test_play_screen_texts_and_fields_keep_off_the_board_and_preview():
    keep_off = board_area(LAYOUT) | preview_area(LAYOUT)
    used = [cells_of(t.row, t.col, len(t.text)) for t in LAYOUT.screens["play"]]
    used += [
        cells_of(f.row, f.col, f.width)
        for name, f in LAYOUT.fields.items()
        if name in ("name", "score", "time", "level", "message")
    ]
    used += [cells_of(LAYOUT.messages[m].row, LAYOUT.messages[m].col, 10) for m in ("well_done",)]
    for cells in used:
        assert not cells & keep_off


def test_panel_is_in_the_lower_right():
    for name in ("name", "score", "time", "level"):
        field = LAYOUT.fields[name]
        assert field.row >= 15 and field.col >= 14 and field.col + field.width <= SCREEN_COLS


def test_texts_on_one_screen_do_not_overlap():
    for name, texts in LAYOUT.screens.items():
        seen: set = set()
        for t in texts:
            cells = cells_of(t.row, t.col, len(t.text))
            assert not cells & seen, (name, t)
            seen |= cells


def test_centred_texts_get_their_column():
    assert LAYOUT.messages["well_done"].col == (32 - len("WELL DONE!")) // 2


def test_stone_colours_are_the_profile_values():
    for value, colour in enumerate(LAYOUT.value_colours, start=1):
        assert PROFILE.palette.preview_values[value] == f"bright_{colour}"
        assert PROFILE.palette.board_values[value] == f"bright_{colour}"


def test_attribute_bytes():
    assert LAYOUT.attr("empty_cell") == 0x01  # blue ink on black
    assert LAYOUT.attr("cursor", paper="red") == 0x80 | 0x40 | 2 << 3 | 7
    assert LAYOUT.attr("preview_stone", ink="green") == 0x40 | 4


def test_the_game_data_meets_the_section_2_pixel_rules_in_both_flash_phases():
    """Every cursor position, on an empty cell and on stones of each value, both phases:
    the bot's vision finds exactly that cursor, reads the board and the preview."""
    from logo_bot.bot.see.vision import Vision

    tiles = load_bitmaps(TILES_FILE)
    vision = Vision(PROFILE)
    target = load_level_list("game/levels.txt")[0].board
    stones = Board.empty(6, 10)
    for cell in [(2, 2), (2, 3), (2, 4), (3, 3), (1, 3), (2, 1), (3, 4), (6, 10), (5, 10)]:
        stones = act(stones, cell)
    assert {stones[c] for c in stones.stones()} == {1, 2, 3, 4}
    for board in (Board.empty(6, 10), stones):
        for r in range(1, 7):
            for c in range(1, 11):
                for phase in (False, True):
                    frame = render(LAYOUT, tiles, PROFILE, target, board, (r, c), phase)
                    assert vision.cursor_candidates(frame) == [(r, c)], (r, c, phase)
                    assert vision.board(frame) == board
                    assert vision.preview(frame) == target
                    assert vision.level_shown(frame)
    cleared = render(LAYOUT, tiles, PROFILE, None, stones, (1, 1), False)
    assert not vision.level_shown(cleared)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            ("[fields]\nname = { row = 16, col = 20", "[fields]\nname = { row = 16, col = 30"),
            "do not fit",
        ),
        (('style = "good"', 'style = "shiny"'), "style 'shiny'"),
        (('border = "black"', 'border = "pink"'), "colour must be one of"),
        (
            (
                'colours = ["red", "green", "magenta", "yellow"]',
                'colours = ["red", "red", "magenta", "yellow"]',
            ),
            "4 different",
        ),
        (("well_done = ", "well_gone = "), "lacks well_done"),
        (("transition_frames = 50", "transition_frames = -1"), "transition_frames"),
        (("transition_frames = 50", "transition_frames = 300"), "must be 1..255 frames"),
        (("seconds_per_stone = 3", "seconds_per_stone = 4"), "must be 1..255 seconds"),
        (("per_second_left = 10", "per_second_left = 300"), "below 65536"),
        (('default_name = "PLAYER"', 'default_name = "pl"'), "default_name"),
        (("[geometry]", "[geometry]\n[x"), "not valid TOML"),
    ],
)
def test_bad_layouts_are_refused_with_a_reason(tmp_path, change, words):
    text = LAYOUT_FILE.read_text()
    old, new = change
    assert old in text
    path = tmp_path / "layout.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(LayoutError) as info:
        load_layout(path)
    assert words in str(info.value)
