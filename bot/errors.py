"""Every error the bot raises for things a user can fix, and the one table of exit codes.

Commands turn a ``BotError`` into its ``exit_code`` and print ``str(error)`` without a
traceback; ``EXIT_CODES`` is what ``logo-bot --help`` and the README list.
"""

from __future__ import annotations

import shutil
from enum import IntEnum
from typing import Any


class Exit(IntEnum):
    """logo-bot's exit statuses."""

    OK = 0
    FAILED = 1
    USAGE = 2
    INPUT = 3
    DISPLAY = 4
    FUSE = 5
    FOCUS = 6
    UNREADABLE = 7
    GAVE_UP = 8
    STOPPED = 130


EXIT_CODES: dict[Exit, str] = {
    Exit.OK: "done: every level asked for was played",
    Exit.FAILED: "not every level was done (run.json says which), or another failure",
    Exit.USAGE: "usage: arguments that do not make sense (a level out of range, an unknown code, "
    "a bad --set)",
    Exit.INPUT: "input: a missing or bad ROM, tape, snapshot, level file, profile or screenshot",
    Exit.DISPLAY: "display: no X display to use (none set, cannot be opened, Wayland without "
    "XWayland or a native-Wayland Fuse, no Xvfb), or it went away during the run",
    Exit.FUSE: "Fuse: missing, would not start, or died; or a tool its files need (fmfconv, "
    "and ffmpeg for the video)",
    Exit.FOCUS: "focus: Fuse lacked the keyboard focus (or another program held the "
    "keyboard) for --focus-timeout, or Fuse's own menu stayed open for 10 minutes",
    Exit.UNREADABLE: "unreadable: the screen is not the game the profile describes (or "
    "Fuse draws no picture: a tiling desktop sized its window)",
    Exit.GAVE_UP: "gave up: a level or the menus failed --max-attempts times in a row",
    Exit.STOPPED: "stopped: Ctrl-C, SIGTERM, SIGHUP or the abort key",
}


def exit_codes_help() -> str:
    """The exit-code table as lines for ``--help``."""
    return "exit status:\n" + "\n".join(f"  {int(c):>3}  {text}" for c, text in EXIT_CODES.items())


class BotError(Exception):
    """A failure with a message that says what happened and what to do."""

    exit_code: Exit = Exit.FAILED

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message if hint is None else f"{message}\n  what to do: {hint}")


class UsageError(BotError):
    """Arguments that do not make sense (a level out of range, an unknown code, a bad --set)."""

    exit_code = Exit.USAGE


class InputError(BotError):
    """A file the user gave or named that is missing or wrong: ROM, tape, snapshot, level
    file, profile, font, screenshot or recording."""

    exit_code = Exit.INPUT


class ProfileError(InputError):
    """A calibration profile (or a ``--set`` of it) that cannot be used."""


class RzxError(InputError):
    """An RZX input recording that cannot be read or cut."""


class DisplayError(BotError):
    """No usable X display (none set, cannot be opened, Wayland without XWayland, no Xvfb, no
    XTEST)."""

    exit_code = Exit.DISPLAY


class DisplayLost(DisplayError):
    """The X display went away while the bot used it: its X server ended (a logout, a
    crash, or it was stopped). One line, no hint: there is nothing to do but run again."""

    def __init__(self, display: str | None) -> None:
        self.display = display
        where = f"the X display {display}" if display else "the X display"
        super().__init__(f"{where} was lost: its X server ended (a logout, a crash, or a stop)")


class EmulatorError(BotError):
    """Fuse is missing, would not start, or died."""

    exit_code = Exit.FUSE


class MovieError(EmulatorError):
    """Fuse's movie (FMF) could not be decoded (fmfconv missing or failing)."""


class VideoError(EmulatorError):
    """No way to write the MP4 (ffmpeg and OpenCV both missing or failing)."""


class FocusLost(BotError):
    """The Fuse window does not have input focus, so no key may be sent."""

    exit_code = Exit.FOCUS


class FuseMenuOpen(FocusLost):
    """Fuse's own menu stayed open over the game longer than the bot waits for it: a key
    would go to the menu, not to the game."""


class Unreadable(BotError):
    """A frame the bot cannot read; ``reason`` says what did not fit."""

    exit_code = Exit.UNREADABLE

    def __init__(self, reason: str, cell: Any = None, *, hint: str | None = None) -> None:
        self.reason = reason
        self.cell = cell
        super().__init__(reason, hint=hint)


class LevelFailed(BotError):
    """A level the bot could not finish; ``reason`` says why in words."""

    exit_code = Exit.GAVE_UP

    def __init__(self, reason: str, obs: Any = None) -> None:
        self.reason = reason
        self.obs = obs
        super().__init__(reason)


class LevelGone(LevelFailed):
    """The level left the screen while it was being played; ``screen`` names what shows
    instead (``time_up``, ``game_over``, ...), or is None when it is no known screen."""

    def __init__(self, reason: str, obs: Any, screen: str | None) -> None:
        super().__init__(reason, obs)
        self.screen = screen


class MenuFailed(BotError):
    """The menus did not reach the level asked for."""

    exit_code = Exit.GAVE_UP


class GaveUp(BotError):
    """A level failed ``--max-attempts`` times in a row, or the game never showed."""

    exit_code = Exit.GAVE_UP


def installed(program: str, package: str, error: type[BotError], why: str = "") -> str:
    """The path of ``program``, or ``error`` saying it is not installed (``why`` it is
    needed) and which Debian ``package`` brings it."""
    path = shutil.which(program)
    if path is None:
        raise error(
            f"{program} is not installed{why}",
            hint=f"run ./scripts/setup.sh (or: sudo apt-get install {package})",
        )
    return path
