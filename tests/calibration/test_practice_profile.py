"""The practice profile must say exactly what the practice game draws (game/layout.toml)."""

from game.font import FONT_FILE, load_font
from game.layout import load_layout
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.font import read_font

PROFILE = load_profile("practice")
LAYOUT = load_layout()


def test_panel_fields_are_where_the_game_draws_them():
    for name, spot in PROFILE.panel.items():
        field = LAYOUT.fields[name]
        assert (spot.row, spot.col, spot.width) == (field.row, field.col, field.width), name


def test_screen_marks_are_texts_the_game_draws_there():
    drawn = [t for texts in LAYOUT.screens.values() for t in texts] + list(LAYOUT.messages.values())
    # the menu marks the controls chosen with a "*" beside options 1 to 4
    marker = LAYOUT.fields["menu_marker"]
    chosen = {(marker.row + option, marker.col, "*") for option in range(4)}
    for name, spot in PROFILE.screens.marks.items():
        where = (spot.row, spot.col, spot.text)
        assert where in chosen or any((t.row, t.col, t.text) == where for t in drawn), (
            f"{name}: {spot.text!r} is not drawn at column {spot.col}, row {spot.row}"
        )
    for name, spot in PROFILE.screens.fields.items():
        field = LAYOUT.fields[name]
        assert (spot.row, spot.col, spot.width) == (field.row, field.col, field.width), name


def test_the_profiles_font_is_data_of_its_own_with_the_games_glyphs():
    """The bot reads the font from calibration/ (never from game/), so the copy there
    must draw every character exactly as game/font.txt, which the game is built from."""
    assert PROFILE.font.parent.name == "practice" and not PROFILE.font.samefile(FONT_FILE)
    assert read_font(PROFILE.font).glyphs == load_font(FONT_FILE).glyphs


def test_screen_durations_are_the_games():
    timing = LAYOUT.timing
    assert PROFILE.screens.frames == {
        "well_done": timing["transition_frames"],
        "code": timing["code_screen_frames"],
        "time_up": timing["time_up_frames"],
        "game_over": timing["game_over_frames"],
    }
