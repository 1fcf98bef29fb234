"""Finding the Fuse window's picture inside a larger screenshot: scale and origin.

A level always shows target stones, so pixels in a stone value colour are looked
for first; each one proposes window positions (as the stone pixel of some preview
cell at some scale), and a proposal is kept only when the whole level reads from
it: target, board, cursor and the level marker.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.vision import Vision


@dataclass(frozen=True)
class Placement:
    """Where the game's window was found in an image: at Fuse's ``scale``, its top-left
    pixel at (``left``, ``top``), ``smooth`` times as large again where a HiDPI desktop
    drew it smoothed (``crop`` is for a picture drawn as Fuse draws it)."""

    scale: int
    left: int
    top: int
    smooth: int = 1

    def crop(self, image: np.ndarray, profile: Profile) -> np.ndarray:
        w, h = profile.geometry.window
        return image[self.top : self.top + h * self.scale, self.left : self.left + w * self.scale]


def _reads_a_level(profile: Profile, window: np.ndarray, scale: int) -> bool:
    """The whole level reads from ``window``, and its border (top and left strips, which
    Fuse paints in one colour) is uniform, so the window is not shifted."""
    top = window[: 24 * scale]
    left = window[:, : 32 * scale]
    if (top != top[0, 0]).any() or (left != top[0, 0]).any():
        return False
    vision = Vision(profile, scale)
    try:
        vision.preview(window)
        vision.board(window)
        vision.cursor(window)
        return vision.level_shown(window)
    except Unreadable:
        return False


def locate(profile: Profile, image: np.ndarray) -> Placement:
    """Where the game window is in ``image``; ``Unreadable`` when no level is found."""
    g = profile.geometry
    w, h = g.window
    height, width = image.shape[:2]
    values = np.array(
        [profile.palette.colours[c] for c in profile.palette.preview_values.values()], dtype=float
    )
    near = np.zeros((height, width), dtype=bool)
    wide = image.astype(np.int16)
    for colour in values.astype(np.int16):
        near |= np.abs(wide - colour).max(axis=-1) <= 8
    ys, xs = np.nonzero(near)
    for scale in (1, 2, 3):
        # Every (stone pixel, preview cell) pair proposes a window position, the pixel
        # taken as the middle of the stone's probe pixel, which is where the checks below
        # and the vision read it (every pixel of the scale x scale block would propose
        # the same positions again, shifted: scale^2 times the work, for nothing)
        half = scale // 2
        lefts, tops = [], []
        for row in range(1, g.preview.rows + 1):
            for col in range(1, g.preview.cols + 1):
                cx, cy = g.preview.cell_origin(row, col)
                sx, sy = cx + g.preview_stone[0], cy + g.preview_stone[1]
                lefts.append(xs - sx * scale - half)
                tops.append(ys - sy * scale - half)
        if not lefts:
            break
        cand = np.stack([np.concatenate(lefts), np.concatenate(tops)], axis=1)
        inside = (
            (cand[:, 0] >= 0)
            & (cand[:, 1] >= 0)
            & (cand[:, 0] + w * scale <= width)
            & (cand[:, 1] + h * scale <= height)
        )
        # many pairs propose the same position: each is checked once
        key = np.unique(cand[inside, 1].astype(np.int64) * width + cand[inside, 0])
        cand = np.stack([key % width, key // width], axis=1)
        # Cheap tests on all proposals at once: the border corners agree (Fuse paints it in
        # one colour) and the level marker cell is not uniform.
        corner = image[cand[:, 1], cand[:, 0]]
        for bx, by in ((31, 0), (0, 23), (31, 23), (16, 12)):
            other = image[cand[:, 1] + by * scale, cand[:, 0] + bx * scale]
            keep = (other == corner).all(axis=-1)
            cand, corner = cand[keep], corner[keep]
        mx, my = g.preview.cell_origin(*g.level_marker)
        first = image[cand[:, 1] + my * scale, cand[:, 0] + mx * scale]
        varied = np.zeros(len(cand), dtype=bool)
        for py in range(8):
            for px in range(8):
                pixel = image[cand[:, 1] + (my + py) * scale, cand[:, 0] + (mx + px) * scale]
                varied |= (pixel != first).any(axis=-1)
        cand = cand[varied]
        # Every preview cell is empty (probe pixels equal) or shows a value colour.
        for row in range(1, g.preview.rows + 1):
            for col in range(1, g.preview.cols + 1):
                cx, cy = g.preview.cell_origin(row, col)
                sx, sy = cx + g.preview_stone[0], cy + g.preview_stone[1]
                bx, by = cx + g.preview_background[0], cy + g.preview_background[1]
                stone = wide[cand[:, 1] + sy * scale + half, cand[:, 0] + sx * scale + half]
                back = wide[cand[:, 1] + by * scale + half, cand[:, 0] + bx * scale + half]
                valued = np.zeros(len(cand), dtype=bool)
                for colour in values.astype(np.int16):
                    valued |= np.abs(stone - colour).max(axis=-1) <= 8
                cand = cand[valued | (stone == back).all(axis=-1)]
        for left, top in np.unique(cand, axis=0):
            placement = Placement(scale, int(left), int(top))
            if _reads_a_level(profile, placement.crop(image, profile), scale):
                return placement
    raise Unreadable(
        f"no game screen with a level on it was found in this {width}x{height} image "
        f"(looked for the {w}x{h} Fuse window at 1x, 2x and 3x)"
    )


def window_of(profile: Profile, image: np.ndarray) -> tuple[np.ndarray, Placement | None]:
    """The Fuse window's picture in ``image``: ``image`` itself when it has the window's
    size at 1x, 2x or 3x, else the level found in it by ``locate`` (with its placement).
    ``Unreadable`` (exit 7) when it is neither: the picture is not the game."""
    try:
        Vision.for_frame(profile, image)
        return image, None
    except Unreadable:
        pass
    try:
        placement = locate(profile, image)
    except Unreadable as exc:
        raise Unreadable(f"not the game: {exc.reason}") from None
    return placement.crop(image, profile), placement
