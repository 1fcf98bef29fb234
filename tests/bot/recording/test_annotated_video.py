"""The annotated video: each emulated frame keeps the picture the bot saw last in it; the
looks go to the movie frames showing their pictures; without a movie (an attached Fuse)
each video frame shows the picture of its moment (pictures whose pixels are their number)."""

from __future__ import annotations

import numpy as np
import pytest

from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording import annotated_video
from logo_bot.bot.recording.annotated_video import FramesSeen, place_looks, render
from logo_bot.bot.recording.encode import Encoded
from logo_bot.bot.recording.events import EventLog
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.frame_match import signature
from logo_bot.bot.recording.frame_store import FrameStore
from logo_bot.bot.recording.run_state import RecordOptions, RunState
from logo_bot.bot.see.annotate import ZOOM
from logo_bot.bot.see.vision import Vision

PROFILE = load_profile("practice")
VISION = Vision(PROFILE)
WIDTH, HEIGHT = PROFILE.geometry.window


def picture(number: int) -> np.ndarray:
    """A window-sized picture whose every pixel is ``number``."""
    return np.full((HEIGHT, WIDTH, 3), number, dtype=np.uint8)


# (emulated frame, picture) of each look, in order: the bot looks several times in one
# frame (the picture may change between two looks in it), skips frames, and sees the
# same picture in frames that follow each other.
LOOKS = [
    (0, 1), (0, 1), (1, 1), (1, 2), (1, 2), (2, 2), (2, 2), (2, 2), (4, 3), (4, 3),
    (5, 3), (6, 4), (6, 5), (6, 5), (7, 5), (9, 6), (9, 6), (9, 7), (12, 7), (12, 7),
]  # fmt: skip
SEEN_LAST = {frame: number for frame, number in LOOKS}  # the picture each frame keeps


def stored(tmp_path) -> FramesSeen:
    seen = FramesSeen(FrameStore(tmp_path / "frames.tmp"))
    for frame, number in LOOKS:
        seen.add(Observation(picture(number), VISION, at=frame / 50), 0, frame)
    seen.close()
    return seen


def test_each_frame_keeps_the_picture_the_bot_saw_last_in_it(tmp_path):
    """A second look at the same frame replaces the first; when its picture had not
    changed, it must still point at that picture, not at the frame before's (else a
    picture goes stale: frame 1 shows picture 1, and frame 4 still shows picture 1)."""
    seen = stored(tmp_path)
    assert [e.frame for e in seen.entries] == sorted(SEEN_LAST)
    shown = {e.frame: int(seen.pixels(e)[0, 0, 0]) for e in seen.entries}
    assert shown == SEEN_LAST


@pytest.mark.ffmpeg
def test_each_video_frame_shows_the_picture_of_its_moment(tmp_path, monkeypatch):
    """Video frame f shows the picture kept for the last looked-at frame up to f."""
    seen = stored(tmp_path)
    state = RunState(
        RunFolder(tmp_path), RecordOptions(tmp_path), "walkthrough", [], PROFILE, 0.0,
        EventLog(tmp_path / "events.jsonl"), movie_frames={0: 15},
    )  # fmt: skip
    shown: list[int] = []
    write_video = annotated_video.write_video

    def spy(path, images):
        def each():
            for image in images:
                under = image[: HEIGHT * ZOOM : ZOOM, ::ZOOM]  # the picture, back to 1x
                assert (under == under[0, 0]).all(), "nothing drawn over the picture"
                shown.append(int(under[0, 0, 0]))
                yield image

        return write_video(path, each())

    monkeypatch.setattr(annotated_video, "write_video", spy)
    info = render(seen, tmp_path / "annotated.mp4", state, Encoded(frames={0: 15}))
    assert info["error"] is None and info["frames"] == 15
    last = 0
    expected = []
    for f in range(15):
        last = SEEN_LAST.get(f, last)
        expected.append(last)
    assert shown == expected
    assert not (tmp_path / "frames.tmp").exists()


def test_looks_go_to_the_movie_frames_that_show_their_pictures(tmp_path):
    """The clock put every look 5 frames late; the movie's signatures put them back
    (pictures 32 levels apart: signatures keep the top three bits of a colour)."""
    seen = FramesSeen(FrameStore(tmp_path / "frames.tmp"))
    for frame, number in LOOKS:
        seen.add(Observation(picture(32 * number), VISION, at=frame / 50), 0, frame + 5)
    seen.close()
    movie = [signature(picture(32 * last_shown(f))) for f in range(20)]
    state = RunState(
        RunFolder(tmp_path), RecordOptions(tmp_path), "walkthrough", [], PROFILE, 0.0,
        EventLog(tmp_path / "events.jsonl"),
    )  # fmt: skip
    looks = place_looks(seen, state, {0: movie})
    assert -5 <= looks.pop("clock_shift")["0"] < 0, "the movie runs after the clock"
    assert looks == {"count": len(seen.entries), "found_in_movie": len(seen.entries)}
    estimates = [frame + 5 for frame in sorted(SEEN_LAST)]
    for entry, estimate in zip(seen.entries, estimates, strict=True):
        assert movie[entry.frame] == signature(seen.pixels(entry)), "a frame with its picture"
        assert estimate - 5 <= entry.frame <= estimate
    # the looks were made in frames 0, 1, 2, 4, 5, 6, 7, 9, 12; by the clock alone, moved
    # by no shift, they went to 0, 3, 3, 5, 5, 8, 8, 14, 17
    assert [e.frame for e in seen.entries] == [0, 2, 3, 5, 5, 7, 8, 10, 14]


def last_shown(frame: int) -> int:
    """The picture on screen at ``frame``: the one seen last at or before it."""
    return SEEN_LAST[max(f for f in SEEN_LAST if f <= frame)]
