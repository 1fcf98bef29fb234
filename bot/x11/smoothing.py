"""Fuse's own pixels in a picture that a HiDPI desktop's toolkit drew larger and smoothly.

Under ``GDK_SCALE=2`` (GNOME's or KDE's "200 %"), fuse-gtk draws its picture at its own
scale and GTK paints it twice as large with bilinear filtering. Measured on fuse-gtk 1.6:
each of Fuse's pixels becomes 2x2 window pixels, each window pixel 9/16 of its own
pixel, 3/16 of each of the two next to it on its side and 1/16 of the one on its corner,
the sum truncated. GTK repaints only where Fuse drew, so the part a neighbour adds may
be the neighbour as it was at that time: every window pixel is its own pixel's colour
blended with some Spectrum colours, not always the ones shown now.

So a pixel is read from its own four window pixels only: on each channel, the levels
Fuse draws (``LEVELS``) that every one of them could show, whatever its neighbours were.
Where more than one level could, the one whose blend with the neighbours read so far
comes nearest to the four is taken. Where Fuse itself draws at 2x or 3x, and at
``GDK_SCALE=3``, some window pixel of each of Fuse's pixels blends only with its own
colour: it is read as it is.
"""

from __future__ import annotations

import itertools

import numpy as np

LEVELS = np.array([0, 192, 255])  # a channel of Fuse's colours at 24 bits: off, on, BRIGHT
FACTORS = (2, 3)  # GTK's whole HiDPI scales (GDK_SCALE) a person may set
WEIGHTS = (9, 3, 3, 1)  # at 2x: own, side, side, corner, in 16ths of a window pixel


def smoothed(picture: np.ndarray, factor: int) -> np.ndarray:
    """``picture`` (RGB) painted ``factor`` times as large with bilinear filtering, its
    edges padded, truncated to whole numbers: as GTK paints a HiDPI window in one go."""
    out = picture.astype(np.float64)
    for axis in (0, 1):
        n = out.shape[axis]
        at = (np.arange(n * factor) + 0.5) / factor - 0.5
        low = np.floor(at)
        weight = (at - low).reshape([-1 if a == axis else 1 for a in range(out.ndim)])
        first = np.clip(low, 0, n - 1).astype(np.intp)
        second = np.clip(low + 1, 0, n - 1).astype(np.intp)
        out = (1 - weight) * out.take(first, axis) + weight * out.take(second, axis)
    return np.floor(out + 1e-6).astype(np.uint8)


def _could_show() -> np.ndarray:
    """Per window value (0-255) at 2x: bit ``i`` set where a pixel at level ``i`` can show
    it, blended with neighbours at any levels."""
    table = np.zeros(256, np.uint8)
    own, side, _, corner = WEIGHTS
    for i, level in enumerate(LEVELS.tolist()):
        for a, b, c in itertools.product(LEVELS.tolist(), repeat=3):
            table[(own * level + side * (a + b) + corner * c) // 16] |= 1 << i
    return table


COULD_SHOW = _could_show()
_SETS = range(1 << len(LEVELS))  # sets of levels, as bits (as in COULD_SHOW)
# per set: the brightest level in it (-1 for none), and whether it holds more than one
BRIGHTEST = np.array(
    [max((i for i in range(len(LEVELS)) if b >> i & 1), default=-1) for b in _SETS]
)
SEVERAL = np.array([bin(b).count("1") > 1 for b in _SETS])
LEVELS_8 = LEVELS.astype(np.uint8)


def _blends(around: np.ndarray, where: tuple[np.ndarray, ...], level: int) -> np.ndarray:
    """The four window values (K, 2, 2) a pixel at ``level`` shows at each place ``where``
    (rows, columns, channels) when its neighbours are as ``around`` reads them (the
    picture read so far, its edges repeated once all round)."""
    rows, cols, chans = where
    own, side, _, corner = WEIGHTS
    out = np.empty((len(rows), 2, 2), np.int32)
    for dy, dx in itertools.product((0, 1), repeat=2):
        y, x = rows + 2 * dy, cols + 2 * dx  # the neighbours on this corner's side
        vertical = around[y, cols + 1, chans].astype(np.int32)
        horizontal = around[rows + 1, x, chans].astype(np.int32)
        diagonal = around[y, x, chans].astype(np.int32)
        out[:, dy, dx] = (own * level + side * (vertical + horizontal) + corner * diagonal) // 16
    return out


def _unblended(picture: np.ndarray, strict: bool) -> np.ndarray | None:
    """Fuse's pixels in a picture GTK painted twice as large (see the module)."""
    height, width = picture.shape[0] // 2, picture.shape[1] // 2
    fours = picture[: height * 2, : width * 2].reshape(height, 2, width, 2, 3)
    could = COULD_SHOW.take(fours).reshape(height, 2, width, 6)  # a lookup in one pass
    rows = could[:, 0] & could[:, 1]  # (then the window pixels side by side: 2 x 3)
    both = rows[:, :, :3] & rows[:, :, 3:]
    if strict and not both.all():
        return None
    # the brightest level each could be (none: the nearest to its own window values)
    index = BRIGHTEST.take(both)
    lost = index < 0
    if lost.any():
        mean = fours.mean(axis=(1, 3))[lost]
        index[lost] = np.abs(mean[:, None] - LEVELS[None, :]).argmin(axis=1)
    first = LEVELS.take(index)
    doubtful = np.nonzero(SEVERAL.take(both))  # more than one level could show them
    if len(doubtful[0]):
        seen = fours.transpose(0, 2, 4, 1, 3)[doubtful].astype(np.int32)  # (K, 2, 2)
        misses = []
        around = np.pad(first, ((1, 1), (1, 1), (0, 0)), mode="edge")
        for i, level in enumerate(LEVELS.tolist()):
            miss = np.abs(_blends(around, doubtful, level) - seen).sum(axis=(1, 2))
            misses.append(np.where((both[doubtful] >> i) & 1 == 1, miss, np.iinfo(np.int32).max))
        index[doubtful] = np.argmin(misses, axis=0)
    return LEVELS_8.take(index)


def _unblended_at(size: int, factor: int, scale: int) -> np.ndarray:
    """Along one axis of ``size`` window pixels: for each of Fuse's pixels (``scale`` a
    Spectrum pixel), a window pixel that is its colour unblended. At an odd ``factor``,
    its middle one; at an even one, the one on the side of its Spectrum pixel's inside
    (blended only with a pixel of the same colour), which only a scale above 1 has."""
    own = np.arange(size // factor)
    if factor % 2:
        return own * factor + factor // 2
    last = own % scale == scale - 1  # the last of its Spectrum pixel: blended inward
    return own * factor + np.where(last, factor // 2 - 1, factor // 2)


def unsmoothed(
    picture: np.ndarray, factor: int, scale: int = 1, strict: bool = False
) -> np.ndarray | None:
    """Fuse's own picture (RGB, at Fuse's ``scale``, ``factor`` times smaller) in a
    ``picture`` GTK painted ``factor`` times as large. ``strict``: None where a window
    pixel is no blend of Fuse's colours (the picture is not such a one); otherwise the
    nearest is taken."""
    if factor == 2 and scale == 1:
        return _unblended(picture, strict)
    rows = _unblended_at(picture.shape[0], factor, scale)
    cols = _unblended_at(picture.shape[1], factor, scale)
    own = picture[rows[:, None], cols[None, :]]
    if strict and not np.isin(own, LEVELS).all():
        return None
    return own
