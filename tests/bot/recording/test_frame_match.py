"""Placing the bot's looks at the movie frames that show their pictures."""

from __future__ import annotations

import numpy as np

from logo_bot.bot.recording.frame_match import REACH, place, signature


def screen(number: int, white: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """A 1x picture: white paper with ``number`` black pixels along its top row."""
    picture = np.empty((240, 320, 3), np.uint8)
    picture[:] = white
    picture[0, :number] = 0
    return picture


def test_the_windows_colours_and_scale_give_the_movies_signature():
    """Fuse's window shows bright white as (248, 252, 248), its movie as (255, 255, 255);
    a picture grabbed at 2x is the movie's 1x picture with each pixel doubled."""
    grabbed = screen(7, (248, 252, 248)).repeat(2, axis=0).repeat(2, axis=1)
    assert signature(grabbed, 2) == signature(screen(7))
    assert signature(screen(7)) != signature(screen(8))


def test_each_look_goes_to_the_frame_with_its_picture_nearest_the_estimate():
    # the movie: picture 1 for frames 0-9, 2 for 10-19, 1 again for 20-29, 3 from 30
    movie = [1] * 10 + [2] * 10 + [1] * 10 + [3] * 10
    # the clock ran 8 frames ahead of Fuse: looks estimated at 13, 26, 36 saw 2, 1, 3
    placed = place([(13, 2), (26, 1), (36, 3)], movie)
    assert placed.frames == [13, 26, 36] and placed.matched == 3
    # picture 1 at 18: frame 20 (2 away) rather than 9; picture 2 at 38 is only before
    # 20, so it keeps its estimate; picture 3 at 40 goes to the movie's last frame
    placed = place([(18, 1), (38, 2), (40, 3)], movie)
    assert placed.frames == [20, 38, 39] and placed.matched == 2


def test_a_look_never_goes_before_the_look_before_it():
    movie = [1] * 10 + [2] * 10 + [1] * 10
    # the second look's picture (1) is nearest its estimate at frame 9, before the first
    # look's frame 12: it goes to 20, the first frame of picture 1 after 12
    placed = place([(12, 2), (11, 1)], movie)
    assert placed.frames == [12, 20] and placed.matched == 2


def test_a_look_whose_picture_is_not_in_reach_keeps_its_estimate():
    movie = [1] * 400 + [2] * 10
    placed = place([(5, 1), (100, 2), (500, 9)], movie)
    assert placed.frames == [5, 100, 409], "not found: the estimate, within the movie"
    assert placed.matched == 1


def brief_pictures(frames: int, still: int = 0) -> list[int]:
    """A movie whose picture changes every 4 frames (signature 100 + frame // 4), after
    ``still`` frames of one picture (signature 1)."""
    return [1] * still + [100 + f // 4 for f in range(frames)]


def test_a_clock_that_started_seconds_before_fuses_first_frame_is_moved_by_the_pins():
    """Fuse loaded 6 s (at 200 %) after the clock's start: every estimate is 600 frames
    ahead of the movie, beyond ``REACH``. Looks at brief pictures pin the clock; the
    looks at the still title go near the frames they were made in too."""
    movie = brief_pictures(1000, still=300)
    seen = [280, 290, *range(302, 1300, 7)]  # the movie frames the looks showed
    looks = [(frame + 600, movie[frame]) for frame in seen]
    assert all(estimate - frame > REACH for (estimate, _), frame in zip(looks, seen, strict=True))
    placed = place(looks, movie)
    assert placed.matched == len(looks) and -603 <= placed.shift <= -597
    for frame, look, at in zip(placed.frames, looks, seen, strict=True):
        assert movie[frame] == look[1] and abs(frame - at) < 4


def test_a_fuse_that_falls_behind_the_clock_is_followed():
    """A starved Fuse runs at two thirds of its speed: the clock gets further ahead at
    every look, 497 frames by the end. Each look is placed by the pins just before it."""
    movie = brief_pictures(1000)
    seen = list(range(5, 1000, 9))
    looks = [(frame * 3 // 2, movie[frame]) for frame in seen]
    placed = place(looks, movie)
    assert placed.matched == len(looks)
    assert all(abs(frame - at) < 4 for frame, at in zip(placed.frames, seen, strict=True))
    assert -500 < placed.shift < -480, "the last pins' shift"


def test_fewer_than_three_pins_leave_the_clock_as_it_is():
    movie = brief_pictures(100, still=400)
    looks = [(5, 1), (420, 100 + 1), (440, 100 + 6)]  # two pins, both 15-19 frames late
    assert place(looks, movie).shift == 0
    assert place([*looks, (470, 100 + 13)], movie).shift < 0
