"""The pyautogui key delivery: ``keyDown``/``keyUp`` with the same timing and focus rules.

pyautogui talks to the X display named by ``DISPLAY`` when it is first imported, so
the display is set before the import; then it is given the driver's own python-xlib
connection, so its events (XTest's) go out inside the same focus-checked server grab as
XTest's, and keys are released as XTest releases them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from Xlib import display as xdisplay

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.x11.key_delivery import XTestDelivery

PYAUTOGUI_NAMES = {"enter": "enter", "return": "enter", "space": "space", "delete": "backspace"}


class PyAutoGuiDelivery(XTestDelivery):
    """Presses keys with pyautogui, on the key driver's connection."""

    def __init__(self, dpy: xdisplay.Display, window: Any) -> None:
        super().__init__(dpy, window)
        display = dpy.get_display_name()
        previous = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = display
        try:
            import pyautogui
        except ImportError:
            raise DisplayError(
                "the pyautogui key backend is not installed",
                hint="run ./scripts/setup.sh (it installs pyautogui) or use --keys xtest",
            ) from None
        except Exception as exc:  # pyautogui fails at import without a usable display
            raise DisplayError(f"pyautogui cannot use display {display}: {exc}") from None
        finally:
            if previous is not None and previous != display:
                os.environ["DISPLAY"] = previous
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = False
        # pyautogui binds its X connection at first import; give it this driver's.
        from pyautogui import _pyautogui_x11  # type: ignore[attr-defined]  # not in its stubs

        _pyautogui_x11._display = dpy
        self._pyautogui = pyautogui

    def send(self, key: str, code: int, down: bool, held: Sequence[int]) -> None:
        name = PYAUTOGUI_NAMES.get(key.lower(), key.lower())
        (self._pyautogui.keyDown if down else self._pyautogui.keyUp)(name)
