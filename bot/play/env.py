"""A small observe/step interface around a running game, with wrappers as in Gymnasium.

There is no ``reset``: a level is reached through the game's own menus (``bot.play.menus``,
driven by the walkthrough), not by restarting an episode. ``step`` presses a burst of
keys and returns the first observation that satisfies an expectation (or the last one
when the game did not show it in time). Every key the bot sends goes through this
interface (``step``, ``hold``, and ``press``/``press_until`` for the key probe, which
times its own looks), so wrappers such as the recorder, which subclass ``EnvWrapper``,
see every key, observation and note (what an observation reads of a frame is in
``bot.play.observation``). One piece: the environment and the wrapper base class are one
interface, each method mirrored in the wrapper, so that a wrapper sees every key.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.play.observation import ByCells, Expectation, Glimpse, Observation, holds
from logo_bot.bot.play.time_spent import TimeSpent
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming

# Without a picture watch (polling), no look before half a frame after a press: a key's
# effect shows on screen no sooner (FUSE-FACTS.md: 5-22 ms at 200 %, 22-43 ms at 100 %).
FIRST_LOOK_FRAMES = 0.5


class Console(Protocol):
    """What the environment needs from a running game (a ``Session``, or a fake)."""

    vision: Vision
    keys: KeyDriver
    frame_s: float

    def frame(self) -> np.ndarray: ...

    def glance(self) -> np.ndarray: ...

    def timed(self, timing: KeyTiming) -> AbstractContextManager[None]: ...


@dataclass(frozen=True)
class StepResult:
    obs: Observation
    met: bool  # the expectation was seen within the timeout
    keys: tuple[str, ...]
    started: float
    ended: float
    info: dict[str, Any] = field(default_factory=dict)
    seen: int | None = None  # keys held until seen: how many the game was seen to take


@dataclass(frozen=True)
class Pressed:
    """Keys pressed without a look at the screen afterwards (``press``, ``press_until``)."""

    keys: tuple[str, ...]
    met: bool  # press_until: ``until`` said done before the longest hold ran out
    started: float
    ended: float
    info: dict[str, Any] = field(default_factory=dict)


class LogoEnv:
    """The game as an environment: ``step(keys, expect)`` and ``observe``. ``spent`` says
    where the time goes: keys (held, up, their X events, the focus checks before a
    burst), grabs, reading, waiting for a frame (``bot.play.time_spent``)."""

    def __init__(self, console: Console, poll_s: float = 0.002) -> None:
        self.console = console
        self.poll_s = poll_s
        self.spent = TimeSpent()
        # a key burst's glimpses (``step_seen``), to be charged to ``grab``: seconds, how many
        self._glimpsed_s, self._glimpses = 0.0, 0
        vision = console.vision
        reader = ScreenReader(vision.profile, vision.scale)
        self.screens = reader if reader.available else None

    @property
    def vision(self) -> Vision:
        return self.console.vision

    @property
    def frame_s(self) -> float:
        """Seconds per emulated frame at the game's speed."""
        return self.console.frame_s

    @property
    def key_timing(self) -> KeyTiming:
        """The timing keys are pressed with now."""
        return self.console.keys.timing

    @property
    def menu_waited_s(self) -> float:
        """The seconds the console waited for Fuse's own menu to close, in all."""
        return float(getattr(self.console, "menu_waited_s", 0.0))

    @property
    def menu_closed_at(self) -> float:  # when it was last seen to close (time.monotonic)
        return float(getattr(self.console, "menu_closed_at", -1e9))

    @property
    def menu_drawn_s(self) -> float:  # the longest Fuse takes to show its menu (none: 0)
        return float(getattr(self.console, "menu_drawn_s", 0.0))

    def observe(self) -> Observation:
        return self._look(self.console.frame)

    def glance(self) -> Observation:
        """The picture now, waiting for no focus or cover: a look while the run is paused."""
        return self._look(self.console.glance)

    def _glimpse(self, timed: bool = True) -> Observation:
        """The level's cells read only where Fuse drew since the last glimpse, where the
        console can (``Session.glimpse``): a ``Glimpse``, whose frame is looked at only
        when asked (a glance: even once Fuse has died, as a failure's picture is taken
        then); else ``observe``. Its time goes to ``grab``: at once, or (not ``timed``: a
        key's, ``step_seen``) added up for the caller to move there, with no span a key."""
        glimpse = getattr(self.console, "glimpse", None)
        if glimpse is not None:
            if timed:
                with self.spent.on("grab"):
                    reading = glimpse()
            else:
                started = time.perf_counter()
                reading = glimpse()
                self._glimpsed_s += time.perf_counter() - started
                self._glimpses += 1
            if reading is not None:  # its frame a glance: the glimpse made a look's checks
                return Glimpse(reading, self.console.glance, self.vision, self.screens, self.spent)
        return self.observe()

    def _look(self, grab: Callable[[], np.ndarray]) -> Observation:
        with self.spent.on("grab"):
            frame = grab()
        vision = self.console.vision
        if self.screens is not None and self.screens.scale != vision.scale:  # Fuse resized
            self.screens = ScreenReader(vision.profile, vision.scale)
        return Observation(frame, vision, self.screens, spent=self.spent)

    def wait_for(self, expect: Expectation, timeout_frames: float) -> tuple[Observation, bool]:
        """Look until ``expect`` holds or ``timeout_frames`` emulated frames pass, again
        each time Fuse has drawn (``wait_drawn``); an expectation ``ByCells`` by glimpses."""
        look = self._glimpse if isinstance(expect, ByCells) else self.observe
        deadline = time.monotonic() + timeout_frames * self.console.frame_s
        paused = self.menu_waited_s
        with self.spent.on("frame_wait"):
            while True:
                obs = None  # the last picture let go first: the watch may then reuse it
                obs = look()
                if holds(expect, obs):
                    return obs, True
                # Fuse emulated nothing while its own menu showed: that time is not waited
                deadline, paused = deadline + self.menu_waited_s - paused, self.menu_waited_s
                if time.monotonic() >= deadline:
                    return obs, False
                self.wait_drawn(deadline)

    def wait_drawn(self, until: float, poll_s: float | None = None) -> bool:
        """Wait until the picture may have changed since the last look (True), or until
        ``until`` (``time.monotonic``; False): the console's own wait where it has one (a
        session is told when Fuse draws), else a pause of ``poll_s`` (by default the
        env's: the tests' fakes)."""
        wait = getattr(self.console, "wait_drawn", None)
        if wait is not None:
            return wait(until)
        interrupts.sleep(self.poll_s if poll_s is None else poll_s)
        return time.monotonic() < until

    def drawn_within(self, seconds: float) -> bool | None:
        """Wait up to ``seconds`` after the last look for Fuse to draw: True when it drew
        (at once), False when it drew nothing (its reports say so), None when nothing
        reports draws (the console's ``drawn_within``, else a pause of ``seconds``)."""
        within = getattr(self.console, "drawn_within", None)
        if within is not None:
            return within(seconds)
        interrupts.sleep(seconds)
        return None

    def _burst(self, keys: Sequence[str]) -> None:
        """Press ``keys``; the burst's time goes to its parts: keys held and up and their
        X events as the driver timed them, the rest to the focus checks before it."""
        driver = self.console.keys
        before = driver.clock.snapshot()
        with self.spent.on("focus_checks"):
            driver.burst(list(keys))
        self.spent.move("focus_checks", driver.clock.since(before))

    def step(
        self, keys: Sequence[str], expect: Expectation | None = None, timeout_frames: float = 6
    ) -> StepResult:
        """Press ``keys`` as one burst, then wait (up to ``timeout_frames`` after the last
        release) for ``expect``; without one, wait ``timeout_frames`` and observe."""
        started = time.monotonic()
        self._burst(keys)
        if expect is None:
            with self.spent.on("frame_wait"):
                interrupts.sleep(timeout_frames * self.console.frame_s)
            obs, met = self.observe(), True
        else:
            obs, met = self.wait_for(expect, timeout_frames)
        return StepResult(obs, met, tuple(keys), started, time.monotonic())

    def step_seen(
        self,
        keys: Sequence[str],
        expects: Sequence[Expectation],
        longest_frames: float,
        ends: Sequence[int] = (),
    ) -> StepResult:
        """Press ``keys`` one after another, each held down until the screen shows
        ``expects[i]`` (then let go, the next key going down at once), or ``longest_frames``
        pass: that key is let go and the rest are not pressed. ``met`` when every key was
        seen; ``keys`` are the keys pressed, ``seen`` how many were seen; the observation
        is the last look. ``ends``: the keys that each end a stretch of the burst (a
        stone's act), for a recorder to write down as soon as it is seen."""
        started = time.monotonic()
        last: list[Observation] = []  # the latest look only

        def seen(i: int) -> bool:
            last.clear()  # let go of the last picture first: the watch may then reuse it
            last.append(self._glimpse(timed=False))
            return holds(expects[i], last[0])

        driver = self.console.keys
        before = driver.clock.snapshot()
        self._glimpsed_s, self._glimpses = 0.0, 0
        frame_ms = self.frame_s * 1000
        with self.spent.on("focus_checks"):
            taps = driver.taps_until(
                list(keys),
                seen,
                longest_frames * frame_ms,
                first_look_ms=FIRST_LOOK_FRAMES * frame_ms,
            )
        parts = driver.clock.since(before) | {"grab": self._glimpsed_s}
        self.spent.move("focus_checks", parts, {"grab": self._glimpses})
        obs = last[0] if last else self.observe()
        met = taps.seen == len(keys)
        pressed = tuple(keys[: taps.pressed])
        info = {"until_seen": True}
        return StepResult(obs, met, pressed, started, time.monotonic(), info, taps.seen)

    def hold(
        self, key: str, expect: Expectation, longest_frames: float, timeout_frames: float = 6
    ) -> StepResult:
        """Hold ``key`` down until ``expect`` holds (a game that repeats a held key moves
        on by itself) or ``longest_frames`` pass, then wait as ``step`` does."""
        started = time.monotonic()

        def done() -> bool:
            return holds(expect, self.observe())

        frame_ms = self.console.frame_s * 1000
        with self.spent.on("keys_held"):  # with the looks at the screen inside
            self.console.keys.hold_down(key, done, longest_frames * frame_ms)
        obs, met = self.wait_for(expect, timeout_frames)
        return StepResult(obs, met, (key,), started, time.monotonic(), {"held": True})

    def press(self, keys: Sequence[str], timing: KeyTiming, **info: Any) -> Pressed:
        """Press ``keys`` as one burst with ``timing`` (for this burst only) and return at
        once, without looking at the screen; ``info`` goes with the keys to the record."""
        started = time.monotonic()
        with self.console.timed(timing):
            self._burst(keys)
        info = {
            "hold_ms": round(timing.hold_ms, 2),
            "gap_ms": round(timing.gap_ms, 2),
            "rollover": timing.rollover,
            **info,
        }
        return Pressed(tuple(keys), True, started, time.monotonic(), info)

    def press_until(
        self, key: str, until: Callable[[], bool], longest_ms: float, **info: Any
    ) -> Pressed:
        """Hold ``key`` down until ``until()`` says so (the caller looks at the screen in
        it) or ``longest_ms`` passes, and return at once."""
        started = time.monotonic()
        met = False

        def done() -> bool:
            nonlocal met
            met = until()
            return met

        with self.spent.on("keys_held"):
            self.console.keys.hold_down(key, done, longest_ms)
        info = {"held": True, "longest_ms": round(longest_ms, 1), **info}
        return Pressed((key,), met, started, time.monotonic(), info)

    def load_tape(self) -> Pressed | None:
        """Type LOAD "" when the Fuse just started holds a tape it cannot load by itself
        (OpenSE BASIC); None when there is nothing to load."""
        type_load = getattr(self.console, "type_load", None)  # a Session's, not in Console
        if type_load is None or not getattr(self.console, "tape_pending", False):
            return None
        started = time.monotonic()
        keys = type_load()
        return Pressed(tuple(keys), True, started, time.monotonic(), {"load": True})

    def note(self, event: str, **data: Any) -> None:
        """An agent-level event (plan, correction, ...); wrappers record it."""

    def close(self) -> None:
        """Nothing to release here; the session owner closes the game."""


class EnvWrapper:
    """Base class for wrappers: forwards the environment's interface to the wrapped one
    (and nothing else: a wrapper sees every key because no key goes around it)."""

    def __init__(self, env: LogoEnv | EnvWrapper) -> None:
        self.env = env

    @property
    def vision(self) -> Vision:
        return self.env.vision

    @property
    def frame_s(self) -> float:
        return self.env.frame_s

    @property
    def spent(self) -> TimeSpent:
        return self.env.spent

    @property
    def key_timing(self) -> KeyTiming:
        return self.env.key_timing

    @property
    def menu_waited_s(self) -> float:
        return self.env.menu_waited_s

    @property
    def menu_closed_at(self) -> float:
        return self.env.menu_closed_at

    @property
    def menu_drawn_s(self) -> float:
        return self.env.menu_drawn_s

    def observe(self) -> Observation:
        return self.env.observe()

    def glance(self) -> Observation:
        return self.env.glance()

    def wait_for(self, expect: Expectation, timeout_frames: float) -> tuple[Observation, bool]:
        return self.env.wait_for(expect, timeout_frames)

    def wait_drawn(self, until: float, poll_s: float | None = None) -> bool:
        return self.env.wait_drawn(until, poll_s)

    def drawn_within(self, seconds: float) -> bool | None:
        return self.env.drawn_within(seconds)

    def step(
        self, keys: Sequence[str], expect: Expectation | None = None, timeout_frames: float = 6
    ) -> StepResult:
        return self.env.step(keys, expect, timeout_frames)

    def step_seen(
        self,
        keys: Sequence[str],
        expects: Sequence[Expectation],
        longest_frames: float,
        ends: Sequence[int] = (),
    ) -> StepResult:
        return self.env.step_seen(keys, expects, longest_frames, ends)

    def hold(
        self, key: str, expect: Expectation, longest_frames: float, timeout_frames: float = 6
    ) -> StepResult:
        return self.env.hold(key, expect, longest_frames, timeout_frames)

    def press(self, keys: Sequence[str], timing: KeyTiming, **info: Any) -> Pressed:
        return self.env.press(keys, timing, **info)

    def press_until(
        self, key: str, until: Callable[[], bool], longest_ms: float, **info: Any
    ) -> Pressed:
        return self.env.press_until(key, until, longest_ms, **info)

    def load_tape(self) -> Pressed | None:
        return self.env.load_tape()

    def note(self, event: str, **data: Any) -> None:
        self.env.note(event, **data)

    def close(self) -> None:
        self.env.close()


def when_seen(
    expects: Sequence[Expectation], hook: Callable[[int, Observation], object]
) -> list[Expectation]:
    """``expects`` for ``step_seen``, each calling ``hook(i, obs)`` when key i is seen (its
    expectation holds): how a wrapper acts inside a burst, a key at a time."""

    def watched(i: int, obs: Observation) -> bool:
        if not expects[i](obs):
            return False
        hook(i, obs)
        return True

    return [partial(watched, i) for i in range(len(expects))]
