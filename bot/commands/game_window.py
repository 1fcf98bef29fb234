"""The game's picture in a picture ``show`` and ``calibrate`` were given: a screenshot of
a Fuse window or of a whole desktop, or a window's own picture."""

from __future__ import annotations

import contextlib

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.locate import Placement, window_of
from logo_bot.bot.see.shown import what_is_shown
from logo_bot.bot.x11.picture import find_picture


def game_window(profile: Profile, image: np.ndarray) -> tuple[np.ndarray, Placement | None]:
    """The game's picture in ``image`` (a window's or a desktop's picture) and where it was
    found: first a Fuse picture by its border (any screen of the game, whatever bars or
    desktop lie around it), else as ``window_of`` finds it (the image itself, or a level
    in it)."""
    box = find_picture(image)
    if box is not None and box.width == box.size * profile.geometry.window[0]:
        frame = box.as_drawn(box.crop(image))
        with contextlib.suppress(Unreadable):  # a picture, but not the game's
            what_is_shown(profile, frame)
            whole = (box.width, box.height) == (image.shape[1], image.shape[0])
            if whole and box.smooth == 1:
                return frame, None
            return frame, Placement(box.scale, box.left, box.top, box.smooth)
    return window_of(profile, image)
