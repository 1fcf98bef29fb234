"""The one error type the bot raises for things a user can fix, and its exit codes."""

from __future__ import annotations


class BotError(Exception):
    """A failure with a message that says what happened and what to do.

    Commands turn it into ``exit_code`` and print ``str(error)`` without a traceback.
    """

    exit_code = 3

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message if hint is None else f"{message}\n  what to do: {hint}")


class UsageError(BotError):
    """Arguments that do not make sense (a level out of range, an unknown code)."""

    exit_code = 2


class DisplayError(BotError):
    """No usable X display (none set, cannot be opened, Wayland, no Xvfb)."""

    exit_code = 4


class EmulatorError(BotError):
    """Fuse is missing, would not start, or died."""

    exit_code = 5


class FocusLost(BotError):
    """The Fuse window does not have input focus, so no key may be sent."""

    exit_code = 6
