"""What the bot does when the Fuse window loses the keyboard focus.

No key is ever sent while another window has the focus. When the focus is lost the
bot waits: with ``take_back`` it takes the focus back after ``grace_s`` (a person who
clicked elsewhere gets a moment first); without it, it pauses, says so, and goes on
when the focus comes back. Listeners hear ``lost``, ``paused`` and ``regained``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.errors import EmulatorError, FocusLost

FocusListener = Callable[[str, dict[str, Any]], None]


class FocusTarget(Protocol):
    """The window keys go to: can it be found, does it have the focus, give it the focus."""

    def focused(self) -> bool: ...

    def focus(self) -> None: ...

    def window_exists(self) -> bool: ...


@dataclass
class FocusPolicy:
    """``take_back``: take the focus back after ``grace_s`` seconds; ``wait``: block until
    the focus is back (a pause) instead of raising ``FocusLost``."""

    take_back: bool = True
    wait: bool = False
    grace_s: float = 0.0
    poll_s: float = 0.02
    listeners: list[FocusListener] = field(default_factory=list)

    def emit(self, event: str, **data: Any) -> None:
        for listener in list(self.listeners):
            listener(event, data)

    def regain(self, target: FocusTarget) -> float:
        """Return once ``target`` has the focus again (taken back or given back), with the
        seconds waited; or raise ``FocusLost`` (the policy does not wait) or
        ``EmulatorError`` (the window is gone)."""
        started = time.monotonic()
        self.emit("lost")
        paused = False
        while True:
            if not target.window_exists():
                raise EmulatorError(
                    "the Fuse window has gone (Fuse stopped?)",
                    hint="the run can resume from the last level code",
                )
            waited = time.monotonic() - started
            if target.focused():
                self.emit("regained", how="returned", waited_s=waited, paused=paused)
                return waited
            if self.take_back and waited >= self.grace_s:
                target.focus()
                if target.focused():
                    self.emit("regained", how="taken_back", waited_s=waited, paused=paused)
                    return waited
            if not self.wait and (not self.take_back or waited >= self.grace_s):
                raise FocusLost(
                    "the Fuse window does not have the keyboard focus, so no key was sent",
                    hint="click the Fuse window (or do not use the desktop while the bot plays)",
                )
            if not paused:
                paused = True
                self.emit("paused")
            time.sleep(self.poll_s)
