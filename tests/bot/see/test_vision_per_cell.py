"""The vectorized readers of ``Vision`` against the plain per-cell reference
(tests/bot/see/per_cell.py): the same boards, cursor cells and target on many synthetic
frames, and the same ``Unreadable`` (reason and cell) on frames spoilt to fail each way."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board
from tests.bot import fake_frames
from tests.bot.see import per_cell

PROFILE = load_profile("practice")
FIXTURES = Path(__file__).resolve().parent / "fixtures"
READERS = ("preview", "board", "cursor_candidates", "cursor")
NOT_SPECTRUM = [(10, 200, 90), (61, 0, 0), (100, 100, 100), (255, 128, 0)]
# Exactly max_distance (60) from black; halfway between blue and bright blue (the first wins).
EDGES = [(60, 0, 0), (36, 48, 0), (0, 0, 220), (220, 0, 0), (248, 222, 0)]
COLOURS = NOT_SPECTRUM + EDGES + [tuple(v) for v in PROFILE.palette.colours.values()]


def outcome(read, frame: np.ndarray):
    """What a reader gives: its reading, or the reason and cell of its ``Unreadable``."""
    try:
        return "read", read(frame)
    except Unreadable as exc:
        return "unreadable", exc.reason, exc.cell


def outcomes(vision: Vision, frame: np.ndarray, readers=READERS) -> dict:
    """Each reader's outcome, after checking that the reference's is the same."""
    seen = {}
    for name in readers:
        got = outcome(getattr(vision, name), frame)
        want = outcome(lambda f, name=name: getattr(per_cell, name)(vision, f), frame)
        assert got == want, name
        seen[name] = got
    return seen


def random_board(rng: random.Random) -> Board:
    stones = rng.choice([0.0, 0.2, 0.5, 1.0])
    return Board(6, 10, tuple(rng.randint(1, 4) if rng.random() < stones else 0 for _ in range(60)))


def random_frame(rng: random.Random, scale: int) -> np.ndarray:
    cursor = (rng.randint(1, 6), rng.randint(1, 10))
    return fake_frames.draw(
        random_board(rng) if rng.random() < 0.9 else None,
        random_board(rng),
        cursor=cursor if rng.random() < 0.9 else None,
        flash=rng.random() < 0.5,
        scale=scale,
    )


def paint(frame: np.ndarray, scale: int, x: int, y: int, colour) -> None:
    """The 1x pixel (x, y) of a ``scale`` frame in ``colour``."""
    frame[y * scale : (y + 1) * scale, x * scale : (x + 1) * scale] = colour


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_same_readings_on_random_frames(scale):
    rng = random.Random(scale)
    vision = Vision(PROFILE, scale)
    kinds = set()
    for _ in range(40):
        seen = outcomes(vision, random_frame(rng, scale))
        kinds.update((name, result[0]) for name, result in seen.items())
    # the frames read whole and, without a cursor, fail the cursor rule
    assert ("board", "read") in kinds and ("preview", "read") in kinds
    assert ("cursor", "read") in kinds and ("cursor", "unreadable") in kinds


def test_same_readings_on_the_captured_fuse_frames():
    for path in sorted(FIXTURES.glob("*.png")):
        frame = np.asarray(Image.open(path).convert("RGB"))
        outcomes(Vision.for_frame(PROFILE, frame), frame)


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_same_errors_with_foreign_colours_at_the_board_probes(scale):
    """Colours painted at random probes of random cells: the first cell in row-major order
    whose probes, in order, meet no Spectrum colour before a value colour fails, and only
    that one."""
    rng = random.Random(10 + scale)
    vision = Vision(PROFILE, scale)
    board = PROFILE.geometry.board
    reasons = set()
    for _ in range(60):
        frame = random_frame(rng, scale)
        for _ in range(rng.randint(1, 4)):
            x, y = board.cell_origin(rng.randint(1, board.rows), rng.randint(1, board.cols))
            dx, dy = rng.choice(PROFILE.geometry.board_probes)
            paint(frame, scale, x + dx, y + dy, rng.choice(COLOURS))
        reasons.add(outcomes(vision, frame, ["board"])["board"][0])
    assert reasons == {"read", "unreadable"}


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_same_errors_with_foreign_colours_in_the_preview(scale):
    rng = random.Random(20 + scale)
    vision = Vision(PROFILE, scale)
    g = PROFILE.geometry
    reasons = set()
    for _ in range(60):
        frame = random_frame(rng, scale)
        for _ in range(rng.randint(1, 4)):
            x, y = g.preview.cell_origin(rng.randint(1, 6), rng.randint(1, 10))
            dx, dy = rng.choice([g.preview_stone, g.preview_background])
            paint(frame, scale, x + dx, y + dy, rng.choice(COLOURS))
        reasons.add(outcomes(vision, frame, ["preview"])["preview"][0])
    assert reasons == {"read", "unreadable"}


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_same_errors_with_no_one_two_or_many_cursor_cells(scale):
    """Cursor cells copied from other frames (0 to 6 of them) and random pixels of the
    cursor rule repainted."""
    rng = random.Random(30 + scale)
    vision = Vision(PROFILE, scale)
    g = PROFILE.geometry
    counts = set()
    for _ in range(40):
        target, board, flash = random_board(rng), random_board(rng), rng.random() < 0.5
        frame = fake_frames.draw(target, board, cursor=None, flash=flash, scale=scale)
        for _ in range(rng.choice([0, 1, 2, 2, 3, 6])):
            cell = (rng.randint(1, 6), rng.randint(1, 10))
            other = fake_frames.draw(target, board, cursor=cell, flash=flash, scale=scale)
            x, y = g.board.cell_origin(*cell)
            rows = slice(y * scale, (y + g.board.cell) * scale)
            cols = slice(x * scale, (x + g.board.cell) * scale)
            frame[rows, cols] = other[rows, cols]
        if rng.random() < 0.3:
            x, y = g.board.cell_origin(rng.randint(1, 6), rng.randint(1, 10))
            dx, dy = rng.choice(g.cursor_columns), rng.choice(g.cursor_rows)
            paint(frame, scale, x + dx, y + dy, rng.choice(COLOURS))
        seen = outcomes(vision, frame, ["cursor_candidates", "cursor"])
        counts.add(len(seen["cursor_candidates"][1]))
    assert {0, 1, 2} <= counts and max(counts) > 4


PROBES = [((0, 0), (8, 8)), ((8, 8), (0, 0), (3, 12)), ((8, 8),), ()]


def with_probes(probes) -> tuple[Vision, list[np.ndarray]]:
    """A 2x vision of the profile with board probes ``probes``, and 30 random frames with
    up to 3 board pixels painted in colours of every kind."""
    profile = replace(PROFILE, geometry=replace(PROFILE.geometry, board_probes=probes))
    rng = random.Random(len(probes))
    frames = []
    for _ in range(30):
        frame = random_frame(rng, 2)
        for _ in range(rng.randint(0, 3)):
            x, y = profile.geometry.board.cell_origin(rng.randint(1, 6), rng.randint(1, 10))
            paint(frame, 2, x + rng.randrange(16), y + rng.randrange(16), rng.choice(COLOURS))
        frames.append(frame)
    return Vision(profile, 2), frames


@pytest.mark.parametrize("probes", PROBES, ids=str)
def test_same_readings_with_other_board_probes(probes):
    """The order of the profile's probes decides, whatever it is (none: all empty)."""
    vision, frames = with_probes(probes)
    for frame in frames:
        outcomes(vision, frame)


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, float])
def test_colours_classify_as_the_per_pixel_rule(dtype):
    """Frames' 8-bit pixels take a table's squares, other arrays the plain distance."""
    vision = Vision(PROFILE)
    rng = np.random.default_rng(5)
    pixels = np.concatenate([np.array(COLOURS), rng.integers(0, 256, (500, 3))]).astype(dtype)
    want = [per_cell.Palette(vision).name(p) for p in pixels]
    assert vision.colours.classify(pixels) == want
    assert vision.colours.classify(pixels.reshape(-1, 2, 1, 3)) == want
    assert [vision.colours.name(p) for p in pixels[:20]] == want[:20]
    assert vision.colours.classify(np.array(EDGES, dtype)) == [
        "black", "black", "blue", "red", "bright_yellow"
    ]  # fmt: skip


def test_colours_of_a_palette_off_the_integers_classify_as_the_per_pixel_rule():
    colours = {n: tuple(v + 0.37 * k for v in rgb) for k, (n, rgb) in enumerate(
        PROFILE.palette.colours.items())}  # fmt: skip
    palette = replace(PROFILE.palette, colours=colours, max_distance=59.93)
    vision = Vision(replace(PROFILE, palette=palette))
    pixels = np.random.default_rng(6).integers(0, 256, (2000, 3), dtype=np.uint8)
    want = [per_cell.Palette(vision).name(p) for p in pixels]
    assert vision.colours.classify(pixels) == want
    assert None in want and len(set(want)) > 8


@pytest.mark.parametrize("twin_first", [False, True])
def test_pixels_all_of_the_palette_are_named_as_the_per_pixel_rule(twin_first):
    """The usual frame, every pixel a palette colour, is read by number, not distance;
    of two equal colours the first is named, as by distance."""
    colours = dict(PROFILE.palette.colours)
    twin = {"black_too": colours["black"], "white_too": colours["bright_white"]}
    colours = twin | colours if twin_first else colours | twin
    vision = Vision(replace(PROFILE, palette=replace(PROFILE.palette, colours=colours)))
    rng = np.random.default_rng(7)
    pixels = np.array(list(colours.values()), np.uint8)[rng.integers(0, len(colours), 400)]
    want = [per_cell.Palette(vision).name(p) for p in pixels]
    assert vision.colours.classify(pixels) == want
    assert ("black_too" in want) is twin_first and ("black" in want) is not twin_first
