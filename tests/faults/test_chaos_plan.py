"""Fault plans and the chaos wrapper on fakes: where and how often faults fire."""

from __future__ import annotations

import signal
from dataclasses import dataclass, field

import pytest

from faults.chaos import ChaosEnv, FaultPlan


def test_spread_puts_faults_on_distinct_levels_reproducibly():
    cost = {n: 100 - n for n in range(1, 101)}.get  # later levels time out sooner
    plan = FaultPlan.spread(range(2, 101), kills=3, thefts=5, timeouts=1, seed=4, stall_cost=cost)
    chosen = [*plan.kills, *plan.thefts, *plan.timeouts]
    assert len(chosen) == len(set(chosen)) == 9
    assert plan.timeouts[0] > 75, "a timeout goes to a level whose clock runs out soonest"
    again = FaultPlan.spread(range(2, 101), kills=3, thefts=5, timeouts=1, seed=4, stall_cost=cost)
    assert again == plan
    assert FaultPlan.spread(range(2, 101), kills=3, seed=5).kills != plan.kills
    with pytest.raises(ValueError, match="need as many levels"):
        FaultPlan.spread(range(1, 3), kills=3)


@dataclass
class Process:
    pid: int = 4242
    signals: list[int] = field(default_factory=list)

    def send_signal(self, sig: int) -> None:
        self.signals.append(sig)


@dataclass
class Fuse:
    process: Process = field(default_factory=Process)


@dataclass
class Session:
    fuse: Fuse = field(default_factory=Fuse)


@dataclass
class Obs:
    screen: str | None = None


class Env:
    def __init__(self):
        self.notes, self.steps, self.screens = [], [], iter(["time_up"])

    def note(self, event, **data):
        self.notes.append((event, data))

    def step(self, keys, expect=None, timeout_frames=6):
        self.steps.append(list(keys))
        return "stepped"

    def observe(self):
        return Obs(next(self.screens, "time_up"))


class Thief:
    def __init__(self):
        self.calls = []

    def steal_later(self, delay, hold):
        self.calls.append((delay, hold))


def play_level(chaos: ChaosEnv, level: int, steps: int = 8) -> list:
    chaos.note("level_shown", level=level)
    return [chaos.step(["p"]) for _ in range(steps)]


def test_each_fault_fires_once_in_its_level_even_when_the_level_is_replayed():
    env, session, thief = Env(), Session(), Thief()
    plan = FaultPlan(kills=(3,), thefts=(4,), timeouts=(5,), seed=2)
    chaos = ChaosEnv(env, session, plan, thief)  # type: ignore[arg-type]
    play_level(chaos, 2)
    assert not chaos.counts and len(env.steps) == 8
    play_level(chaos, 3)
    chaos.join()
    assert session.fuse.process.signals == [signal.SIGKILL]
    play_level(chaos, 3)  # the level again after the restart: no second kill
    chaos.join()
    assert session.fuse.process.signals == [signal.SIGKILL]
    play_level(chaos, 4)
    assert len(thief.calls) == 1 and thief.calls[0][0] < 0.06
    results = play_level(chaos, 5)
    stalled = [r for r in results if r != "stepped"]
    assert len(stalled) == 1 and stalled[0].met is False and stalled[0].keys == ()
    assert stalled[0].info == {"stalled": "time_up"}
    assert chaos.counts == {"fuse_kill": 1, "focus_theft": 1, "timeout": 1}
    assert [d["kind"] for e, d in env.notes if e == "fault"] == [
        "fuse_kill",
        "focus_theft",
        "timeout",
    ]


def test_thefts_need_a_thief():
    with pytest.raises(ValueError, match="need a FocusThief"):
        ChaosEnv(Env(), Session(), FaultPlan(thefts=(1,)))  # type: ignore[arg-type]
