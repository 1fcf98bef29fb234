"""Driving the game's menus: the profile's start sequence, with a name and a code."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from bot.errors import BotError
from bot.keys import KeyDriver


def expand_steps(
    steps: Iterable[dict[str, Any]],
    tables: dict[str, Iterable[dict[str, Any]]],
    name: str,
    code: str | None,
) -> list[tuple[str, Any]]:
    """Flatten a profile sequence into ("keys", [...]) and ("wait", seconds) steps.

    ``{steps = "code"}`` inserts the ``code`` table only when a code is given;
    ``{text = ...}`` has ``{name}`` and ``{code}`` filled in.
    """
    out: list[tuple[str, Any]] = []
    for step in steps:
        if "key" in step:
            out.append(("keys", [str(step["key"])]))
        elif "text" in step:
            text = str(step["text"]).format(name=name, code=code or "")
            out.append(("keys", [("space" if ch == " " else ch.lower()) for ch in text]))
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


def run_steps(
    keys: KeyDriver,
    steps: list[tuple[str, Any]],
    frame_s: float,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Press and wait as ``steps`` say (waits are emulated seconds); returns keys sent."""
    sent = 0
    for kind, value in steps:
        if kind == "keys":
            keys.burst(value)
            sent += len(value)
        else:
            sleep(value * 50.08 * frame_s)
    return sent
