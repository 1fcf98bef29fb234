"""The control choices of the menu in the real Fuse: each adds its keys, and Q A O P,
SPACE and R keep working with every choice (and nothing moves by itself when the
Kempston joystick is chosen but there is no Kempston interface)."""

import pytest

from logo_bot.solvers.board import Board, act

from .chords import chord
from .gamefuse import LAYOUT, Game

pytestmark = pytest.mark.fuse

EMPTY = Board.empty(6, 10)
# menu key -> (up, down, left, right, place) of that control
CONTROLS = {
    "1": None,
    "2": None,
    "3": ("9", "8", "6", "7", "0"),
    "4": ("7", "6", "5", "8", "0"),
}


def start_with(game, control):
    game.wait_text(LAYOUT.screens["title"][-1])
    game.press("space")
    game.wait_text(LAYOUT.screens["menu"][0])
    game.press(control, "7")
    game.type("PAD")
    game.press("enter")
    game.wait_level()


def expect_cursor(game, cell):
    game.wait_for(lambda f: game.vision.cursor_candidates(f) == [cell], 12, f"cursor {cell}")


@pytest.mark.parametrize("control", sorted(CONTROLS))
def test_each_control_choice(xserver, roomy_build, control):
    game = Game.open(xserver.display, roomy_build.z80, speed=200)
    try:
        start_with(game, control)
        frame = game.settle(30)
        assert game.vision.cursor(frame) == (1, 1), "nothing moves by itself"
        assert game.vision.board(frame) == EMPTY
        keys = CONTROLS[control]
        if keys:
            up, down, left, right, place = keys
            game.press(right, right, down)
            expect_cursor(game, (2, 3))
            game.press(left, up)
            expect_cursor(game, (1, 2))
            game.press_until(
                place, lambda f: game.vision.board(f) == act(EMPTY, (1, 2)), 12, "stone"
            )
            game.press_until("r", lambda f: game.vision.board(f) == EMPTY, 12, "taken back")
        if control == "4":  # Fuse turns the PC's arrow keys into CAPS SHIFT + 5..8
            game.press("Right", "Down", "Left")
            expect_cursor(game, (2, 2))
            game.press("Up")
            expect_cursor(game, (1, 2))
        game.press("p", "a", "o", "q", "p")  # the keyboard keys always work
        expect_cursor(game, (1, 3) if keys else (1, 2))
        game.press("space")
        cell = (1, 3) if keys else (1, 2)
        game.wait_for(lambda f: game.vision.board(f) == act(EMPTY, cell), 12, "stone")
        game.press_until("r", lambda f: game.vision.board(f) == EMPTY, 12, "taken back")
    finally:
        game.close()


def test_a_key_held_down_is_one_move(xserver, roomy_build):
    game = Game.open(xserver.display, roomy_build.z80, speed=200)
    try:
        start_with(game, "2")
        chord(xserver.display, game.session.fuse.window_id, "p", [], gap_s=game.wall(75))
        expect_cursor(game, (1, 2))
        assert game.vision.cursor(game.settle(10)) == (1, 2)
        chord(xserver.display, game.session.fuse.window_id, "space", [], gap_s=game.wall(75))
        game.wait_for(lambda f: game.vision.board(f) == act(EMPTY, (1, 2)), 12, "one stone")
        assert game.vision.board(game.settle(10)) == act(EMPTY, (1, 2))
    finally:
        game.close()
