"""--window names a Fuse window only: a title or id of another window chooses nothing."""

from __future__ import annotations

import pytest

from faults.thief import FocusThief
from logo_bot.bot.errors import DisplayError
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import choose_window


def test_another_programs_window_is_never_chosen_by_title_or_id(xserver, tmp_path):
    with FocusThief(xserver.display, tmp_path / "keys.jsonl") as other:  # "logo-bot sentinel"
        dpy = open_display(xserver.display)
        try:
            for name in ("logo-bot sentinel", "sentinel", f"{other.window_id:#x}"):
                with pytest.raises(DisplayError, match="no Fuse windows matching --window"):
                    choose_window(dpy, name)
        finally:
            dpy.close()
