"""Lossy keys: a ``KeyDriver`` wrapper that drops, doubles and delays presses (seeded).

It stands where the original bot's author saw trouble, between the bot and the
emulator: a dropped press sends nothing (but takes its time, as a lost press does), a
doubled press is sent twice, and every press may wait up to ``latency_ms`` longer.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from logo_bot.bot.x11.keys import BurstCut, KeyDriver, Taps


@dataclass(frozen=True)
class KeyFaults:
    drop: float = 0.0  # probability that a press is lost
    double: float = 0.0  # probability that a press arrives twice
    latency_ms: float = 0.0  # up to this much extra delay before a press
    seed: int = 0

    @property
    def active(self) -> bool:
        return bool(self.drop or self.double or self.latency_ms)


class FaultyKeys(KeyDriver):
    """Wraps ``inner``; ``counts`` (shared across restarts if given) tallies each fault."""

    def __init__(
        self,
        inner: KeyDriver,
        faults: KeyFaults,
        counts: Counter[str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(inner.timing)
        self.inner = inner
        self.clock = inner.clock  # the time spent pressing is the inner driver's
        self.faults = faults
        self.counts = counts if counts is not None else Counter()
        self.rng = rng or random.Random(faults.seed)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def held(self) -> frozenset[str]:
        return self.inner.held()

    def check_focus(self) -> None:
        self.inner.check_focus()

    def burst(self, keys: Sequence[str]) -> None:
        try:
            self.inner.check_focus()
            for key in keys:
                self.tap(key)
        except BurstCut:
            return

    def fault(self) -> str | None:
        """The fault of the next press ("dropped", "doubled" or None), after its delay."""
        f = self.faults
        if f.latency_ms:
            delay = self.rng.uniform(0, f.latency_ms)
            self.counts["delayed"] += 1
            time.sleep(delay / 1000)
        roll = self.rng.random()
        if roll < f.drop:
            return "dropped"
        return "doubled" if roll < f.drop + f.double else None

    def tap(self, key: str, gap_ms: float | None = None) -> None:
        fault = self.fault()
        if fault == "dropped":
            self.counts["dropped"] += 1
            gap = self.inner.gap_before(key) if gap_ms is None else gap_ms
            time.sleep((self.timing.hold_ms + gap) / 1000)
            return
        self.inner.tap(key, gap_ms)
        if fault == "doubled":
            self.counts["doubled"] += 1
            self.inner.tap(key, gap_ms)

    def chord(self, modifier: str, keys: Sequence[str], gap_ms: float | None = None) -> None:
        self.inner.chord(modifier, keys, gap_ms)

    def hold_down(self, key: str, done: Callable[[], bool], longest_ms: float) -> None:
        self.inner.hold_down(key, done, longest_ms)

    def taps_until(
        self,
        keys: Sequence[str],
        seen: Callable[[int], bool],
        longest_ms: float,
        poll_s: float = 0.001,
        first_look_ms: float = 0.0,
    ) -> Taps:
        """Each key as ``tap`` would fault it: a dropped press is not sent and is never
        seen (the burst ends after ``longest_ms``), a doubled one is tapped again once
        it was seen."""
        taps = Taps()
        for i, key in enumerate(keys):
            fault = self.fault()
            if fault == "dropped":
                self.counts["dropped"] += 1
                taps.pressed += 1
                time.sleep(longest_ms / 1000)
                return taps
            one = self.inner.taps_until(
                [key], lambda _, i=i: seen(i), longest_ms, poll_s, first_look_ms
            )
            taps.pressed += one.pressed
            if not one.seen:
                return taps
            taps.seen += 1
            if fault == "doubled":
                self.counts["doubled"] += 1
                try:
                    self.inner.tap(key)
                except BurstCut:  # a long wait for the focus: the burst ends, as inside
                    return taps
        return taps

    def release_all(self) -> None:
        self.inner.release_all()

    def close(self) -> None:
        self.inner.close()
