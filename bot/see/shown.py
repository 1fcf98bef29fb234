"""Whether a frame shows the game at all: a level, or one of the screens the profile names.

A picture of the Fuse window's size is not yet the game: a black frame, the ROM's
screen or another program's window read as an empty target, and an empty target
plans in 0 presses. A level always shows target stones, so a frame is the game when
its level reads whole with at least one stone, or its text names one of the game's
screens.
"""

from __future__ import annotations

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.vision import Vision

NOT_THE_GAME_HINT = (
    "give a picture of the Fuse window (or of a desktop with it) while the game shows a "
    "level or one of its screens; logo-bot calibrate --screenshot PNG shows what the "
    "profile reads in it"
)


def what_is_shown(profile: Profile, frame: np.ndarray) -> str:
    """``"level"``, or the name of the game's screen on ``frame``; ``Unreadable``
    ("not the game: ...", exit 7) when it is neither."""
    vision = Vision.for_frame(profile, frame)
    no_level = level_problem(vision, frame)
    if no_level is None:
        return "level"
    screens = ScreenReader(profile, vision.scale)
    screen = screens.which(frame)
    if screen is not None:
        return screen
    if screens.available and profile.screens is not None:
        other = "none of the game's screens (title, menu, ...) either"
    else:
        other = f"the {profile.name} profile has no font to tell the game's other screens by"
    raise Unreadable(f"not the game: {no_level}; {other}", hint=NOT_THE_GAME_HINT)


def level_problem(vision: Vision, frame: np.ndarray) -> str | None:
    """Why ``frame`` shows no level, or None when one reads whole: the level marker,
    a target with stones, and the board."""
    if not vision.level_shown(frame):
        return "no level on it (the preview's level marker is one colour)"
    try:
        target = vision.preview(frame)
        vision.board(frame)
    except Unreadable as exc:
        return f"no level on it ({exc.reason})"
    if target.stone_count == 0:
        return "no level on it (the target has no stones)"
    return None
