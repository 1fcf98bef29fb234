"""One game played in the real Fuse, in order: title, the section 3 start sequence,
level 1 by its published plan, the board mechanics on level 2, level 2 by a plan.

The tests share one Fuse (speed 200 %) and run in file order; each states what it
starts from. The game is the roomy build (the longest clock): these tests take their
time, the clock's own figures are test_fuse_timing.py's.
"""

import time

import pytest

from logo_bot.solvers.board import Board, act, play

from .gamefuse import LAYOUT, LEVELS, PROFILE, ROOMY, Game, level_seconds
from .plans import plan_for

pytestmark = pytest.mark.fuse

NAME = "TESTER"
LEVEL_1_PLAN = [(4, 5), (3, 6), (3, 4), (2, 5), (3, 5)]
EMPTY = Board.empty(6, 10)
# Cells whose stones end up showing every value 1..4 (see test_stones_show_their_values).
VALUE_CELLS = [(2, 2), (2, 3), (2, 4), (3, 3), (1, 3), (2, 1), (3, 4), (6, 10), (5, 10)]


@pytest.fixture(scope="module")
def game(xserver, roomy_build):
    game = Game.open(xserver.display, roomy_build.z80, speed=200)
    yield game
    game.close()


def panel(game, frame):
    return {name: game.field(name, frame) for name in ("name", "score", "time", "level")}


def test_title_screen_shows_the_game_and_its_keys(game):
    frame = game.wait_text(LAYOUT.screens["title"][-1])
    for text in LAYOUT.screens["title"]:
        assert game.shows(text, frame), text
    assert not game.vision.level_shown(frame)


def test_section_3_start_sequence_reaches_level_1(game):
    """SPACE; wait 2 s; 2, 5; wait 1 s; ENTER; 7; wait 1 s; name; ENTER."""
    game.press("space")
    game.wait_frames(100)
    game.press("2", "5")
    game.wait_frames(50)
    game.press("enter", "7")
    game.wait_frames(50)
    game.type(NAME)
    game.press("enter")
    frame = game.wait_level(frames=10)
    assert panel(game, frame) == {
        "name": NAME.ljust(10),
        "score": "000000",
        "time": f"{level_seconds(1, ROOMY):03d}",
        "level": "001",
    }
    assert level_seconds(1) == 45
    assert game.vision.preview(frame) == LEVELS.boards[0]
    assert game.vision.board(frame) == EMPTY
    assert game.cursor() == (1, 1)


def test_level_1_published_plan_completes_and_level_2_follows(game):
    board = EMPTY
    for cell in LEVEL_1_PLAN[:-1]:
        board = act(board, cell)
        game.act_at(cell, board)
    game.move_to(LEVEL_1_PLAN[-1])
    started = time.monotonic()  # before the press: the transition cannot start sooner
    game.press(PROFILE.keys.act)
    transition = game.wait_for(lambda f: not game.vision.level_shown(f), 10, "the transition")
    assert game.vision.board(transition) == LEVELS.boards[0]
    assert game.shows(LAYOUT.messages["well_done"], transition)
    seconds_left = int(game.field("time", transition))
    assert 0 < seconds_left <= level_seconds(1, ROOMY)
    assert game.field("score", transition) == f"{100 + 10 * seconds_left:06d}"
    frame = game.wait_level(frames=LAYOUT.timing["transition_frames"] + 20)
    # At least one emulated second between the levels (Fuse never runs faster than --speed).
    assert time.monotonic() - started >= 0.9 * game.wall(LAYOUT.timing["transition_frames"])
    assert game.vision.preview(frame) == LEVELS.boards[1]
    assert game.vision.board(frame) == EMPTY
    assert panel(game, frame) == {
        "name": NAME.ljust(10),
        "score": f"{100 + 10 * seconds_left:06d}",
        "time": f"{level_seconds(2, ROOMY):03d}",
        "level": "002",
    }
    assert not game.shows(LAYOUT.messages["well_done"], frame)
    assert game.cursor() == (1, 1)


def test_cursor_stops_at_the_edges(game):
    """Level 2, cursor at (1, 1)."""
    assert game.cursor() == (1, 1)
    game.press("q", "o")
    game.settle()
    assert game.cursor() == (1, 1)
    game.move_to((6, 10))
    game.press("a", "p", "a", "p")
    game.settle()
    assert game.cursor() == (6, 10)
    game.move_to((1, 10))
    game.press("q", "p")
    game.settle()
    assert game.cursor() == (1, 10)
    game.move_to((6, 1))
    game.press("a", "o")
    game.settle()
    assert game.cursor() == (6, 1)


def test_stones_show_their_values_and_the_cursor_is_found_on_each(game):
    """Level 2, empty board: place stones until values 1..4 all show."""
    board = EMPTY
    for cell in VALUE_CELLS:
        board = act(board, cell)
        game.act_at(cell, board)
    assert {board[c] for c in board.stones()} == {1, 2, 3, 4}
    for cell in board.stones():
        game.move_to(cell)

        def check(frame, cell=cell):
            assert game.vision.cursor_candidates(frame) == [cell]
            assert game.vision.board(frame) == board

        game.each_flash_phase(cell, check)


def test_acting_on_a_stone_does_nothing(game):
    board = play(EMPTY, VALUE_CELLS)
    before = game.frame()
    assert game.vision.board(before) == board
    for cell in [(2, 3), (6, 10)]:
        game.move_to(cell)
        game.press("space")
        frame = game.settle()
        assert game.vision.board(frame) == board
        assert game.field("score", frame) == game.field("score", before)


def test_r_takes_back_the_last_stone_again_and_again(game):
    boards = [EMPTY]
    for cell in VALUE_CELLS:
        boards.append(act(boards[-1], cell))
    game.move_to((4, 7))  # R works wherever the cursor is
    for expected in reversed(boards[:-1]):
        shows = lambda f, b=expected: game.vision.board(f) == b  # noqa: E731
        game.press_until("r", shows, 20, f"board\n{expected}")
    game.press("r")
    assert game.vision.board(game.settle()) == EMPTY
    assert game.cursor() == (4, 7)


def test_level_2_is_completed_by_a_plan(game):
    score = int(game.field("score"))
    board = EMPTY
    plan = plan_for(LEVELS.boards[1])
    for cell in plan[:-1]:
        board = act(board, cell)
        game.act_at(cell, board)
    game.move_to(plan[-1])
    transition = game.press_until(
        "space", lambda f: not game.vision.level_shown(f), 10, "the transition"
    )
    seconds_left = int(game.field("time", transition))
    assert int(game.field("score", transition)) == score + 100 + 10 * seconds_left
    frame = game.wait_level(frames=LAYOUT.timing["transition_frames"] + 20)
    assert game.field("level", frame) == "003"
    assert game.vision.preview(frame) == LEVELS.boards[2]
    assert game.field("time", frame) == f"{level_seconds(3, ROOMY):03d}"
