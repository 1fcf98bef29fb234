"""Timing in emulated frames, read from Fuse's own movie (FMF) of every frame: the
timer counts seconds of 50 frames, the transition between levels lasts its frames,
and running out of time shows TIME UP, then GAME OVER, then the title."""

import pytest

from game.layout import Text
from logo_bot.solvers.board import Board, act

from .gamefuse import LAYOUT, PROFILE, Game, field, level_seconds, movie_frames, shows

pytestmark = pytest.mark.fuse

LEVEL_1_PLAN = [(4, 5), (3, 6), (3, 4), (2, 5), (3, 5)]
FPS = LAYOUT.timing["frames_per_second"]
DRAW_FRAMES = 4  # the most frames drawing a whole level (board, panel, preview) may take


def runs(values):
    """[(value, first index, length)] of equal consecutive values."""
    out = []
    for i, v in enumerate(values):
        if out and out[-1][0] == v:
            out[-1][2] += 1
        else:
            out.append([v, i, 1])
    return [tuple(r) for r in out]


def recorded(xserver, snapshot, tmp_path, speed, play):
    movie = tmp_path / "run.fmf"
    game = Game.open(xserver.display, snapshot, speed=speed, movie=movie)
    try:
        play(game)
    finally:
        game.close()  # SIGTERM: Fuse completes the movie
    return game, movie_frames(movie, tmp_path / "frames")


def test_timer_counts_emulated_seconds_and_the_transition_lasts_its_frames(
    xserver, game_build, tmp_path
):
    def play(game):
        game.start()
        game.wait_for(lambda f: game.field("time", f) == "042", 5 * FPS, "TIME 042")
        board = Board.empty(6, 10)
        for cell in LEVEL_1_PLAN:
            board = act(board, cell)
            game.act_at(cell, board)
        game.wait_level(LAYOUT.timing["transition_frames"] + 20)
        game.wait_for(lambda f: game.field("time", f) == "066", 4 * FPS, "TIME 066")

    game, frames = recorded(xserver, game_build.z80, tmp_path, 400, play)
    shown = [game.vision.level_shown(f) for f in frames]
    phases = runs(shown)
    # title and menu, level 1, transition, level 2
    assert [p[0] for p in phases] == [False, True, False, True]
    _, level_1_start, level_1_length = phases[1]
    _, transition_start, transition_length = phases[2]
    # The wait, then the frames the game takes to draw the next level (preview last).
    wait = LAYOUT.timing["transition_frames"]
    assert wait <= transition_length <= wait + DRAW_FRAMES, transition_length
    assert LAYOUT.timing["transition_frames"] >= FPS  # at least one second
    for f in frames[transition_start : transition_start + wait]:
        assert shows(f, LAYOUT.messages["well_done"])
    level_2_start = phases[3][1]
    first = frames[level_2_start]
    assert field(first, "level") == "002"
    assert field(first, "time") == f"{level_seconds(2):03d}"
    assert game.vision.board(first) == Board.empty(6, 10)
    for start, length in ((level_1_start, level_1_length), (level_2_start, len(frames))):
        times = runs([int(field(f, "time")) for f in frames[start : start + length]])
        # Every whole second shown lasts exactly 50 frames; the count goes down by one.
        assert len(times) >= 3
        assert all(n == FPS for _, _, n in times[1:-1]), times
        assert [t for t, _, _ in times] == list(range(times[0][0], times[0][0] - len(times), -1))
        assert FPS - 1 <= times[0][2] <= FPS or start == level_1_start  # a full first second


@pytest.mark.long
def test_time_up_then_game_over_then_the_title(xserver, game_build, tmp_path):
    title = LAYOUT.screens["title"][0]

    def play(game):
        game.start()
        game.wait_for(lambda f: game.shows(title, f), (level_seconds(1) + 6) * FPS, "title")

    game, frames = recorded(xserver, game_build.z80, tmp_path, 2000, play)
    over = LAYOUT.screens["game_over"][0]

    def state(f):
        if game.vision.level_shown(f):
            return "level"
        if shows(f, LAYOUT.messages["time_up"]):
            return "time up"
        if shows(f, over):
            return "game over"
        if shows(f, title):
            return "title"
        return "other"

    # Drop the few frames in which the game draws a new screen.
    phases = [p for p in runs([state(f) for f in frames]) if p[0] != "other" or p[2] > DRAW_FRAMES]
    names = [p[0] for p in phases]
    assert names[-4:] == ["level", "time up", "game over", "title"], phases
    level, time_up, game_over = phases[-4], phases[-3], phases[-2]
    # From the frame that shows the level to the one that blanks its preview: the time
    # limit, and the frame in which TIME UP is written before the preview is blanked.
    assert level_seconds(1) * FPS <= level[2] <= level_seconds(1) * FPS + 1
    assert time_up[2] == LAYOUT.timing["time_up_frames"]
    assert game_over[2] == LAYOUT.timing["game_over_frames"]
    times = runs([int(field(f, "time")) for f in frames[level[1] : time_up[1]]])
    assert [t for t, _, _ in times] == list(range(level_seconds(1), -1, -1))
    # The first second may look one frame short: the preview that starts the level can
    # be drawn after the beam has passed it, so it shows one frame after the timer starts.
    assert FPS - 1 <= times[0][2] <= FPS
    assert all(n == FPS for _, _, n in times[1:-1]), times
    at_time_up = frames[time_up[1]]
    assert field(at_time_up, "time") == "000"
    assert not game.vision.level_shown(at_time_up)
    at_game_over = frames[game_over[1]]
    for text in LAYOUT.screens["game_over"]:
        assert shows(at_game_over, text), text
    assert field(at_game_over, "game_over_score") == "000000"
    assert field(at_game_over, "game_over_level") == "001"
    assert isinstance(title, Text) and PROFILE.name == "practice"
