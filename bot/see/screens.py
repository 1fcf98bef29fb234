"""Whole screens and the panel, read as text through the profile (when it has a font)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Profile, TextSpot
from logo_bot.bot.see.cell_sight import PackedPicture
from logo_bot.bot.see.marks import MarkSet
from logo_bot.bot.see.text import TextReader, load_font


class ScreenReader:
    """Which screen is shown (title, code, time up, ...) and the panel's values."""

    def __init__(self, profile: Profile, scale: int = 1) -> None:
        self.profile = profile
        self.scale = scale

    @property
    def available(self) -> bool:
        return self.profile.font is not None

    @cached_property
    def reader(self) -> TextReader:
        if self.profile.font is None:
            raise Unreadable(f"the {self.profile.name} profile has no font to read text with")
        return TextReader(load_font(self.profile.font), self.scale, self.profile.paper)

    def text_at(self, frame: np.ndarray, spot: TextSpot) -> str:
        return self.reader.text_at(frame, spot)

    def which(self, frame: np.ndarray) -> str | None:
        """The name of the screen whose mark text is shown, or None."""
        screens = self.profile.screens
        if screens is None or not self.available:
            return None
        return self.marks.which(frame)

    def which_packed(self, picture: PackedPicture) -> tuple[str | None] | None:
        """``which`` on a picture held as packed pixels at this reader's scale: (the
        name,) or (None,); None where only a frame can say (``MarkSet.which_packed``)."""
        if self.profile.screens is None or not self.available:
            return (None,)
        return self.marks.which_packed(picture)

    @cached_property
    def marks(self) -> MarkSet:
        """The profile's screen marks, compared at once (``bot.see.marks``)."""
        screens = self.profile.screens
        return MarkSet(self.reader, screens.marks if screens is not None else {})

    def shows(self, frame: np.ndarray, name: str) -> bool:
        """True when the mark text of screen ``name`` is on ``frame``."""
        screens = self.profile.screens
        if screens is None or name not in screens.marks or not self.available:
            return False
        return self.marks.shows(frame, name)

    def field(self, frame: np.ndarray, name: str) -> str:
        """A value shown on a screen (``[screens.fields]``), e.g. ``code_word``."""
        screens = self.profile.screens
        if screens is None or name not in screens.fields:
            raise Unreadable(f"the {self.profile.name} profile has no screen field {name!r}")
        return self.text_at(frame, screens.fields[name]).strip()

    def panel(self, frame: np.ndarray) -> dict[str, str]:
        """Every panel value as text (``Unreadable`` when the profile has no panel)."""
        if not self.profile.panel:
            raise Unreadable(f"the {self.profile.name} profile does not say where the panel is")
        return {
            name: self.text_at(frame, spot).strip() for name, spot in self.profile.panel.items()
        }

    def panel_number(self, frame: np.ndarray, name: str) -> int:
        text = self.panel(frame).get(name, "")
        if not text.isdigit():
            raise Unreadable(f"the panel's {name} reads {text!r}, not a number")
        return int(text)
