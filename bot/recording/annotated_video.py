"""``annotated.mp4``: the run's video with what the bot read drawn on it.

During the run ``FramesSeen`` keeps, per emulated frame, the last frame the bot looked
at (in a ``FrameStore``) with its readings. ``render`` places each look at the movie
frame that shows its picture (``frame_match``: the clock alone runs 5-10 frames off on
a busy machine) and draws, over every frame of Fuse's movie (the pictures of
video.mp4), what the last look read: the cursor (white), the next cell of the plan
(yellow, with the following moves numbered), and a line of text with the level, time
and frame. Marks older than ``FRESH`` frames are left off (the bot was not looking: a
screen between levels). A segment without a movie (an attached Fuse) shows the looks'
own pictures instead, each until the next.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from logo_bot.bot.errors import BotError
from logo_bot.bot.frames import FPS
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import Geometry
from logo_bot.bot.recording.encode import Encoded
from logo_bot.bot.recording.frame_match import place, signature
from logo_bot.bot.recording.frame_store import FrameStore, Picture
from logo_bot.bot.recording.movie import read_frames
from logo_bot.bot.recording.recorder import readings
from logo_bot.bot.recording.run_state import RunState
from logo_bot.bot.recording.video import write_video
from logo_bot.bot.see.annotate import ZOOM

log = logging.getLogger(__name__)
BAR = 24  # pixels of text under the picture
FRESH = 25  # frames after a look that its marks are still drawn (half a second)
CURSOR, NEXT, LATER, TEXT = (255, 255, 255), (255, 255, 0), (255, 160, 0), (255, 255, 0)


@dataclass
class Seen:
    segment: int
    frame: int
    at: float
    picture: Picture
    readings: dict[str, Any]
    level: int | None
    plan: tuple[tuple[int, int], ...]


@dataclass
class FramesSeen:
    """The frames the bot looked at, at most one per emulated frame (the last look)."""

    store: FrameStore
    entries: list[Seen] = field(default_factory=list)
    _pending: tuple[Observation, int, int] | None = None
    level: int | None = None
    plan: tuple[tuple[int, int], ...] = ()

    def add(self, obs: Observation, segment: int | None, frame: int | None) -> None:
        """Remember ``obs``; the previous one is stored now, with what was read from it."""
        if self._pending is not None:
            self._store(*self._pending)
        self._pending = (obs, segment, frame) if segment is not None and frame is not None else None

    def _store(self, obs: Observation, segment: int, frame: int) -> None:
        if self.entries and (self.entries[-1].segment, self.entries[-1].frame) == (segment, frame):
            self.entries.pop()  # a later look at the same emulated frame replaces it
        picture = self.store.put(obs.frame)
        self.entries.append(
            Seen(segment, frame, obs.at, picture, readings(obs), self.level, self.plan)
        )

    def close(self) -> None:
        if self._pending is not None:
            self._store(*self._pending)
            self._pending = None
        self.store.close()

    def pixels(self, entry: Seen) -> np.ndarray:
        return self.store.get(entry.picture)


def render(seen: FramesSeen, path: Path, state: RunState, encoded: Encoded) -> dict[str, Any]:
    """Write ``path`` from ``seen`` over the movies ``encoded`` read; returns what run.json
    says about it."""
    started = time.monotonic()
    seen.close()
    info: dict[str, Any] = {"path": None, "frames": None, "error": None}
    try:
        if not seen.entries:
            info["error"] = "the bot grabbed no frames"
            return info
        movies = {
            s.number: s.movie
            for s in state.segments()
            if s.movie is not None and encoded.signatures.get(s.number)
        }
        info["looks"] = place_looks(seen, state, encoded.signatures)
        frames = segment_frames(state, seen)
        info.update(write_video(path, _images(seen, state, frames, movies)))
    except BotError as exc:
        info["error"] = exc.message
        log.warning("no annotated video: %s", exc.message)
    finally:
        seen.store.remove()
        info["seconds_to_encode"] = round(time.monotonic() - started, 3)
    return info


def place_looks(
    seen: FramesSeen, state: RunState, signatures: dict[int, list[int]]
) -> dict[str, Any]:
    """Move each look to the movie frame showing its picture (segments with a movie);
    how many looks there are, how many were found in a movie, and by how many frames
    each segment's movie ran after the clock at its last look."""
    assert state.profile is not None
    width = state.profile.geometry.window[0]
    matched, shifts = 0, {}
    for number, movie in signatures.items():
        entries = [e for e in seen.entries if e.segment == number]
        looks = []
        for entry in entries:
            pixels = seen.pixels(entry)
            looks.append((entry.frame, signature(pixels, max(1, pixels.shape[1] // width))))
        placed = place(looks, movie)
        for entry, frame in zip(entries, placed.frames, strict=True):
            entry.frame = frame
        matched += placed.matched
        shifts[str(number)] = placed.shift
    return {"count": len(seen.entries), "found_in_movie": matched, "clock_shift": shifts}


def _images(
    seen: FramesSeen, state: RunState, frames: dict[int, int], movies: dict[int, Path]
) -> Iterator[np.ndarray]:
    """One picture per video frame: the movie's frame (or, without a movie, the last
    picture the bot looked at), with the last look's readings drawn on it."""
    at = 0
    for number, count in frames.items():
        looks = sorted((e for e in seen.entries if e.segment == number), key=lambda e: e.frame)
        movie = read_frames(movies[number]) if number in movies else None
        background: np.ndarray | None = None
        pictured: Seen | None = None  # the look whose picture is the background
        drawn: tuple[np.ndarray, Seen | None, np.ndarray, str] | None = None  # to reuse
        index = 0
        for frame in range(count):
            while index < len(looks) and looks[index].frame <= frame:
                index += 1
            look = looks[index - 1] if index else None
            if movie is not None:
                background = next(movie, background)  # a movie cut short: its last frame
            elif look is not None and look is not pictured:
                background, pictured = seen.pixels(look), look
            if background is None:
                yield blank(state, "the bot has not looked at the game yet")
                continue
            marks = look if look is not None and frame - look.frame <= FRESH else None
            if drawn is None or drawn[1] is not marks or not np.array_equal(drawn[0], background):
                drawn = (background, marks, *marked_picture(background, marks, state))
            words = drawn[3] if marks is not None else "  (not looking)" if look else ""
            yield np.vstack([drawn[2], text_bar(line(at + frame, look) + words, state)])
        at += count


def segment_frames(state: RunState, seen: FramesSeen) -> dict[int, int]:
    """Frames of each segment on the annotated video's timeline, in order: its movie
    frames if known, else up to the last frame the bot grabbed in it."""
    numbers = sorted({e.segment for e in seen.entries})
    last_frame = {n: max(e.frame for e in seen.entries if e.segment == n) for n in numbers}
    return {n: state.movie_frames.get(n, last_frame[n] + 1) for n in numbers}


def blank(state: RunState, text: str) -> np.ndarray:
    """A black picture of the annotated video's size with ``text`` in its bar."""
    assert state.profile is not None
    w, h = state.profile.geometry.window
    return np.vstack([np.zeros((h * ZOOM, w * ZOOM, 3), np.uint8), text_bar(text, state)])


def marked_picture(
    pixels: np.ndarray, marks: Seen | None, state: RunState
) -> tuple[np.ndarray, str]:
    """The picture at 2x of the 1x window with ``marks``' readings drawn on it, and their
    words for the text line."""
    assert state.profile is not None
    g = state.profile.geometry
    w, h = g.window
    image = Image.fromarray(pixels).resize((w * ZOOM, h * ZOOM), Image.Resampling.NEAREST)
    words = _draw_marks(ImageDraw.Draw(image), marks, g) if marks is not None else ""
    return np.asarray(image), words


def line(frame: int, last: Seen | None) -> str:
    """The text line's start: the level last looked at, the time and the frame."""
    seconds = frame / FPS
    level = last.level if last is not None and last.level is not None else "-"
    return f"level {level}  {int(seconds // 60)}:{seconds % 60:05.2f}  frame {frame}"


def text_bar(text: str, state: RunState) -> np.ndarray:
    """The black bar under the picture with ``text`` in it."""
    assert state.profile is not None
    w = state.profile.geometry.window[0]
    image = Image.new("RGB", (w * ZOOM, BAR), (0, 0, 0))
    ImageDraw.Draw(image).text((6, 6), text, fill=TEXT)
    return np.asarray(image)


def _draw_marks(pen: ImageDraw.ImageDraw, entry: Seen, g: Geometry) -> str:
    """The cursor read and the plan's next cells, drawn; their words for the text line."""
    cell = g.board.cell * ZOOM
    marks = entry.readings
    board = marks.get("board")
    remaining = [c for c in entry.plan if board is None or not board[c]]

    def box(rc: tuple[int, int], colour: tuple[int, int, int], width: int, grow: int) -> None:
        x, y = g.board.cell_origin(*rc)
        x, y = x * ZOOM - grow, y * ZOOM - grow
        pen.rectangle((x, y, x + cell - 1 + 2 * grow, y + cell - 1 + 2 * grow), outline=colour,
                      width=width)  # fmt: skip

    for i, rc in enumerate(remaining[1:4], start=2):
        x, y = g.board.cell_origin(*rc)
        pen.text((x * ZOOM + 4, y * ZOOM + 2), str(i), fill=LATER)
    if remaining:
        box(remaining[0], NEXT, 2, 0)
    text = ""
    if "cursor" in marks:
        box(tuple(marks["cursor"]), CURSOR, 2, 3)
        text += f"  cursor {marks['cursor'][0]} {marks['cursor'][1]}"
    if remaining:
        text += f"  next {remaining[0][0]} {remaining[0][1]} ({len(remaining)} left)"
    return text
