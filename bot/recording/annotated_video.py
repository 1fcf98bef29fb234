"""``annotated.mp4``: the frames the bot grabbed, with what it read drawn on them.

During the run ``FrameStore`` keeps, per emulated frame, the last frame the bot looked
at (zlib-compressed in a temporary file) with its readings. ``render`` then lays them on
the run's timeline at 50.08 frames per second, repeating a frame until the bot saw the
next one, and draws the cursor it read (white), the next cell of the plan (yellow, with
the following moves numbered) and a line of text with the level, time and frame.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bot.errors import BotError
from bot.frames import FPS
from bot.play.env import Observation
from bot.recording.recorder import readings
from bot.recording.run_state import RunState
from bot.recording.video import write_video
from bot.see.annotate import ZOOM

log = logging.getLogger(__name__)
BAR = 24  # pixels of text under the picture
CURSOR, NEXT, LATER, TEXT = (255, 255, 255), (255, 255, 0), (255, 160, 0), (255, 255, 0)


@dataclass
class Stored:
    segment: int
    frame: int
    at: float
    offset: int
    length: int
    shape: tuple[int, ...]
    readings: dict[str, Any]
    level: int | None
    plan: tuple[tuple[int, int], ...]


@dataclass
class FrameStore:
    """Grabbed frames on disk, at most one per emulated frame."""

    path: Path
    entries: list[Stored] = field(default_factory=list)
    _pending: tuple[Observation, int | None, int | None] | None = None
    _last: np.ndarray | None = None
    level: int | None = None
    plan: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        self._file = open(self.path, "wb")  # noqa: SIM115
        self._size = 0

    def add(self, obs: Observation, segment: int | None, frame: int | None) -> None:
        """Remember ``obs``; the previous one is stored now, with what was read from it."""
        if self._pending is not None:
            self._store(*self._pending)
        self._pending = (obs, segment, frame) if segment is not None and frame is not None else None

    def _store(self, obs: Observation, segment: int, frame: int) -> None:
        if self.entries and (self.entries[-1].segment, self.entries[-1].frame) == (segment, frame):
            self.entries.pop()  # a later look at the same emulated frame replaces it
        pixels = obs.frame
        if self._last is not None and np.array_equal(pixels, self._last) and self.entries:
            offset, length = self.entries[-1].offset, self.entries[-1].length
        else:
            data = zlib.compress(np.ascontiguousarray(pixels).tobytes(), 1)
            self._file.write(data)
            offset, length = self._size, len(data)
            self._size += length
            self._last = pixels
        self.entries.append(
            Stored(segment, frame, obs.at, offset, length, pixels.shape, readings(obs),
                   self.level, self.plan)
        )  # fmt: skip

    def close(self) -> None:
        if self._pending is not None:
            self._store(*self._pending)
            self._pending = None
        self._file.close()

    def pixels(self, entry: Stored) -> np.ndarray:
        with open(self.path, "rb") as f:
            f.seek(entry.offset)
            data = zlib.decompress(f.read(entry.length))
        return np.frombuffer(data, dtype=np.uint8).reshape(entry.shape)


def render(store: FrameStore, path: Path, state: RunState, total: int | None) -> dict[str, Any]:
    """Write ``path`` from ``store``; returns what run.json says about it."""
    started = time.monotonic()
    store.close()
    info: dict[str, Any] = {"path": None, "frames": None, "error": None}
    try:
        if not store.entries:
            info["error"] = "the bot grabbed no frames"
            return info
        offsets = _segment_offsets(state, store)
        timeline = [(offsets[e.segment] + e.frame, e) for e in store.entries]
        timeline.sort(key=lambda item: item[0])
        end = total or timeline[-1][0] + 1
        info.update(write_video(path, _images(store, state, timeline, end)))
    except BotError as exc:
        info["error"] = exc.message
        log.warning("no annotated video: %s", exc.message)
    finally:
        store.path.unlink(missing_ok=True)
        info["seconds_to_encode"] = round(time.monotonic() - started, 3)
    return info


def _images(
    store: FrameStore, state: RunState, timeline: list[tuple[int, Stored]], end: int
) -> Iterator[np.ndarray]:
    """One picture per video frame: the last one the bot looked at by then, drawn on."""
    image: np.ndarray | None = None
    shown: Stored | None = None
    index = 0
    for frame in range(end):
        while index < len(timeline) and timeline[index][0] <= frame:
            index += 1
        entry = timeline[index - 1][1] if index else None
        if entry is None and image is None:
            image = blank(state, "the bot has not looked at the game yet")
        elif entry is not None and entry is not shown:
            shown = entry
            image = draw(store.pixels(entry), entry, state, frame)
        yield image


def _segment_offsets(state: RunState, store: FrameStore) -> dict[int, int]:
    """Where each segment starts on the video's timeline."""
    offsets: dict[int, int] = {}
    at = 0
    for number, frames in segment_frames(state, store).items():
        offsets[number] = at
        at += frames
    return offsets


def segment_frames(state: RunState, store: FrameStore) -> dict[int, int]:
    """Frames of each segment on the annotated video's timeline, in order: its movie
    frames if known, else up to the last frame the bot grabbed in it."""
    numbers = sorted({e.segment for e in store.entries})
    last_frame = {n: max(e.frame for e in store.entries if e.segment == n) for n in numbers}
    return {n: state.movie_frames.get(n, last_frame[n] + 1) for n in numbers}


def blank(state: RunState, text: str) -> np.ndarray:
    """A black picture of the annotated video's size with ``text`` in its bar."""
    assert state.profile is not None
    w, h = state.profile.geometry.window
    image = Image.new("RGB", (w * ZOOM, h * ZOOM + BAR), (0, 0, 0))
    ImageDraw.Draw(image).text((6, h * ZOOM + 6), text, fill=TEXT)
    return np.asarray(image)


def draw(pixels: np.ndarray, entry: Stored, state: RunState, frame: int) -> np.ndarray:
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
