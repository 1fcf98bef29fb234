"""Where the Spectrum picture lies inside a Fuse window, found by what the window shows.

Fuse's picture is 320x240 pixels at 1x (the 256x192 screen inside a border 32 pixels
wide and 24 tall), drawn at a whole scale: every Spectrum pixel a uniform square block.
fuse-sdl's window is the picture; fuse-gtk draws a menu bar above it and a status bar
below it, both as tall as the desktop's font makes them, and fills the rest of a window
made larger than the picture (a tiler's, a maximised one) with black. None of that is
assumed here: the picture is the rectangle whose border is one colour all round, whose
screen shows something, and whose blocks are whole at its scale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

PICTURE_1X = (320, 240)
SCREEN_1X = (256, 192)  # the Spectrum's screen inside the border
BORDER_1X = (32, 24)  # the border's width at the sides and height above and below
SCALES = (4, 3, 2, 1)  # Fuse's whole scales (fuse-gtk's goes to 4), the largest first
SAMPLE = 4  # colours are counted on every 4th pixel of every 4th row
CANDIDATES = 64  # frames checked for whole blocks, at most, a colour and a scale
# X's 32-bit pixels are B G R X in memory: taking the three channels by index copies a
# 320x240 picture in 0.08 ms, where the reversed slice's copy took 0.4-0.7 ms
BGR_TO_RGB = [2, 1, 0]


@dataclass(frozen=True)
class Box:
    """A rectangle inside the window, in window pixels."""

    left: int
    top: int
    width: int
    height: int

    def crop(self, pixels: np.ndarray) -> np.ndarray:
        return pixels[self.top : self.top + self.height, self.left : self.left + self.width]

    @property
    def scale(self) -> int:
        """The picture's scale when the box holds one (its width over 320)."""
        return max(1, self.width // PICTURE_1X[0])


def picture_at(left: int, top: int, scale: int) -> Box:
    """The box of a picture at ``scale`` whose top-left pixel is (``left``, ``top``)."""
    return Box(left, top, PICTURE_1X[0] * scale, PICTURE_1X[1] * scale)


def guess_box(width: int, height: int) -> Box:
    """Where the picture is taken to be before it can be seen: the largest that fits, at
    the top left (all of a fuse-sdl window; a window not yet drawn shows nothing to go by)."""
    for scale in SCALES:
        box = picture_at(0, 0, scale)
        if box.width <= width and box.height <= height:
            return box
    return Box(0, 0, width, height)


def border_holds(picture: np.ndarray) -> bool:
    """Whether a grabbed ``picture`` (the box's pixels, RGB or packed) has a border of one
    colour all round at its scale: the quick check that the box found still holds."""
    scale = max(1, picture.shape[1] // PICTURE_1X[0])
    if picture.shape[:2] != (PICTURE_1X[1] * scale, PICTURE_1X[0] * scale):
        return False
    bx, by = BORDER_1X[0] * scale, BORDER_1X[1] * scale
    colour = picture[0, 0]
    strips = (picture[:by], picture[-by:], picture[by:-by, :bx], picture[by:-by, -bx:])
    return all(bool((strip == colour).all()) for strip in strips)


def _holds(packed: np.ndarray, box: Box) -> bool:
    """Whether ``box`` of the (packed) window is a picture: inside the window, a border
    of one colour, a screen not all that colour, and whole blocks at its scale."""
    height, width = packed.shape
    scale = box.scale
    if box != picture_at(box.left, box.top, scale) or box.left < 0 or box.top < 0:
        return False
    if box.left + box.width > width or box.top + box.height > height:
        return False
    picture = box.crop(packed)
    if not border_holds(picture):
        return False
    bx, by = BORDER_1X[0] * scale, BORDER_1X[1] * scale
    screen = picture[by:-by, bx:-bx]
    return not (screen == picture[0, 0]).all() and _whole_blocks(picture, scale)


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


def _frames(mask: np.ndarray, scale: int) -> np.ndarray:
    """(top, left) of every picture at ``scale`` whose border is all ``mask`` and whose
    screen is not, top rows first (an integral image: every place in one pass)."""
    height, width = mask.shape
    w, h = PICTURE_1X[0] * scale, PICTURE_1X[1] * scale
    tops, lefts = height - h + 1, width - w + 1
    total = np.zeros((height + 1, width + 1), np.int32)
    total[1:, 1:] = mask.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)

    def sums(dx: int, dy: int, rw: int, rh: int) -> np.ndarray:
        def at(y: int, x: int) -> np.ndarray:
            return total[y : y + tops, x : x + lefts]

        return at(dy + rh, dx + rw) - at(dy, dx + rw) - at(dy + rh, dx) + at(dy, dx)

    sw, sh = SCREEN_1X[0] * scale, SCREEN_1X[1] * scale
    screen = sums(BORDER_1X[0] * scale, BORDER_1X[1] * scale, sw, sh)
    border = sums(0, 0, w, h) - screen
    return np.argwhere((border == w * h - sw * sh) & (screen < sw * sh))


def find_picture(pixels: np.ndarray, hint: Box | None = None) -> Box | None:
    """The Spectrum picture in a window's ``pixels`` (RGB), or None where none shows.

    ``hint`` (the box found before) is only a first guess: it is kept when the pixels
    still show a picture there. Otherwise every scale is tried, the largest first. Where
    the border's colour runs on into what lies around it (fuse-gtk's black fill), the
    picture could sit at several places; the topmost, then leftmost, is taken, which is
    where Fuse draws it.
    """
    if hint is not None and _holds(_packed(hint.crop(pixels)), replace(hint, left=0, top=0)):
        return hint
    packed = _packed(pixels)
    height, width = packed.shape
    fits = [s for s in SCALES if PICTURE_1X[0] * s <= width and PICTURE_1X[1] * s <= height]
    if not fits:
        return None
    least_border = (PICTURE_1X[0] * PICTURE_1X[1] - SCREEN_1X[0] * SCREEN_1X[1]) * min(fits) ** 2
    colours = _colours(packed, least_border // (SAMPLE * SAMPLE) // 2)
    masks = [packed == colour for colour in colours]
    for scale in fits:
        found = []
        for mask in masks:
            for top, left in _frames(mask, scale)[:CANDIDATES]:
                box = picture_at(int(left), int(top), scale)
                if _of_scale(box.crop(packed), scale):
                    found.append(box)
                    break
        if found:
            return min(found, key=lambda b: (b.top, b.left))
    return None
