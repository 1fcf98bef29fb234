"""Driving the game's menus: the profile's start sequence, with a name, a code and checks.

A step presses keys, waits, or checks a screen field. Where the profile can read the
screen, a step says what it leads to (``until``: a screen such as ``menu``, or
``level``) and is pressed again until that shows, and a table of steps can end with a
``check`` and be run again (``retries``) while the check fails: so lost and doubled
presses in the menus are corrected like those in play. A key whose screen already shows
is not pressed; ``until = "!name"`` presses until that screen is gone. Without them a step is
pressed once (the profile of the original tape, whose screens are not known).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from logo_bot.bot.errors import MenuFailed, ProfileError, Unreadable
from logo_bot.bot.frames import FPS


@dataclass(frozen=True)
class Step:
    keys: tuple[str, ...] = ()
    text: str = ""  # what the keys type, when they type a text
    echo: str | None = None  # the screen field where typed text shows (checked per key)
    within: str | None = None  # the screen shown while that text is being typed
    delete: str = ""  # the key that takes a typed character back
    wait: float = 0.0  # emulated seconds
    until: str | None = None  # keys: pressed until this screen (or "level"; "!x": not x) shows
    check: str | None = None  # a screen field that must read ``equals`` by now
    equals: str = ""
    group: tuple[Step, ...] = ()  # a table of steps, run again while a check in it fails
    retries: int = 0


def expand_steps(
    steps: Iterable[dict[str, Any]],
    tables: dict[str, Iterable[dict[str, Any]]],
    name: str,
    code: str | None,
    level: int | None = None,
) -> list[Step]:
    """The profile's sequence as ``Step``s.

    ``{steps = "code"}`` inserts the ``code`` table only when a code is given; texts and
    ``equals`` have ``{name}``, ``{code}`` and ``{level}`` filled in.
    """
    values = {"name": name, "code": code or "", "level": "" if level is None else level}
    out: list[Step] = []
    for step in steps:
        until = str(step["until"]) if "until" in step else None
        if "key" in step:
            out.append(Step(keys=(str(step["key"]),), until=until))
        elif "text" in step:
            text = str(step["text"]).format(**values)
            out.append(
                Step(
                    keys=tuple(_key_of(ch) for ch in text),
                    text=text,
                    until=until,
                    echo=step.get("echo"),
                    within=step.get("within"),
                    delete=str(step.get("delete", "")),
                )
            )
        elif "wait" in step:
            out.append(Step(wait=float(step["wait"])))
        elif "check" in step:
            equals = str(step.get("equals", "")).format(**values)
            out.append(Step(check=str(step["check"]), equals=equals))
        elif "steps" in step:
            table = str(step["steps"])
            if table not in tables:
                raise ProfileError(f"the start sequence refers to unknown steps {table!r}")
            if table != "code" or code:
                group = expand_steps(tables[table], tables, name, code, level)
                out.append(Step(group=tuple(group), retries=int(step.get("retries", 0))))
        else:
            raise ProfileError(f"a start step must have key, text, wait, check or steps: {step!r}")
    return out


def flat_keys(steps: Iterable[Step]) -> list[str]:
    """Every key the steps press once, in order (for display and tests)."""
    out: list[str] = []
    for step in steps:
        out += flat_keys(step.group) if step.group else list(step.keys)
    return out


class MenuEnv(Protocol):
    """What the menu driver needs: ``bot.play.env.LogoEnv`` or a wrapper of it."""

    def step(self, keys: Any, expect: Any = None, timeout_frames: float = 6) -> Any: ...

    def wait_for(self, expect: Any, timeout_frames: float) -> Any: ...

    def note(self, event: str, **data: Any) -> None: ...


class MenuDriver:
    """Runs steps against a game: presses, waits in emulated time, checks what shows."""

    def __init__(
        self,
        env: MenuEnv,
        wait_frames: Callable[[float], None],
        tries: int = 8,
        until_frames: float = 40,
        slower: Callable[[int], AbstractContextManager[None]] | None = None,
    ) -> None:
        """``wait_frames(n)``: wait while the game emulates ``n`` frames (a session's
        ``wait_frames``). ``slower(n)``: a context in which keys are held and let go longer,
        for the ``n``-th try again of a key that had no effect (a game that reads its keys
        only every few frames misses short presses)."""
        self.env = env
        self.slower = slower or (lambda n: contextlib.nullcontext())
        self.wait_frames = wait_frames
        self.tries = tries
        self.until_frames = until_frames
        self.corrections = 0
        self.keys_sent = 0

    def run(self, steps: Iterable[Step]) -> None:
        for step in steps:
            if step.group:
                self._group(step)
            elif step.echo:
                self._type(step)
            elif step.keys:
                self._press(step)
            elif step.check:
                self._check(step)
            else:
                self.wait_frames(step.wait * FPS)

    def _group(self, step: Step) -> None:
        for attempt in range(step.retries + 1):
            try:
                self.run(step.group)
                return
            except _CheckFailed as failed:
                if attempt == step.retries:
                    raise MenuFailed(
                        f"{failed} (tried {step.retries + 1} times)",
                        hint="check the code and the profile's start sequence",
                    ) from None
                self.corrections += 1
                self.env.note("correction", kind="menu_check", reason=str(failed))

    def _press(self, step: Step) -> None:
        if step.until is None:
            self.env.step(list(step.keys), None, 0)
            self.keys_sent += len(step.keys)
            return
        shows = _shows(step.until)
        for attempt in range(self.tries):
            _, met = self.env.wait_for(shows, 0)
            if met:
                return
            if attempt:
                self.corrections += 1
                self.env.note("correction", kind="menu_key", keys=step.keys, want=step.until)
            with self.slower(attempt):
                result = self.env.step(list(step.keys), shows, self.until_frames)
            self.keys_sent += len(step.keys)
            if result.met:
                return
        raise MenuFailed(
            f"pressed {' '.join(step.keys)} {self.tries} times, "
            f"but the {step.until} screen did not show",
            hint="is this the game the profile describes? (logo-bot show reads the screen)",
        )

    def _type(self, step: Step) -> None:
        """Type ``step.text`` one key at a time, reading the echo after each: a lost key is
        typed again, a doubled one taken back. Stops early if the input ends (a code is
        checked as soon as it is complete); a check after it says whether that was right."""
        want = step.text.upper()
        echo, within = step.echo, step.within
        assert echo is not None

        def typed(obs: Any) -> str:
            return obs.field(echo).replace("_", "").strip().upper()

        def ended(obs: Any) -> bool:
            return within is not None and not obs.shows(within)

        lost = 0  # keys in a row that the echo did not follow
        for _ in range(self.tries * (len(want) + 1)):
            obs, readable = self.env.wait_for(lambda o: ended(o) or isinstance(typed(o), str), 5)
            if not readable:
                continue
            if ended(obs):
                return
            seen = typed(obs)
            if seen == want:
                return
            if want.startswith(seen):
                key = _key_of(want[len(seen)])
            elif step.delete:
                key = step.delete
                self.corrections += 1
                self.env.note("correction", kind="menu_text", want=want, seen=seen)
            else:
                raise MenuFailed(f"typed {seen!r} instead of {want!r} and cannot take it back")
            with self.slower(lost):
                result = self.env.step(
                    [key], lambda o, s=seen: ended(o) or typed(o) != s, self.until_frames
                )
            self.keys_sent += 1
            lost = 0 if result.met else lost + 1
            if not result.met:
                self.corrections += 1
                self.env.note("correction", kind="menu_text", want=want, seen=seen, lost=key)
        raise MenuFailed(f"could not type {want!r}: the {echo} field does not follow the keys")

    def _check(self, step: Step) -> None:
        assert step.check is not None
        name, want = step.check, step.equals

        def agrees(obs: Any) -> bool:
            return _same(obs.field(name), want)

        obs, met = self.env.wait_for(agrees, self.until_frames)
        if not met:
            try:
                seen = obs.field(name)
            except Unreadable as exc:
                seen = f"unreadable ({exc.reason})"
            raise _CheckFailed(f"the {name} field reads {seen!r}, not {want!r}")


class _CheckFailed(Exception):
    pass


def _shows(name: str) -> Callable[[Any], bool]:
    """``obs.shows(name)``, or its opposite for ``"!name"``."""
    if name.startswith("!"):
        return lambda obs: not obs.shows(name[1:])
    return lambda obs: bool(obs.shows(name))


def _key_of(ch: str) -> str:
    return "space" if ch == " " else ch.lower()


def _same(seen: str, want: str) -> bool:
    seen, want = seen.strip(), want.strip()
    if seen.isdigit() and want.isdigit():
        return int(seen) == int(want)
    return seen == want
