"""A schedule of faults and the environment wrapper that fires them in the middle of levels.

``FaultPlan`` says which levels get a Fuse kill (SIGKILL, as a crash), a focus theft
(the sentinel window takes the keyboard focus) or a forced timeout (the bot stalls
until the game shows TIME UP or GAME OVER, as if it had been paused too long), and
how lossy the keys are. ``ChaosEnv`` wraps the environment: when a level with a fault
is shown it picks one of the level's first key bursts or stones and fires the fault
there - kills and thefts from a timer thread a few milliseconds into the burst, a
timeout before a burst held until seen (it may be the rest of the level). Each fault
fires once, even when the level is played again. Every fault is counted and noted.
"""

from __future__ import annotations

import random
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from faults.lossy_keys import KeyFaults
from faults.thief import FocusThief
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv, StepResult, when_seen
from logo_bot.bot.play.observation import Expectation, Observation

KINDS = ("fuse_kill", "focus_theft", "timeout")
NO_KEY_FAULTS = KeyFaults()


@dataclass(frozen=True)
class FaultPlan:
    keys: KeyFaults = NO_KEY_FAULTS
    kills: tuple[int, ...] = ()
    thefts: tuple[int, ...] = ()
    timeouts: tuple[int, ...] = ()
    seed: int = 0
    # a stolen focus is given back after one of these (None: never - the bot must take it)
    theft_holds: tuple[float | None, ...] = (0.3, None)
    # a forced timeout ends once one of these screens shows
    timeout_ends: tuple[str, ...] = ("time_up", "game_over")
    max_stall_s: float = 600.0

    @classmethod
    def spread(
        cls,
        levels: Sequence[int],
        kills: int = 0,
        thefts: int = 0,
        timeouts: int = 0,
        keys: KeyFaults = NO_KEY_FAULTS,
        seed: int = 0,
        stall_cost: Callable[[int], float] | None = None,
        **options: Any,
    ) -> FaultPlan:
        """Faults on distinct random ``levels``; timeouts go to the quarter of the levels
        whose timer runs out soonest (``stall_cost``), so a run does not sit out long ones."""
        rng = random.Random(seed)
        pool = list(levels)
        if kills + thefts + timeouts > len(pool):
            raise ValueError(f"{kills + thefts + timeouts} faults need as many levels")
        cheap = pool
        if stall_cost is not None:
            cheap = sorted(pool, key=stall_cost)[: max(timeouts, len(pool) // 4)]
        timeout_levels = rng.sample(cheap, timeouts)
        rest = [n for n in pool if n not in timeout_levels]
        chosen = rng.sample(rest, kills + thefts)
        return cls(
            keys=keys,
            kills=tuple(sorted(chosen[:kills])),
            thefts=tuple(sorted(chosen[kills:])),
            timeouts=tuple(sorted(timeout_levels)),
            seed=seed,
            **options,
        )

    def at(self, level: int) -> list[str]:
        return [
            kind
            for kind, levels in zip(KINDS, (self.kills, self.thefts, self.timeouts), strict=True)
            if level in levels
        ]


class ChaosEnv(EnvWrapper):
    """Fires the plan's kills, thefts and timeouts during the levels it names."""

    def __init__(
        self,
        env: LogoEnv | EnvWrapper,
        session: Session,
        plan: FaultPlan,
        thief: FocusThief | None = None,
        counts: Counter[str] | None = None,
    ) -> None:
        super().__init__(env)
        if plan.thefts and thief is None:
            raise ValueError("focus thefts need a FocusThief")
        self.session = session
        self.plan = plan
        self.thief = thief
        self.counts: Counter[str] = counts if counts is not None else Counter()
        self.rng = random.Random(plan.seed + 1)
        self.fired: set[tuple[int, str]] = set()
        self.level: int | None = None
        self.steps = 0
        self.due: list[tuple[int, str]] = []
        self.threads: list[threading.Thread] = []

    def note(self, event: str, **data: Any) -> None:
        if event == "level_shown":
            self.level, self.steps = data.get("level"), 0
            kinds = [k for k in self.plan.at(self.level or 0) if (self.level, k) not in self.fired]
            self.due = sorted((self.rng.randint(2, 5), kind) for kind in kinds)
        self.env.note(event, **data)

    def step(
        self, keys: Sequence[str], expect: Expectation | None = None, timeout_frames: float = 6
    ) -> StepResult:
        stalled = self.fire_due()
        return stalled or self.env.step(keys, expect, timeout_frames)

    def step_seen(
        self,
        keys: Sequence[str],
        expects: Sequence[Expectation],
        longest_frames: float,
        ends: Sequence[int] = (),
    ) -> StepResult:
        """A step, and each stretch of its burst seen (a level held until seen is one
        burst, a stone a stretch), counts: a kill or theft due fires from inside the
        burst. A timeout stalls only before a burst, so one due in the level stalls
        before this one (the burst may be the rest of the level)."""
        stalled = self.fire_due(timeouts_now=True)
        if stalled is not None:
            return stalled
        closing = frozenset(ends)

        def counted(i: int, obs: Observation) -> None:
            if i in closing:
                self.fire_due(stall=False)

        watching = when_seen(expects, counted) if closing else expects
        return self.env.step_seen(keys, watching, longest_frames, ends)

    def fire_due(self, stall: bool = True, timeouts_now: bool = False) -> StepResult | None:
        """Count a step and fire the faults due at it (and every timeout of the level with
        ``timeouts_now``); a timeout's stall comes back (one that cannot stall here waits
        for the next step)."""
        self.steps += 1
        now = [d for d in self.due if d[0] <= self.steps or (timeouts_now and d[1] == "timeout")]
        for due in now:
            if due[1] == "timeout" and not stall:
                continue
            self.due.remove(due)
            self.fired.add((self.level or 0, due[1]))
            stalled = self.fire(due[1])
            if stalled is not None:
                return stalled
        return None

    # -- the faults ---------------------------------------------------------------------------
    def fire(self, kind: str) -> StepResult | None:
        self.counts[kind] += 1
        if kind == "fuse_kill":
            process = self.session.fuse.process
            self._later(self.rng.uniform(0.0, 0.03), lambda: _kill(process))
            self.env.note("fault", kind=kind, pid=process.pid)
        elif kind == "focus_theft":
            assert self.thief is not None
            hold = self.rng.choice(self.plan.theft_holds)
            self.thief.steal_later(self.rng.uniform(0.0, 0.05), hold)
            self.env.note("fault", kind=kind, hold_s=hold)
        else:
            until = self.rng.choice(self.plan.timeout_ends)
            self.env.note("fault", kind=kind, until=until)
            return self.stall(until)
        return None

    def stall(self, until: str) -> StepResult:
        """Press nothing until the level's time has run out and ``until`` shows; the
        bot's step then finds the level gone, as after a long pause."""
        started = time.monotonic()
        ends = {"time_up": ("time_up", "game_over", "title"), "game_over": ("game_over", "title")}
        deadline = started + self.plan.max_stall_s
        obs = self.env.observe()
        while obs.screen not in ends.get(until, (until,)) and time.monotonic() < deadline:
            time.sleep(0.05)
            obs = self.env.observe()
        return StepResult(obs, False, (), started, time.monotonic(), {"stalled": until})

    def _later(self, delay_s: float, action: Callable[[], None]) -> None:
        thread = threading.Timer(delay_s, action)
        thread.daemon = True
        thread.start()
        self.threads.append(thread)

    def join(self) -> None:
        for thread in self.threads:
            thread.join()


def _kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the Fuse we started, as a crash would end it (``send_signal`` checks the
    process has not been reaped, so its PID cannot belong to anyone else by now)."""
    process.send_signal(signal.SIGKILL)
