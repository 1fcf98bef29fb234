"""Where the Spectrum picture lies inside a Fuse window, found by what the window shows.

Fuse's picture is 320x240 pixels at 1x (the 256x192 screen inside a border 32 pixels
wide and 24 tall), drawn at a whole scale: every Spectrum pixel a uniform square block.
fuse-sdl's window is the picture; fuse-gtk draws a menu bar above it and a status bar
below it, both as tall as the desktop's font makes them, and fills the rest of a window
made larger than the picture (a tiler's, a maximised one) with black. None of that is
assumed here: the picture is the rectangle whose border is one colour all round, whose
screen shows something, and whose blocks are whole at its scale. A HiDPI desktop's
fuse-gtk (``GDK_SCALE``) shows it larger again, smoothed: then the blocks are blends, whose
own colours ``bot.x11.smoothing`` reads. Fuse's TV and Dot matrix filters darken part of
each block: its own colour is in one pixel of it (``bot.x11.scanlines``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from logo_bot.bot.x11.scanlines import BY_NAME, PATTERNS, drawn_by, own_pixels
from logo_bot.bot.x11.smoothing import FACTORS, unsmoothed

PICTURE_1X = (320, 240)
SCREEN_1X = (256, 192)  # the Spectrum's screen inside the border
BORDER_1X = (32, 24)  # the border's width at the sides and height above and below
SCALES = (4, 3, 2, 1)  # Fuse's whole scales (fuse-gtk's goes to 4), the largest first
# the scales in window pixels, the largest first: Fuse's, and Fuse's smoothed by a factor
SIZES = sorted({s * f for s in SCALES for f in (1, *FACTORS)}, reverse=True)
SAMPLE = 4  # colours are counted on every 4th pixel of every 4th row
# a 1x picture's border pixels on the sample, half of them: a colour with fewer is no border's
LEAST_BORDER_1X = (PICTURE_1X[0] * PICTURE_1X[1] - SCREEN_1X[0] * SCREEN_1X[1]) // SAMPLE**2 // 2
CANDIDATES = 64  # frames checked for whole blocks, at most, a colour and a scale
# X's 32-bit pixels are B G R X in memory: taking the three channels by index copies a
# 320x240 picture in 0.08 ms, where the reversed slice's copy took 0.4-0.7 ms
BGR_TO_RGB = [2, 1, 0]


@dataclass(frozen=True)
class Box:
    """A rectangle inside the window, in window pixels; ``smooth``: the factor a HiDPI
    desktop's toolkit drew the picture in it larger by, smoothly (1: as Fuse drew it);
    ``filter``: the name of the Fuse filter pattern that darkens part of each block
    (``bot.x11.scanlines``; empty: none)."""

    left: int
    top: int
    width: int
    height: int
    smooth: int = 1
    filter: str = ""

    @property
    def as_is(self) -> bool:
        """Whether the box's pixels are the picture as readers take it (not smoothed, not
        filtered): a reader may read them straight from the window."""
        return self.smooth == 1 and not self.filter

    def crop(self, pixels: np.ndarray) -> np.ndarray:
        return pixels[self.top : self.top + self.height, self.left : self.left + self.width]

    @property
    def size(self) -> int:
        """Window pixels a Spectrum pixel when the box holds a picture (its width over 320)."""
        return max(1, self.width // PICTURE_1X[0])

    @property
    def scale(self) -> int:
        """Fuse's own scale of the picture the box holds."""
        return max(1, self.size // self.smooth)

    def as_drawn(self, pixels: np.ndarray) -> np.ndarray:
        """The picture as Fuse drew it unfiltered, in the box's ``pixels`` (RGB, the box's
        size)."""
        if self.filter:
            return own_pixels(pixels, BY_NAME[self.filter])
        if self.smooth == 1:
            return pixels
        found = unsmoothed(pixels, self.smooth, self.scale)
        assert found is not None  # only a strict reading refuses
        return found


def picture_at(left: int, top: int, size: int, smooth: int = 1, filter: str = "") -> Box:
    """The box of a picture ``size`` window pixels a Spectrum pixel, whose top-left pixel
    is (``left``, ``top``)."""
    return Box(left, top, PICTURE_1X[0] * size, PICTURE_1X[1] * size, smooth, filter)


def guess_box(width: int, height: int) -> Box:
    """Where the picture is taken to be before it can be seen: the largest that fits, at
    the top left (all of a fuse-sdl window; a window not yet drawn shows nothing to go by)."""
    for scale in SCALES:
        box = picture_at(0, 0, scale)
        if box.width <= width and box.height <= height:
            return box
    return Box(0, 0, width, height)


def border_holds(picture: np.ndarray, margin: int = 0) -> bool:
    """Whether a grabbed ``picture`` (the box's pixels, RGB or packed) has a border of one
    colour all round at its scale, but for ``margin`` pixels next to the screen (where a
    smoothed picture blends them): the quick check that the box found still holds."""
    size = max(1, picture.shape[1] // PICTURE_1X[0])
    if picture.shape[:2] != (PICTURE_1X[1] * size, PICTURE_1X[0] * size):
        return False
    bx, by = BORDER_1X[0] * size - margin, BORDER_1X[1] * size - margin
    colour = picture[0, 0]
    strips = (picture[:by], picture[-by:], picture[by:-by, :bx], picture[by:-by, -bx:])
    return all(bool((strip == colour).all()) for strip in strips)


def margin_of(box: Box) -> int:
    """The pixels next to the screen that ``border_holds`` leaves out for ``box``."""
    return 1 if box.smooth > 1 else 0


def _holds(pixels: np.ndarray, box: Box, exact: bool = False) -> bool:
    """Whether ``box`` of the window's ``pixels`` (RGB) still shows the picture found
    there (``_shows``, its blocks whole)."""
    height, width = pixels.shape[:2]
    inside = box.left + box.width <= width and box.top + box.height <= height
    return box.left >= 0 and box.top >= 0 and inside and _shows(box.crop(pixels), box, exact)


def _shows(picture: np.ndarray, box: Box, exact: bool = False) -> bool:
    """Whether ``picture`` (RGB, ``box``'s pixels) is a Spectrum picture as ``box`` says:
    a border of one colour, a screen not all that colour, and whole blocks at its scale
    (``exact``: with its edges where its scale puts them, ``_of_scale``). Smoothed, all of
    that holds in the picture read from its blends; filtered, in its blocks' own pixels."""
    if box != picture_at(box.left, box.top, box.size, box.smooth, box.filter):
        return False
    if box.filter:
        if not drawn_by(picture, BY_NAME[box.filter]):
            return False
        picture = box.as_drawn(picture)
    if box.smooth > 1:
        if not border_holds(_packed(picture), margin_of(box)):
            return False
        own = unsmoothed(picture, box.smooth, box.scale, strict=True)
        if own is None:
            return False
        picture = own
    packed = _packed(picture)
    scale = box.scale
    bx, by = BORDER_1X[0] * scale, BORDER_1X[1] * scale
    if not border_holds(packed) or (packed[by:-by, bx:-bx] == packed[0, 0]).all():
        return False
    return _of_scale(packed, scale) if exact else _whole_blocks(packed, scale)


def _whole_blocks(picture: np.ndarray, scale: int) -> bool:
    """Every ``scale`` x ``scale`` block of the (packed) picture is one colour."""
    if scale == 1:
        return True
    h, w = picture.shape[0] // scale, picture.shape[1] // scale
    blocks = picture.reshape(h, scale, w, scale)
    return bool((blocks == blocks[:, :1, :, :1]).all())


def _packed(pixels: np.ndarray) -> np.ndarray:
    """Each RGB pixel as one number (one comparison a pixel, not three)."""
    height, width = pixels.shape[:2]
    wide = np.zeros((height, width, 4), np.uint8)
    wide[:, :, :3] = pixels
    return wide.view(np.uint32)[:, :, 0]


def _of_scale(picture: np.ndarray, scale: int) -> bool:
    """Whole blocks at ``scale``, and edges where a picture at that scale has them: the
    places where a column (a row) differs from the one before lie a multiple of ``scale``
    apart, and of no larger step. A picture drawn at a larger scale holds smaller frames of
    one colour round part of its screen, whose edges all lie a multiple of its own scale
    apart."""
    if not _whole_blocks(picture, scale):
        return False
    steps = [
        np.flatnonzero((picture[:, 1:] != picture[:, :-1]).any(axis=0)),
        np.flatnonzero((picture[1:] != picture[:-1]).any(axis=1)),
    ]
    edges = np.concatenate([e - e[0] for e in steps if len(e)])
    return len(edges) == 0 or int(np.gcd.reduce(edges)) == scale


def _colours(packed: np.ndarray, least: int) -> list[int]:
    """The colours (packed) with at least ``least`` pixels, counted on a sample, most
    first."""
    values, counts = np.unique(packed[::SAMPLE, ::SAMPLE], return_counts=True)
    order = np.argsort(-counts)
    return [int(v) for v, n in zip(values[order], counts[order], strict=True) if n >= least]


def _integral(mask: np.ndarray) -> np.ndarray:
    """The sums of ``mask`` over every rectangle from the top left (one row and one
    column of zeros first)."""
    total = np.zeros((mask.shape[0] + 1, mask.shape[1] + 1), np.int32)
    total[1:, 1:] = mask.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    return total


def _frames(total: np.ndarray, size: int) -> np.ndarray:
    """(top, left) of every picture ``size`` pixels a Spectrum pixel whose border is all
    of a mask and whose screen is not, top rows first, from the mask's ``_integral``
    (every place in one pass). Above 1, the border's pixel next to the screen may differ
    (a smoothed picture's blend)."""
    w, h = PICTURE_1X[0] * size, PICTURE_1X[1] * size
    tops, lefts = total.shape[0] - h, total.shape[1] - w

    def sums(dx: int, dy: int, rw: int, rh: int) -> np.ndarray:
        def at(y: int, x: int) -> np.ndarray:
            return total[y : y + tops, x : x + lefts]

        return at(dy + rh, dx + rw) - at(dy, dx + rw) - at(dy + rh, dx) + at(dy, dx)

    m = 1 if size > 1 else 0
    bx, by, sw, sh = (v * size for v in (*BORDER_1X, *SCREEN_1X))
    screen = sums(bx, by, sw, sh)
    inner = sums(bx - m, by - m, sw + 2 * m, sh + 2 * m)
    border = sums(0, 0, w, h) - inner
    return np.argwhere((border == w * h - (sw + 2 * m) * (sh + 2 * m)) & (screen < sw * sh))


def _picture_in(pixels: np.ndarray, left: int, top: int, size: int) -> Box | None:
    """The picture ``size`` window pixels a Spectrum pixel at (``left``, ``top``) of the
    window's ``pixels``, as Fuse drew it or smoothed (see ``_shows``); None for none."""
    for smooth in (1, *FACTORS):
        box = picture_at(left, top, size, smooth)
        if size % smooth == 0 and size // smooth in SCALES and _shows(box.crop(pixels), box, True):
            return box
    return None


def _filtered_in(pixels: np.ndarray, packed: np.ndarray, size: int) -> Box | None:
    """A picture drawn by a filter pattern of scale ``size`` (``bot.x11.scanlines``):
    looked for among the blocks' own pixels, at each place a block can start, where the
    border is one colour (the darkened rows of a TV filter's border are not)."""
    for pattern in (p for p in PATTERNS if p.scale == size):
        for dy, dx in ((y, x) for y in range(size) for x in range(size)):
            own = packed[dy + pattern.row :: size, dx + pattern.col :: size]
            for colour in _colours(own, LEAST_BORDER_1X):
                for top, left in _frames(_integral(own == colour), 1)[:CANDIDATES]:
                    box = picture_at(
                        int(left) * size + dx, int(top) * size + dy, size, 1, pattern.name
                    )
                    if _holds(pixels, box, exact=True):
                        return box
    return None


def find_picture(pixels: np.ndarray, hint: Box | None = None) -> Box | None:
    """The Spectrum picture in a window's ``pixels`` (RGB), or None where none shows.

    ``hint`` (the box found before) is only a first guess: it is kept when the pixels
    still show a picture there. Otherwise every size is tried, the largest first, each
    as Fuse draws it, smoothed by a HiDPI desktop, and drawn by a filter that darkens
    part of each block. Where the border's colour runs on
    into what lies around it (fuse-gtk's black fill), the picture could sit at several
    places; the topmost, then leftmost, is taken, which is where Fuse draws it.
    """
    if hint is not None and _holds(pixels, hint):
        return hint
    packed = _packed(pixels)
    height, width = packed.shape
    fits = [s for s in SIZES if PICTURE_1X[0] * s <= width and PICTURE_1X[1] * s <= height]
    if not fits:
        return None
    least_border = (PICTURE_1X[0] * PICTURE_1X[1] - SCREEN_1X[0] * SCREEN_1X[1]) * min(fits) ** 2
    colours = _colours(packed, least_border // (SAMPLE * SAMPLE) // 2)
    totals = [_integral(packed == colour) for colour in colours]
    for size in fits:
        found = []
        for total in totals:
            for top, left in _frames(total, size)[:CANDIDATES]:
                box = _picture_in(pixels, int(left), int(top), size)
                if box is not None:
                    found.append(box)
                    break
        if found:
            return min(found, key=lambda b: (b.top, b.left))
        if (filtered := _filtered_in(pixels, packed, size)) is not None:
            return filtered
    return None
