"""Pressing Spectrum keys in Fuse with XTest, timed from the actual previous event.

Before every burst the Fuse window must hold the input focus; if it does not, no
key is sent (``FocusLost``), unless the driver was told it may take focus back.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from Xlib import XK, X
from Xlib.error import XError
from Xlib.ext import xtest

from bot.errors import BotError, FocusLost
from bot.xserver import open_display

# Names the profiles use for keys that are not single characters.
KEYSYM_NAMES = {
    "space": "space",
    "enter": "Return",
    "return": "Return",
    "shift": "Shift_L",
    "caps": "Shift_L",
    "symbol": "Control_L",
    "delete": "BackSpace",
    "backspace": "BackSpace",
}


@dataclass(frozen=True)
class KeyTiming:
    """How long a key is held and how long all keys are up before the next press (ms)."""

    hold_ms: float = 40.0
    gap_ms: float = 40.0

    @classmethod
    def for_speed(cls, speed: int) -> KeyTiming:
        """Measured reliable timings (FUSE-FACTS): 40/40 ms at 100 %, 25/25 ms from 200 %."""
        return cls(40.0, 40.0) if speed < 200 else cls(25.0, 25.0)


DEFAULT_TIMING = KeyTiming()


class KeyDriver:
    """Base class: presses named keys one after another with ``timing``."""

    def __init__(self, timing: KeyTiming) -> None:
        self.timing = timing
        self._last_event = 0.0
        self._down: set[str] = set()

    def _wait_until(self, when: float) -> None:
        while (left := when - time.perf_counter()) > 0:
            time.sleep(left if left > 0.002 else 0)

    def press(self, key: str) -> None:
        self.burst([key])

    def burst(self, keys: Sequence[str]) -> None:
        """Press each key in turn (hold, release, gap), after checking focus once."""
        self.check_focus()
        for key in keys:
            self.tap(key)

    def _event(self, key: str, down: bool, after_ms: float) -> None:
        """Send one key event ``after_ms`` after the previous event, and note it."""
        self._wait_until(self._last_event + after_ms / 1000)
        self._send(key, down)
        if down:
            self._down.add(key)
        else:
            self._down.discard(key)
        self._last_event = time.perf_counter()

    def tap(self, key: str, gap_ms: float | None = None) -> None:
        """Press and release ``key``: held ``hold_ms``, after ``gap_ms`` with no key down."""
        self._event(key, True, self.timing.gap_ms if gap_ms is None else gap_ms)
        self._event(key, False, self.timing.hold_ms)

    def chord(self, modifier: str, keys: Sequence[str], gap_ms: float | None = None) -> None:
        """Hold ``modifier`` (e.g. "symbol") while tapping ``keys``; ``gap_ms`` between taps
        (the Spectrum ROM ignores a repeated key sooner than about 100 ms)."""
        self.check_focus()
        gap = self.timing.gap_ms if gap_ms is None else gap_ms
        self._event(modifier, True, self.timing.gap_ms)
        try:
            for key in keys:
                self.tap(key, gap)
        finally:
            self._event(modifier, False, gap)

    def type_text(self, text: str) -> None:
        self.burst([("space" if ch == " " else ch.lower()) for ch in text])

    def release_all(self) -> None:
        """Release every key this driver holds down (abort paths call this)."""
        for key in list(self._down):
            try:
                self._send(key, False)
            finally:
                self._down.discard(key)

    def check_focus(self) -> None:
        raise NotImplementedError

    def _send(self, key: str, down: bool) -> None:
        raise NotImplementedError


class XTestKeys(KeyDriver):
    """XTest fake key events by keycode, to Fuse's top-level window only."""

    def __init__(
        self,
        display: str,
        window_id: int,
        timing: KeyTiming = DEFAULT_TIMING,
        take_focus: bool = True,
    ) -> None:
        super().__init__(timing)
        self._dpy = open_display(display)
        if not self._dpy.has_extension("XTEST"):
            raise BotError(f"the X display {display} has no XTEST extension")
        self.window_id = window_id
        self.take_focus = take_focus
        self._codes: dict[str, int] = {}

    def keycode(self, key: str) -> int:
        code = self._codes.get(key)
        if code is None:
            name = KEYSYM_NAMES.get(key.lower(), key)
            sym = XK.string_to_keysym(name)
            code = self._dpy.keysym_to_keycode(sym) if sym else 0
            if not code:
                raise BotError(f"no keycode for key {key!r} on this X display")
            self._codes[key] = code
        return code

    def focused(self) -> bool:
        try:
            focus = self._dpy.get_input_focus().focus
        except XError:
            return False
        return getattr(focus, "id", focus) == self.window_id

    def focus(self) -> None:
        """Give Fuse's top-level window the input focus (only the top level works)."""
        window = self._dpy.create_resource_object("window", self.window_id)
        window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self._dpy.sync()

    def check_focus(self) -> None:
        if self.focused():
            return
        if self.take_focus:
            self.focus()
            if self.focused():
                return
        raise FocusLost(
            "the Fuse window does not have the keyboard focus, so no key was sent",
            hint="click the Fuse window (or do not use the desktop while the bot plays)",
        )

    def _send(self, key: str, down: bool) -> None:
        xtest.fake_input(self._dpy, X.KeyPress if down else X.KeyRelease, self.keycode(key))
        self._dpy.sync()

    def close(self) -> None:
        self.release_all()
        self._dpy.close()


def expand(sequence: Iterable[str]) -> list[str]:
    """Key names from a profile sequence such as ``["space", "2", "5", "enter"]``."""
    return [str(k) for k in sequence]
