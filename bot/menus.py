"""Driving the game's menus: the profile's start sequence, with a name and a code.

Keys and waits are sent as the profile says. Typed text (the name, a code) is read
back from the screen when the profile says where the menu shows it, and corrected:
a lost letter is typed again, a wrong one deleted. Without that, typing is open loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.errors import BotError
from bot.keys import KeyDriver
from bot.profile import Profile, TextSpot
from bot.screens import ScreenReader

FPS = 50.08
FREE = "_"  # how the menu marks the free places of a text being typed


def key_names(text: str) -> list[str]:
    return [("space" if ch == " " else ch.lower()) for ch in text]


def expand_steps(
    steps: Iterable[dict[str, Any]],
    tables: dict[str, Iterable[dict[str, Any]]],
    name: str,
    code: str | None,
) -> list[tuple[str, Any]]:
    """Flatten a profile sequence into ("keys", [...]), ("text", "...") and
    ("wait", seconds) steps.

    ``{steps = "code"}`` inserts the ``code`` table only when a code is given;
    ``{text = ...}`` has ``{name}`` and ``{code}`` filled in.
    """
    out: list[tuple[str, Any]] = []
    for step in steps:
        if "key" in step:
            out.append(("keys", [str(step["key"])]))
        elif "text" in step:
            out.append(("text", str(step["text"]).format(name=name, code=code or "").upper()))
        elif "wait" in step:
            out.append(("wait", float(step["wait"])))
        elif "steps" in step:
            table = str(step["steps"])
            if table not in tables:
                raise BotError(f"the start sequence refers to unknown steps {table!r}")
            if table != "code" or code:
                out += expand_steps(tables[table], tables, name, code)
        else:
            raise BotError(f"a start step must have key, text, wait or steps: {step!r}")
    return out


@dataclass
class TypedText:
    """Reads back what the menu shows of a text being typed."""

    screens: ScreenReader
    frame: Callable[[], np.ndarray]
    field: TextSpot
    accepted: TextSpot | None = None

    def shown(self) -> str | None:
        """The typed text on screen, or None once the menu has accepted it (a code)."""
        frame = self.frame()
        mark = self.accepted
        if mark is not None and self.screens.text_at(frame, mark) == mark.text:
            return None
        return self.screens.text_at(frame, self.field).rstrip(FREE)


def type_checked(
    keys: KeyDriver, text: str, check: TypedText, frame_s: float, attempts: int = 4
) -> int:
    """Type ``text`` and make the menu show it: retype what was lost, delete what is
    wrong. Returns the keys sent; ``BotError`` when the menu will not take it."""
    keys.burst(key_names(text))
    sent = len(text)
    for _ in range(attempts):
        deadline = time.monotonic() + 6 * frame_s
        while (shown := check.shown()) not in (None, text) and time.monotonic() < deadline:
            time.sleep(frame_s / 4)
        if shown is None or shown == text:
            return sent
        fix = ["delete"] * len(shown) if not text.startswith(shown) else []
        fix += key_names(text if fix else text[len(shown) :])
        keys.burst(fix)
        sent += len(fix)
    raise BotError(
        f"the menu did not take {text!r} (it shows {check.shown()!r})",
        hint="check the profile's [start] keys and [start.check] field",
    )


def run_steps(
    keys: KeyDriver,
    steps: list[tuple[str, Any]],
    frame_s: float,
    sleep: Callable[[float], None] = time.sleep,
    check: TypedText | None = None,
) -> int:
    """Press, type and wait as ``steps`` say (waits are emulated seconds); typed text is
    read back and corrected when ``check`` is given. Returns the keys sent."""
    sent = 0
    for kind, value in steps:
        if kind == "keys":
            keys.burst(value)
            sent += len(value)
        elif kind == "text" and check is not None:
            sent += type_checked(keys, value, check, frame_s)
        elif kind == "text":
            keys.burst(key_names(value))
            sent += len(value)
        else:
            sleep(value * FPS * frame_s)
    return sent


def enter_game(
    profile: Profile,
    keys: KeyDriver,
    frame: Callable[[], np.ndarray],
    frame_s: float,
    scale: int,
    name: str,
    code: str | None = None,
) -> int:
    """Wait for the loaded game, then type the start sequence (with ``code`` if given)."""
    time.sleep(profile.start.loaded_wait * FPS * frame_s)
    steps = expand_steps(profile.start.sequence, {"code": profile.start.code}, name, code)
    screens = ScreenReader(profile, scale)
    check = None
    if profile.start.typed_field is not None and screens.available:
        check = TypedText(screens, frame, profile.start.typed_field, profile.start.code_accepted)
    return run_steps(keys, steps, frame_s, check=check)
