"""The pyautogui key backend: ``keyDown``/``keyUp`` with the same timing and focus rules.

pyautogui talks to the X display named by ``DISPLAY`` when it is first imported, so
the display is set before the import; then it is given the driver's own python-xlib
connection, so its events go out inside the same focus-checked server grab as XTest's.
"""

from __future__ import annotations

import os

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.keys import DEFAULT_TIMING, KeyTiming, XTestKeys

PYAUTOGUI_NAMES = {"enter": "enter", "return": "enter", "space": "space", "delete": "backspace"}


class PyAutoGuiKeys(XTestKeys):
    """Presses keys with pyautogui; focus is checked before every event as with XTest."""

    def __init__(
        self,
        display: str,
        window_id: int,
        timing: KeyTiming = DEFAULT_TIMING,
        take_focus: bool = True,
        policy: FocusPolicy | None = None,
    ) -> None:
        super().__init__(display, window_id, timing, take_focus, policy)
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
        from pyautogui import _pyautogui_x11

        _pyautogui_x11._display = self._dpy
        self._pyautogui = pyautogui

    def _deliver(self, key: str, code: int, down: bool) -> None:
        name = PYAUTOGUI_NAMES.get(key.lower(), key.lower())
        (self._pyautogui.keyDown if down else self._pyautogui.keyUp)(name)
