"""What the bot does when the Fuse window loses the keyboard focus.

No key is ever sent while another window has the focus. When the focus is lost the
bot waits: with ``take_back`` it takes the focus back after ``grace_s`` (a person who
clicked elsewhere gets a moment first); without it, it pauses, says so, and goes on
when the focus comes back. Listeners hear ``lost``, ``paused`` and ``regained``.

A picture covered by another window (raised over Fuse, or a notification) is waited for
the same way: listeners hear ``covered`` instead of ``lost``, no key is pressed while it
lasts, and with ``take_back`` Fuse is raised over the other window after ``grace_s``.

Another program holding the keyboard (an active grab: a screen locker, a password
prompt) gets every key whoever has the focus. Nothing can take it back: listeners hear
``grabbed``, the bot pauses (or raises ``FocusLost`` when the policy does not wait) and
goes on when the grab ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from logo_bot.bot import interrupts
from logo_bot.bot.errors import EmulatorError, FocusLost

FocusListener = Callable[[str, dict[str, Any]], None]


class FocusTarget(Protocol):
    """The window keys go to: can it be found, does it have the focus, give it the focus."""

    def focused(self) -> bool: ...

    def focus(self) -> None: ...

    def window_exists(self) -> bool: ...


def _covered(target: FocusTarget) -> bool:
    """Whether another window is over the picture (a target may also have ``covered()``
    and ``raise_window()``; one without them is never covered)."""
    check = getattr(target, "covered", None)
    return bool(check()) if check else False


def _grabbed(target: FocusTarget) -> bool:
    """Whether another program holds the keyboard (a target may have
    ``keyboard_grabbed()``; one without it is never grabbed)."""
    check = getattr(target, "keyboard_grabbed", None)
    return bool(check()) if check else False


def _what_blocks(grabbed: bool, covered: bool) -> str:
    if grabbed:
        return "another program held the keyboard"
    if covered:
        return "another window covered the Fuse picture"
    return "the Fuse window did not have the keyboard focus"


def _raise(target: FocusTarget) -> bool:
    """Ask for Fuse to be raised; whether a request went out (it is rate-limited)."""
    lift = getattr(target, "raise_window", None)
    return bool(lift()) if lift else False


@dataclass
class FocusPolicy:
    """``take_back``: take the focus back after ``grace_s`` seconds; ``wait``: block until
    the focus is back (a pause) instead of raising ``FocusLost``, for ``timeout_s`` seconds
    at most (None: for ever)."""

    take_back: bool = True
    wait: bool = False
    grace_s: float = 0.0
    timeout_s: float | None = None
    poll_s: float = 0.02
    watch_s: float = 0.25  # while paused, "waiting" is told this often
    listeners: list[FocusListener] = field(default_factory=list)

    def emit(self, event: str, **data: Any) -> None:
        for listener in list(self.listeners):
            listener(event, data)

    def regain(self, target: FocusTarget) -> float:
        """Return once ``target`` has the focus again (taken back or given back) and its
        picture is uncovered, with the seconds waited; or raise ``FocusLost`` (the policy
        does not wait) or ``EmulatorError`` (the window is gone)."""
        started = time.monotonic()
        grabbed = _grabbed(target)
        covered = not grabbed and _covered(target)
        reason = "grab" if grabbed else "covered" if covered else "focus"
        self.emit({"grab": "grabbed", "covered": "covered", "focus": "lost"}[reason])
        paused = False
        watched = started
        while True:
            if not target.window_exists():
                raise EmulatorError(
                    "the Fuse window has gone (Fuse stopped?)",
                    hint="the run can resume from the last level code",
                )
            waited = time.monotonic() - started
            grabbed = _grabbed(target)
            covered = _covered(target)
            if not grabbed and not covered and target.focused():
                self.emit("regained", how="returned", waited_s=waited, paused=paused, reason=reason)
                return waited
            if self.take_back and waited >= self.grace_s and not grabbed:
                # "taken_back" only when the bot did something: a cover that went by
                # itself between the checks is found "returned" on the next pass
                acted = _raise(target) if covered else False
                if not target.focused():
                    target.focus()
                    acted = True
                if acted and not _covered(target) and target.focused():
                    self.emit(
                        "regained", how="taken_back", waited_s=waited, paused=paused, reason=reason
                    )
                    return waited
            if not self.wait and (grabbed or not self.take_back or waited >= self.grace_s):
                if grabbed:
                    raise FocusLost(
                        "another program holds the keyboard (a screen locker or a password "
                        "prompt?), so no key was sent",
                        hint="close or unlock it, then run the bot again",
                    )
                if covered:
                    raise FocusLost(
                        "another window covers the Fuse picture, so no key was sent",
                        hint="move that window off Fuse (or do not use the desktop while "
                        "the bot plays)",
                    )
                raise FocusLost(
                    "the Fuse window does not have the keyboard focus, so no key was sent",
                    hint="click the Fuse window (or do not use the desktop while the bot plays)",
                )
            if self.timeout_s is not None and waited >= self.timeout_s:
                raise FocusLost(
                    f"{_what_blocks(grabbed, covered)} for {waited:.0f} s, so the bot stopped",
                    hint="keep the Fuse window in front with the keyboard focus while the bot "
                    "plays, or give --focus-timeout SECONDS (0: wait for ever)",
                )
            if not paused:
                paused = True
                self.emit("paused", covered=covered, grabbed=grabbed)
                watched = time.monotonic()
            elif time.monotonic() - watched >= self.watch_s:
                watched = time.monotonic()
                self.emit("waiting", waited_s=waited)  # a listener may look at the game
            self._pause(target, waited)

    def _pause(self, target: FocusTarget, waited: float) -> None:
        """Until something may have changed: a target that is told of changes (an X key
        driver: ``wait_for_change``) wakes on them, at the latest when the grace, the
        timeout or the next "waiting" is due; any other is asked again every
        ``poll_s``."""
        wait = getattr(target, "wait_for_change", None)
        if wait is None:
            interrupts.sleep(self.poll_s)
            return
        due = [self.watch_s]
        if self.take_back and waited < self.grace_s:
            due.append(self.grace_s - waited)
        if self.timeout_s is not None and waited < self.timeout_s:
            due.append(self.timeout_s - waited)
        wait(max(min(due), 0.0))
