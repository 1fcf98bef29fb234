"""``annotated.mp4``: the frames the bot grabbed, with what it read drawn on them.

During the run ``FramesSeen`` keeps, per emulated frame, the last frame the bot looked
at (in a ``FrameStore``) with its readings. ``render`` then lays them on the run's
timeline at 50.08 frames per second, repeating a frame until the bot saw the next one,
and draws the cursor it read (white), the next cell of the plan (yellow, with the
following moves numbered) and a line of text with the level, time and frame.
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

from bot.errors import BotError
from bot.frames import FPS
from bot.play.env import Observation
from bot.recording.frame_store import FrameStore, Picture
from bot.recording.recorder import readings
from bot.recording.run_state import RunState
from bot.recording.video import write_video
from bot.see.annotate import ZOOM

log = logging.getLogger(__name__)
BAR = 24  # pixels of text under the picture
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
    _pending: tuple[Observation, int | None, int | None] | None = None
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


def render(seen: FramesSeen, path: Path, state: RunState, total: int | None) -> dict[str, Any]:
    """Write ``path`` from ``seen``; returns what run.json says about it."""
    started = time.monotonic()
    seen.close()
    info: dict[str, Any] = {"path": None, "frames": None, "error": None}
    try:
        if not seen.entries:
            info["error"] = "the bot grabbed no frames"
            return info
        offsets = _segment_offsets(state, seen)
        timeline = [(offsets[e.segment] + e.frame, e) for e in seen.entries]
        timeline.sort(key=lambda item: item[0])
        end = total or timeline[-1][0] + 1
        info.update(write_video(path, _images(seen, state, timeline, end)))
    except BotError as exc:
        info["error"] = exc.message
        log.warning("no annotated video: %s", exc.message)
    finally:
        seen.store.remove()
        info["seconds_to_encode"] = round(time.monotonic() - started, 3)
    return info


def _images(
    seen: FramesSeen, state: RunState, timeline: list[tuple[int, Seen]], end: int
) -> Iterator[np.ndarray]:
    """One picture per video frame: the last one the bot looked at by then, drawn on."""
    image: np.ndarray | None = None
    shown: Seen | None = None
    index = 0
    for frame in range(end):
        while index < len(timeline) and timeline[index][0] <= frame:
            index += 1
        entry = timeline[index - 1][1] if index else None
        if entry is None and image is None:
            image = blank(state, "the bot has not looked at the game yet")
        elif entry is not None and entry is not shown:
            shown = entry
            image = draw(seen.pixels(entry), entry, state, frame)
        yield image


def _segment_offsets(state: RunState, seen: FramesSeen) -> dict[int, int]:
    """Where each segment starts on the video's timeline."""
    offsets: dict[int, int] = {}
    at = 0
    for number, frames in segment_frames(state, seen).items():
        offsets[number] = at
        at += frames
    return offsets


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
    image = Image.new("RGB", (w * ZOOM, h * ZOOM + BAR), (0, 0, 0))
    ImageDraw.Draw(image).text((6, h * ZOOM + 6), text, fill=TEXT)
    return np.asarray(image)


def draw(pixels: np.ndarray, entry: Seen, state: RunState, frame: int) -> np.ndarray:
    """The grabbed frame at 2x of the 1x window, the bot's readings drawn on it."""
    profile = state.profile
    assert profile is not None
    g = profile.geometry
    w, h = g.window
    picture = Image.fromarray(pixels).resize((w * ZOOM, h * ZOOM), Image.NEAREST)
    image = Image.new("RGB", (w * ZOOM, h * ZOOM + BAR), (0, 0, 0))
    image.paste(picture, (0, 0))
    pen = ImageDraw.Draw(image)
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
    if "cursor" in marks:
        box(tuple(marks["cursor"]), CURSOR, 2, 3)
    seconds = frame / FPS
    text = (
        f"level {entry.level if entry.level is not None else '-'}  "
        f"{int(seconds // 60)}:{seconds % 60:05.2f}  frame {frame}"
    )
    if "cursor" in marks:
        text += f"  cursor {marks['cursor'][0]} {marks['cursor'][1]}"
    if remaining:
        text += f"  next {remaining[0][0]} {remaining[0][1]} ({len(remaining)} left)"
    pen.text((6, h * ZOOM + 6), text, fill=TEXT)
    return np.asarray(image)
