"""Fuse's graphics filters that keep its own colours in part of each block.

Measured on fuse-sdl 1.6 (docs/desktops.md): TV 2x, TV 3x and TV 4x draw each Spectrum
pixel as a block whose top rows are its own colour (one row at 2x and 3x, two at 4x) and
whose other rows are that colour darkened (a scanline: BRIGHT white's 248 reads 216);
Dot matrix (2x) draws it with its bottom-right pixel its own colour and the others darker.
A ``Pattern`` names that pixel; the picture Fuse's Double, Triple or Quadruple size would
draw is every block filled with it. The smoothing filters (2xSaI, hq, AdvMAME, PAL TV)
blend neighbours into every pixel of some block and have no such pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Pattern:
    """A filter at ``scale`` whose pixel (``row``, ``col``) of each block is Fuse's own
    colour, every other pixel of the block no brighter; ``whole_rows``: each row of a
    block is one colour (the TV filters), so only rows need filling."""

    name: str
    scale: int
    row: int
    col: int
    whole_rows: bool


PATTERNS = (
    Pattern("TV 4x", 4, 0, 0, True),
    Pattern("TV 3x", 3, 0, 0, True),
    Pattern("TV 2x", 2, 0, 0, True),
    Pattern("Dot matrix", 2, 1, 1, False),
)
BY_NAME = {p.name: p for p in PATTERNS}


def own_pixels(picture: np.ndarray, pattern: Pattern) -> np.ndarray:
    """The picture Fuse draws unfiltered at the pattern's scale: each block of
    ``picture`` (RGB, whole blocks) filled with its own pixel."""
    s = pattern.scale
    rows = np.repeat(picture[pattern.row :: s], s, axis=0)
    return rows if pattern.whole_rows else np.repeat(rows[:, pattern.col :: s], s, axis=1)


def drawn_by(picture: np.ndarray, pattern: Pattern) -> bool:
    """Whether ``picture`` (RGB, whole blocks at the pattern's scale) shows the pattern:
    no pixel brighter than its block's own on any channel, rows whole where the pattern
    says, and some pixel darker (a picture in whole blocks is no filter's)."""
    own = own_pixels(picture, pattern)
    if not (picture <= own).all():
        return False
    if (
        pattern.whole_rows
        and not (picture == picture[:, :: pattern.scale].repeat(pattern.scale, axis=1)).all()
    ):
        return False
    return bool((picture != own).any())
