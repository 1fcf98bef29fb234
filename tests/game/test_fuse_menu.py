"""The menu in the real Fuse: option toggles, ENTER doing nothing, codes (right and
wrong), the name with DELETE, and a game that starts at a code's level."""

import numpy as np
import pytest

from .gamefuse import LAYOUT, LEVELS, Game, level_seconds

pytestmark = pytest.mark.fuse

MARKER = LAYOUT.fields["menu_marker"]
CODE_LEVEL = 11


@pytest.fixture(scope="module")
def game(xserver, game_build):
    game = Game.open(xserver.display, game_build.z80, speed=200)
    game.wait_text(LAYOUT.screens["title"][-1])
    game.press("space")
    game.wait_text(LAYOUT.screens["menu"][0])
    yield game
    game.close()


def markers(game, frame):
    return "".join(game.text(MARKER.row + i, MARKER.col, 1, frame) for i in range(4))


def test_menu_shows_its_options_and_the_defaults(game):
    frame = game.settle()
    for text in LAYOUT.screens["menu"]:
        if text.text == "[ ]":  # a radio button, filled in by the game
            continue
        assert game.shows(text, frame), text
    for i in range(4):
        assert game.text(MARKER.row + i, MARKER.col - 1, 3, frame) in ("[ ]", "[*]")
    assert markers(game, frame) == " *  "
    assert game.shows(LAYOUT.messages["sound_on"], frame)
    assert game.field("menu_start_level", frame) == "001"


@pytest.mark.parametrize(("key", "expected"), [("1", "*   "), ("3", "  * "), ("4", "   *")])
def test_1_to_4_choose_one_control(game, key, expected):
    game.press_until(key, lambda f: markers(game, f) == expected, 10, expected)


def test_2_chooses_the_keyboard_again(game):
    game.press_until("2", lambda f: markers(game, f) == " *  ", 10, "keyboard")


def test_5_toggles_the_sound(game):
    game.press("5")
    game.wait_text(LAYOUT.messages["sound_off"], 10)
    game.press("5")
    game.wait_text(LAYOUT.messages["sound_on"], 10)


def test_enter_and_other_keys_change_nothing_on_the_menu(game):
    before = game.settle()
    game.press("enter", "x", "8", "space", "q")
    after = game.settle(8)
    assert np.array_equal(before, after)


def test_a_wrong_code_is_refused(game):
    game.press("6")
    game.wait_text(LAYOUT.messages["code_prompt"], 10)
    game.type("zzzzz")
    frame = game.wait_text(LAYOUT.messages["code_wrong"], 10)
    assert game.field("menu_start_level", frame) == "001"
    assert not game.shows(LAYOUT.messages["code_prompt"], frame)


def test_a_short_code_ended_with_enter_is_refused(game):
    code = LEVELS.codes[CODE_LEVEL]
    game.press("6")
    game.type(code[:3])
    game.press("enter")
    frame = game.wait_text(LAYOUT.messages["code_wrong"], 10)
    assert game.field("menu_start_level", frame) == "001"


def test_a_code_sets_the_start_level(game):
    game.press("6")
    game.wait_text(LAYOUT.messages["code_prompt"], 10)
    assert not game.shows(LAYOUT.messages["code_wrong"])  # a new choice clears the status
    game.type(LEVELS.codes[CODE_LEVEL].lower())
    frame = game.wait_text(LAYOUT.messages["code_ok"], 10)
    assert game.field("menu_start_level", frame) == f"{CODE_LEVEL:03d}"


def test_the_name_takes_delete_and_the_game_starts_at_the_code_level(game):
    game.press("7")
    game.wait_text(LAYOUT.messages["name_prompt"], 10)
    game.type("abx")
    game.press("backspace")  # CAPS SHIFT + 0 in Fuse
    game.type("c1")
    field = LAYOUT.fields["menu_input"]
    game.wait_for(lambda f: game.text(field.row, field.col, 5, f) == "ABC1_", 10, "ABC1_")
    game.press("enter")
    frame = game.wait_level()
    assert game.field("name", frame) == "ABC1".ljust(10)
    assert game.field("level", frame) == f"{CODE_LEVEL:03d}"
    assert game.field("time", frame) == f"{level_seconds(CODE_LEVEL):03d}"
    assert game.field("score", frame) == "000000"
    assert game.vision.preview(frame) == LEVELS.boards[CODE_LEVEL - 1]
