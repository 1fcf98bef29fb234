"""Code screens, the last levels and the final score, in the real Fuse, on a build of
the easy level set (every target is one stone, so any level is won in a few keys)."""

import time

import pytest

from .gamefuse import LAYOUT, Game, field
from .levelfiles import code_word

pytestmark = pytest.mark.fuse

START = 86


def target_cell(level):
    return (1, (level - 1) % 10 + 1)


def test_codes_after_every_fifth_level_then_the_final_score(xserver, easy_build):
    game = Game.open(xserver.display, easy_build.z80, speed=400)
    try:
        frame = game.start(name="", code=code_word(START))
        assert game.field("name", frame) == LAYOUT.default_name.ljust(10)
        score = 0
        for level in range(START, 101):
            frame = game.wait_level()
            assert game.field("level", frame) == f"{level:03d}"
            assert game.field("score", frame) == f"{score:06d}"
            game.move_to(target_cell(level))
            between = game.press_until(
                "space", lambda f: not game.vision.level_shown(f), 10, "transition"
            )
            score += 100 + 10 * int(game.field("time", between))
            assert game.field("score", between) == f"{score:06d}"
            if level % 5:
                continue
            if level == 100:
                break
            word = code_word(level + 1)
            frame = game.wait_for(  # the code is drawn last
                lambda f, w=word: field(f, "code_word") == w,
                LAYOUT.timing["transition_frames"] + 20,
                "the code screen",
            )
            shown = time.monotonic()
            for text in LAYOUT.screens["code"]:
                assert game.shows(text, frame), text
            assert field(frame, "code_done") == f"{level:03d}"
            assert field(frame, "code_level") == f"{level + 1:03d}"
            assert field(frame, "code_word") == word
            if level == 90:  # let it run out: it lasts its frames
                game.wait_level(LAYOUT.timing["code_screen_frames"] + 20)
                waited = time.monotonic() - shown
                assert waited >= 0.9 * game.wall(LAYOUT.timing["code_screen_frames"])
            else:  # SPACE skips it
                game.press("space")
                game.wait_level(20)
        frame = game.wait_for(  # the score is drawn last
            lambda f: field(f, "final_score") == f"{score:06d}",
            LAYOUT.timing["transition_frames"] + 20,
            "the final score",
        )
        for text in LAYOUT.screens["final"]:
            assert game.shows(text, frame), text
        assert field(frame, "final_score") == f"{score:06d}"
        frame = game.settle(LAYOUT.timing["game_over_frames"] * 2)
        assert game.shows(LAYOUT.screens["final"][0], frame), "the final screen waits for a key"
        game.press("space")
        game.wait_text(LAYOUT.screens["title"][0])
    finally:
        game.close()
