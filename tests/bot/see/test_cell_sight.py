"""The cell sight reads as ``Vision`` reads, from packed pixels, and again only where told."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.cell_sight import CellReading, CellSight
from logo_bot.bot.see.vision import Vision
from tests.bot import fake_frames
from tests.bot.see.test_vision_per_cell import (
    COLOURS,
    PROBES,
    paint,
    random_board,
    random_frame,
    with_probes,
)

PROFILE = load_profile("practice")


@dataclass
class Screen:
    """A screen of packed pixels (a junk high byte, as Xvfb's may be) holding a picture."""

    left: int
    top: int
    stride: int
    data: np.ndarray  # (rows, stride) uint32
    areas: tuple[tuple[int, int, int, int], ...] | None = None
    high: int = 0x77  # the byte above each colour drawn

    @classmethod
    def around(
        cls, frame: np.ndarray, left: int = 3, top: int = 5, more: int = 7, high: int = 0x77
    ) -> Screen:
        height, width = frame.shape[:2]
        data = np.full((top + height + 2, left + width + more), 0x5A123456, dtype=np.uint32)
        screen = cls(left, top, left + width + more, data, high=high)
        screen.show(frame)
        return screen

    def show(self, frame: np.ndarray, area: tuple[int, int, int, int] | None = None) -> None:
        """Draw ``frame`` (all of it, or only ``area``) without reporting it."""
        height, width = frame.shape[:2]
        x, y, w, h = area or (0, 0, width, height)
        rgb = frame[y : y + h, x : x + w].astype(np.uint32)
        packed = np.uint32(self.high << 24) | rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2]
        self.data[self.top + y : self.top + y + h, self.left + x : self.left + x + w] = packed

    @property
    def pixels(self) -> memoryview:
        return memoryview(self.data.reshape(-1))

    @property
    def width(self) -> int:
        return self.stride

    @property
    def height(self) -> int:
        return len(self.data)

    def picture(self) -> np.ndarray:
        """The picture as an RGB frame, as ``Vision`` reads it."""
        data = self.data[self.top :, self.left :]
        return np.stack([data >> 16 & 0xFF, data >> 8 & 0xFF, data & 0xFF], axis=-1).astype(
            np.uint8
        )


def outcome(read):
    try:
        return "read", read()
    except Unreadable as exc:
        return "unreadable", exc.reason, exc.cell


def agrees(vision: Vision, reading: CellReading, frame: np.ndarray) -> None:
    """The reading says what ``Vision`` reads in ``frame``, errors and all."""
    assert outcome(reading.cursor) == outcome(lambda: vision.cursor(frame))
    assert outcome(reading.board) == outcome(lambda: vision.board(frame))
    assert reading.level_shown == vision.level_shown(frame)


def crop(screen: Screen, vision: Vision) -> np.ndarray:
    w, h = PROFILE.geometry.window
    return screen.picture()[: h * vision.scale, : w * vision.scale]


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_whole_read_says_what_vision_reads(scale):
    rng = random.Random(scale)
    vision = Vision(PROFILE, scale)
    kinds = set()
    for _ in range(30):
        frame = random_frame(rng, scale)
        reading = CellSight(vision).update(Screen.around(frame))
        agrees(vision, reading, frame)
        kinds.add((outcome(reading.cursor)[0], reading.level_shown))
    assert {("read", True), ("unreadable", True)} <= kinds


def random_area(rng: random.Random, width: int, height: int) -> tuple[int, int, int, int]:
    """Mostly small areas (a cell, a few pixels), some across many cells."""
    w = rng.choice([1, 2, 5, 16, 40, 200])
    h = rng.choice([1, 3, 16, 30, 100])
    return rng.randrange(width), rng.randrange(height), w, h


@pytest.mark.parametrize("scale", [1, 2])
def test_areas_reported_are_read_again_and_the_reading_stays_true(scale):
    """Parts of other frames drawn over the picture, each part reported: after each
    update the reading is what ``Vision`` reads in the whole picture."""
    rng = random.Random(40 + scale)
    vision = Vision(PROFILE, scale)
    screen = Screen.around(random_frame(rng, scale))
    sight = CellSight(vision)
    sight.update(screen)
    height, width = crop(screen, vision).shape[:2]
    for _ in range(150):
        other = random_frame(rng, scale)
        areas = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            x, y, w, h = random_area(rng, width, height)
            w, h = min(w, width - x), min(h, height - y)
            if rng.random() < 0.3:  # a colour that is no Spectrum colour
                other = other.copy()
                other[y : y + h, x : x + w] = rng.choice(COLOURS)
            screen.show(other, (x, y, w, h))
            areas.append((x, y, w, h))
        screen.areas = tuple(areas)
        agrees(vision, sight.update(screen), crop(screen, vision))


def test_a_drawing_not_reported_is_not_read_and_one_reported_is():
    """The sight reads only the cells of the areas it is told of."""
    vision = Vision(PROFILE, 1)
    target = random_board(random.Random(7))
    before = fake_frames.draw(target, None, cursor=(2, 3))
    after = fake_frames.draw(target, None, cursor=(2, 4))
    screen = Screen.around(before)
    sight = CellSight(vision)
    assert sight.update(screen).cursor() == (2, 3)
    assert sight.cells_read == 60
    x, y = PROFILE.geometry.board.cell_origin(2, 4)
    cell = (x, y, 16, 16)
    screen.show(after, cell)  # the new cursor, unreported
    screen.areas = ()
    assert sight.update(screen).cursor() == (2, 3)
    assert sight.cells_read == 60
    screen.areas = (cell,)  # reported: that cell now passes too
    with pytest.raises(Unreadable, match="2 3, 2 4"):
        sight.update(screen).cursor()
    assert sight.cells_read == 61
    old = PROFILE.geometry.board.cell_origin(2, 3)
    screen.show(after, (*old, 16, 16))
    screen.areas = ((*old, 1, 1),)  # one pixel of the old cell's rule is enough
    assert sight.update(screen).cursor() == (2, 4)
    assert sight.cells_read == 62


def test_a_picture_that_moved_is_read_whole():
    vision = Vision(PROFILE, 1)
    target = random_board(random.Random(8))
    sight = CellSight(vision)
    sight.update(Screen.around(fake_frames.draw(target, None, cursor=(1, 1))))
    moved = Screen.around(fake_frames.draw(target, None, cursor=(6, 10)), left=9)
    moved.areas = ()  # nothing reported, but it is not where it was
    assert sight.update(moved).cursor() == (6, 10)
    assert sight.cells_read == 120


@pytest.mark.parametrize("probes", PROBES, ids=str)
def test_the_profiles_probes_decide_as_in_vision(probes):
    vision, frames = with_probes(probes)
    for frame in frames:
        agrees(vision, CellSight(vision).update(Screen.around(frame)), frame)


@pytest.mark.parametrize("scale", [1, 2])
def test_foreign_colours_at_the_probes_fail_as_in_vision(scale):
    """A colour that is no Spectrum colour at one probe of a cell: the first probe, in
    the profile's order, that shows an unknown or a value colour decides, as in Vision."""
    rng = random.Random(50 + scale)
    vision = Vision(PROFILE, scale)
    board = PROFILE.geometry.board
    reasons = set()
    for _ in range(60):
        frame = random_frame(rng, scale)
        screen = Screen.around(frame)
        sight = CellSight(vision)
        sight.update(screen)
        areas = []
        for _ in range(rng.randint(1, 3)):
            x, y = board.cell_origin(rng.randint(1, board.rows), rng.randint(1, board.cols))
            dx, dy = rng.choice(PROFILE.geometry.board_probes)
            paint(frame, scale, x + dx, y + dy, rng.choice(COLOURS))
            areas.append(((x + dx) * scale, (y + dy) * scale, scale, scale))
            screen.show(frame, areas[-1])
        screen.areas = tuple(areas)
        reading = sight.update(screen)
        agrees(vision, reading, frame)
        reasons.add(outcome(reading.board)[0])
    assert reasons == {"read", "unreadable"}


@pytest.mark.parametrize("scale", [1, 3])
@pytest.mark.parametrize("corner", ["first", "last"])
def test_one_pixel_drawn_at_the_edge_of_the_level_marker_is_read(scale, corner):
    vision = Vision(PROFILE, scale)
    shown = fake_frames.draw(random_board(random.Random(9)), None, scale=scale)
    screen = Screen.around(shown)
    sight = CellSight(vision)
    assert sight.update(screen).level_shown
    x, y = PROFILE.geometry.preview.cell_origin(*PROFILE.geometry.level_marker)
    size = PROFILE.geometry.preview.cell * scale
    block = (x * scale, y * scale, size, size)
    uniform = shown.copy()
    uniform[block[1] : block[1] + size, block[0] : block[0] + size] = 0
    screen.show(uniform, block)
    edge = block[:2] if corner == "first" else (block[0] + size - 1, block[1] + size - 1)
    screen.areas = ((*edge, 1, 1),)
    assert not sight.update(screen).level_shown


@pytest.mark.parametrize("high", ["none", "each its own"])
def test_the_bits_above_a_colour_do_not_count(high):
    """Pixels with no bits above their colour, or with different ones, read as their
    colours alone."""
    rng = random.Random(11)
    vision = Vision(PROFILE, 2)
    for _ in range(20):
        frame = random_frame(rng, 2)
        screen = Screen.around(frame)
        colours = screen.data & 0xFFFFFF
        if high == "none":
            screen.data = colours
        else:
            junk = np.random.default_rng(rng.randrange(1000)).integers(0, 256, screen.data.shape)
            screen.data = colours | (junk.astype(np.uint32) << 24)
        agrees(vision, CellSight(vision).update(screen), frame)
