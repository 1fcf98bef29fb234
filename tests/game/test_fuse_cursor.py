"""The section 2 pixel facts read from the real Fuse window at the 1x, 2x and 3x
graphics filters: the preview, the cursor at all 60 cells in both FLASH phases,
and the level marker during play and during the transition."""

import pytest

from logo_bot.solvers.board import Board, act

from .gamefuse import LAYOUT, LEVELS, PROFILE, Game

pytestmark = pytest.mark.fuse

LEVEL_1_PLAN = [(4, 5), (3, 6), (3, 4), (2, 5), (3, 5)]


def serpentine():
    """(cell, key that reaches it) through all 60 cells, moving with Q A O P only."""
    yield (1, 1), None
    for row in range(1, 7):
        cols = range(2, 11) if row % 2 else range(9, 0, -1)
        for col in cols:
            yield (row, col), "p" if row % 2 else "o"
        if row < 6:
            yield (row + 1, 10 if row % 2 else 1), "a"


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_pixel_facts_at_every_cursor_cell_and_between_levels(xserver, roomy_build, scale):
    """On the roomy build: both FLASH phases at 60 cells take most of level 1's usual
    45 emulated seconds, and longer when Fuse runs behind on a busy machine."""
    game = Game.open(xserver.display, roomy_build.z80, speed=400, scale=scale)
    try:
        frame = game.start()
        assert frame.shape == (240 * scale, 320 * scale, 3)
        assert game.vision.preview(frame) == LEVELS.boards[0]
        visited = []
        for cell, key in serpentine():
            at = lambda f, c=cell: game.vision.cursor_candidates(f) == [c]  # noqa: E731
            if key:
                game.press_until(key, at, 20, cell)
            else:
                game.wait_for(at, 20, cell)

            def check(frame, cell=cell):
                assert game.vision.cursor_candidates(frame) == [cell]
                assert game.vision.level_shown(frame)

            game.each_flash_phase(cell, check)
            visited.append(cell)
        assert sorted(visited) == [(r, c) for r in range(1, 7) for c in range(1, 11)]
        board = Board.empty(6, 10)
        for cell in LEVEL_1_PLAN[:-1]:
            board = act(board, cell)
            game.act_at(cell, board)
        game.move_to(LEVEL_1_PLAN[-1])
        between = game.press_until(
            "space", lambda f: not game.vision.level_shown(f), 10, "transition"
        )
        marker = game.vision.block(between, PROFILE.geometry.preview.cell_origin(6, 1), 8)
        assert (marker == marker[0, 0]).all()
        frame = game.wait_level(LAYOUT.timing["transition_frames"] + 20)
        assert game.vision.preview(frame) == LEVELS.boards[1]
    finally:
        game.close()
