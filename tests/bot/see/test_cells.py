"""``CellPixels.read`` gives the same pixels whatever the frame's memory layout: one plane
a channel (the grabbers' frames), the pixels one after another (a picture file's), or
neither (a view)."""

import tracemalloc

import numpy as np
import pytest

from logo_bot.bot.profile import Grid
from logo_bot.bot.see.cells import CellPixels
from logo_bot.bot.x11.grab import to_rgb

HEIGHT, WIDTH = 48, 64


def frames() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    bgrx = rng.integers(0, 256, (HEIGHT, WIDTH, 4), dtype=np.uint8)
    planar = to_rgb(24, bgrx.tobytes(), WIDTH, HEIGHT)  # as the grabbers make them
    packed = np.ascontiguousarray(planar)
    wider = np.zeros((HEIGHT, WIDTH + 8, 3), np.uint8)
    wider[:, :WIDTH] = packed
    return {"planar": planar, "packed": packed, "view": wider[:, :WIDTH]}


@pytest.mark.parametrize("layout", ["planar", "packed", "view"])
@pytest.mark.parametrize("scale", [1, 2])
def test_every_layout_reads_the_same_pixels(layout, scale):
    grid = Grid(origin=(2, 3), cell=8 // scale, rows=5, cols=6)
    cells = CellPixels.of(grid, [(0, 0), (3, 1), (1, 2)], scale)
    frame = frames()[layout]
    expected = np.array(
        [[frame[r, c] for r, c in zip(rows, cols, strict=True)]
         for rows, cols in zip(cells.rows, cells.cols, strict=True)]
    )  # fmt: skip
    assert frame.flags.c_contiguous == (layout == "packed")
    np.testing.assert_array_equal(cells.read(frame), expected)
    np.testing.assert_array_equal(cells.read(frame), expected)  # the indices kept


@pytest.mark.parametrize("layout", ["planar", "packed"])
def test_a_read_copies_only_its_pixels_not_the_frame(layout):
    """A look reads a few hundred pixels of a 230 KB frame, several times: a copy of the
    whole frame at each read cost ten times the read (found in play)."""
    frame = frames()[layout]
    cells = CellPixels.of(Grid(origin=(2, 3), cell=8, rows=5, cols=6), [(0, 0), (3, 1)], 1)
    cells.read(frame)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        cells.read(frame)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < frame.nbytes // 4, f"{peak} bytes taken to read 60 pixels"
