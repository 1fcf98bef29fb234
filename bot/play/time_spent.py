"""Where a run's wall time goes: seconds per phase (a level, the screens between two levels,
the key probe, ...) and, inside each phase, per kind of work (keys held, grabs, reading the
picture, waiting for a frame, planning, ...).

Every second is charged to exactly one (phase, kind): the innermost kind open when it
passes, so the parts of a phase add up to its time. Opening or closing a kind costs one
``perf_counter`` call and a dict update (a few per key burst), and only the thread that
made the accumulator is measured (a video capture thread's grabs are not the loop's).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

OUTSIDE = "outside"  # the phase before any phase is opened
REST = "other"  # the kind of a phase's time no other kind claims


class _Span:
    """A reusable context manager that opens a phase or a kind on ``spent``."""

    __slots__ = ("name", "phase", "spent")

    def __init__(self, spent: TimeSpent, name: str, phase: bool) -> None:
        self.spent, self.name, self.phase = spent, name, phase

    def __enter__(self) -> None:
        self.spent._open(self.name, self.phase)

    def __exit__(self, *exc: object) -> None:
        self.spent._close()


class TimeSpent:
    """Seconds per phase and kind (``seconds[phase][kind]``), how often each phase began
    (``times``) and each kind in it (``counts``); ``phase(name)`` and ``on(kind)`` are
    context managers."""

    def __init__(
        self, clock: Callable[[], float] = time.perf_counter, measure: bool = True
    ) -> None:
        self.clock = clock
        self.seconds: dict[str, dict[str, float]] = {}
        self.counts: dict[str, dict[str, int]] = {}
        self.times: dict[str, int] = {}
        self._thread = threading.get_ident() if measure else None  # the measured thread
        self._stack: list[tuple[str, str]] = [(OUTSIDE, REST)]  # (phase, kind), innermost last
        self._mark = clock()
        self._spans: dict[tuple[str, bool], _Span] = {}

    def phase(self, name: str) -> _Span:
        """A phase of the run; its time is ``other`` unless a kind inside claims it."""
        return self._span(name, True)

    def on(self, kind: str) -> _Span:
        """A kind of work inside the current phase."""
        return self._span(kind, False)

    def _span(self, name: str, phase: bool) -> _Span:
        span = self._spans.get((name, phase))
        if span is None:
            span = self._spans[(name, phase)] = _Span(self, name, phase)
        return span

    def _charge(self) -> None:
        now = self.clock()
        phase, kind = self._stack[-1]
        parts = self.seconds.setdefault(phase, {})
        parts[kind] = parts.get(kind, 0.0) + now - self._mark
        self._mark = now

    def _open(self, name: str, phase: bool) -> None:
        if threading.get_ident() != self._thread:
            return
        self._charge()
        if phase:
            self.times[name] = self.times.get(name, 0) + 1
            self._stack.append((name, REST))
            return
        where = self._stack[-1][0]
        counts = self.counts.setdefault(where, {})
        counts[name] = counts.get(name, 0) + 1
        self._stack.append((where, name))

    def _close(self) -> None:
        if threading.get_ident() != self._thread or len(self._stack) == 1:
            return
        self._charge()
        self._stack.pop()

    def move(
        self, source: str, parts: Mapping[str, float], times: Mapping[str, int] | None = None
    ) -> None:
        """Seconds that a lower layer measured inside kind ``source`` (a key burst's
        holds and gaps, say): moved from ``source`` to each of ``parts`` in this phase;
        ``times`` counts how often some of them began (as ``on`` would have)."""
        if threading.get_ident() != self._thread:
            return
        phase = self._stack[-1][0]
        spent = self.seconds.setdefault(phase, {})
        for kind, seconds in parts.items():
            if seconds > 0:
                spent[kind] = spent.get(kind, 0.0) + seconds
                spent[source] = spent.get(source, 0.0) - seconds
        if times:
            counts = self.counts.setdefault(phase, {})
            for kind, began in times.items():
                counts[kind] = counts.get(kind, 0) + began

    def as_dict(self) -> dict[str, Any]:
        """For run.json: per phase its seconds, how often it began, its parts and how
        often each began (the time still running is charged first)."""
        if threading.get_ident() == self._thread:
            self._charge()
        out: dict[str, Any] = {}
        for phase, parts in self.seconds.items():
            out[phase] = {
                "seconds": round(sum(parts.values()), 4),
                "times": self.times.get(phase, 0),
                "parts": {k: round(v, 4) for k, v in sorted(parts.items()) if v},
                "counts": dict(sorted(self.counts.get(phase, {}).items())),
            }
        return out


IDLE = TimeSpent(measure=False)  # measures nothing: observations made outside an environment
