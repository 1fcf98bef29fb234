"""Whether Fuse's own menu or dialog shows over the picture (fuse-sdl draws its widgets,
F1's menu and the dialogs under it, inside the Spectrum picture, and emulation pauses
while one is open).

Each of Fuse's widgets has a black title bar whose right end carries four diagonal
stripes, red, yellow, green and cyan, each 8 Spectrum pixels wide, one row lower a pixel
further left, as many rows as the title bar is tall (8). Fuse draws them in its own
Spectrum-sized picture and scales that as it scales the game, so they are whole blocks
at any scale; the TV filters darken every other row (248 reads 216), which the colours'
channels, on or off, do not mind. The game draws no such run of four colours.
"""

from __future__ import annotations

import numpy as np

# each stripe's colour as its red, green and blue channels on (above ON) or off
STRIPES = ((1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 1, 1))  # red, yellow, green, cyan
STRIPE_1X = 8  # a stripe's width in Spectrum pixels
ON = 128  # a channel above this is on: 192 and 248 (normal, BRIGHT), 216 (a TV row)
LEAST_ROWS = 4  # rows of the title bar that must show the stripes (it has 8)
PICTURE_WIDTH_1X = 320
CODES = [r * 4 + g * 2 + b for r, g, b in STRIPES]  # as ``_codes`` numbers them


def _codes(pixels: np.ndarray) -> np.ndarray:
    """Each RGB pixel as a number 0-7: its red, green and blue channels on or off."""
    on = pixels > ON
    return on[..., 0] * np.int8(4) + on[..., 1] * np.int8(2) + on[..., 2]


def fuse_menu_shows(picture: np.ndarray) -> bool:
    """Whether ``picture`` (Fuse's picture, RGB, at any whole scale) shows one of Fuse's
    own widgets: some rows with the title bar's four stripes, each as wide as Fuse makes
    them and with no more of the first and last colours on either side."""
    scale = max(1, picture.shape[1] // PICTURE_WIDTH_1X)
    codes = _codes(picture[::scale, ::scale])
    width, colours = STRIPE_1X, CODES
    total = len(colours) * width
    starts = codes.shape[1] - total - 1  # one pixel on either side is looked at too
    if starts <= 0:
        return False
    # the quick test first: the four colours a stripe apart
    near = np.ones((codes.shape[0], starts), bool)
    for i, colour in enumerate(colours):
        near &= codes[:, 1 + i * width : 1 + i * width + starts] == colour
    if int(near.any(axis=1).sum()) < LEAST_ROWS:
        return False
    match = near
    for i, colour in enumerate(colours):
        full = np.pad(np.cumsum(codes == colour, axis=1, dtype=np.int16), ((0, 0), (1, 0)))
        begin = 1 + i * width
        counted = full[:, begin + width : begin + width + starts] - full[:, begin : begin + starts]
        match &= counted == width
    match &= codes[:, :starts] != colours[0]
    match &= codes[:, total + 1 : total + 1 + starts] != colours[-1]
    return int(match.any(axis=1).sum()) >= LEAST_ROWS
