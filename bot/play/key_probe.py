"""Measuring how a game reads its keys, from the cursor's moves (``--probe-keys``).

A game of 1990 may read the keyboard only every few frames, miss a press shorter than
that, and repeat a held key after a delay. The probe finds out on a level of the game:

1. **hold**: presses of one key, hold = gap, on a ladder of frame counts from short to
   long, until six bursts of presses (three each way) all move exactly once per press;
   the bot then holds a sixth of that rung (at least 10 ms) longer (``margin``);
2. **gap**: with that hold, the shortest gap (up to the hold) that still passes, plus
   the margin;
3. **rollover**: alternating keys with no gap at all (right, down, right, down, and
   back): whether a key going down as another goes up is seen (four bursts of seven
   losing a press say it is not);
4. **repeat**: one key held down long, the cursor watched: whether it moves again,
   after how long, and how often.

It works in emulated frames (the ``ProbeIO``'s ``frame_ms``), stops after ``budget_s``
and goes on where it stopped when run again (on the next level), and puts the cursor
back where it found it. The decisions live here; ``bot.play.probe_io`` does the
pressing and looking (a fake console in the tests stands in for it), and
``bot.play.probe_findings`` holds what was found.

One piece over 300 lines: the four phases share one budget, one ladder of frame counts and
one result, and go on from each other where the last probe stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Protocol

from logo_bot.bot.play.probe_findings import HOLD_FRAMES, LADDER, ProbeResult, Trial
from logo_bot.bot.profile import Keys
from logo_bot.solvers.board import Cell

PRESSES = 3  # presses of one key in a burst
BURSTS = 6  # bursts a rung must pass, three in each direction (18 presses)
# Played on top of the shortest rung that passed. A rung just short of what the game
# needs loses a press in every (need - rung) / need, so six bursts of three presses pass
# it by chance only while that is under about a sixth (5 %). And Fuse runs its frames in
# 10 ms chunks of wall time, so a frame's look at the keys may come up to 10 ms late
# (FUSE-FACTS.md: at 100 % a 30 ms hold loses 1 press in 40, 35 ms none; at 200 % 15 ms
# loses up to 1 in 10, 20 ms none); presses lost in play lengthen the timing
# (``bot.play.timing``). At 100 % the 1.25-frame rung plays 35 ms, at 200 % the 1-frame
# rung 20 ms.
MARGIN = 1 / 6  # of the rung, and at least MARGIN_MS
MARGIN_MS = 10.0
ROLLED_BURSTS = 7  # rolled bursts at most; the majority of them decides
PHASES = ("hold", "gap", "rollover", "repeat")


class ProbeIO(Protocol):
    """Pressing keys and reading the settled cursor (a running game, or a fake)."""

    @property
    def frame_ms(self) -> float: ...

    def taps(self, keys: Sequence[str], hold_ms: float, gap_ms: float, rollover: bool) -> None:
        """Press ``keys`` one after another: each held ``hold_ms``; ``gap_ms`` with no key
        down before each (none before a different key with ``rollover``)."""

    def hold(self, key: str, longest_ms: float, moves: int) -> list[float]:
        """Hold ``key`` until the cursor has moved ``moves`` times or ``longest_ms`` passed;
        the milliseconds after the key went down at which each move was seen."""

    def cursor(self, expect: Cell | None = None) -> Cell:
        """The cursor once the game has shown the effect of the last keys (sooner when it
        shows ``expect``)."""

    def now(self) -> float:
        """Seconds on a clock that runs while the probe presses and waits."""


class KeyProbe:
    """Runs the phases in turn; ``run`` again after a budget ran out goes on from there."""

    def __init__(
        self,
        io: ProbeIO,
        keys: Keys,
        rows: int,
        cols: int,
        ladder: Sequence[float] = LADDER,
    ) -> None:
        self.io = io
        self.keys = keys
        self.rows, self.cols = rows, cols
        self.ladder = tuple(ladder)
        self.trials: list[Trial] = []
        self.presses = 0
        self.seconds = 0.0
        self.hold: float | None = None
        self.hold_rung = 0.0  # the hold's rung, before the margin
        self.gap: float | None = None
        self.rollover: bool | None = None
        self.repeats: bool | None = None
        self.delay: float | None = None
        self.every: float | None = None
        self.failed = False  # no rung was safe: nothing more to probe
        self.phase = 0  # index into PHASES
        self._rung = 0  # the next rung of the ladder to try in this phase
        self._deadline = 0.0
        self._tried = False  # a rung or phase was tried in this run
        self.pos: Cell = (1, 1)
        self._last_dir: str | None = None

    def margin(self, rung: float) -> float:
        """Frames played on top of ``rung``, which passed (a sixth of it, at least 10 ms)."""
        return round(max(rung * MARGIN, MARGIN_MS / self.io.frame_ms), 2)

    # -- running --------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        return self.failed or self.phase >= len(PHASES)

    def run(self, budget_s: float = 5.0) -> ProbeResult:
        """Probe until done or ``budget_s`` has passed (the rung or phase under way is
        finished, and one rung at least is tried); the cursor ends where it was found."""
        started = self.io.now()
        self._deadline = started + budget_s
        self._tried = False
        start = self.pos = self.io.cursor()
        while not self.complete and not self._out_of_time():
            if not self._probe_phase():
                break  # the time ran out on the ladder: the next run goes on from there
            if not self.failed:
                self.phase += 1
                self._rung = 0
        self._go_back(start)
        self.seconds += self.io.now() - started
        return self.result()

    def result(self) -> ProbeResult:
        return ProbeResult(
            frame_ms=self.io.frame_ms,
            hold_frames=self.hold,
            gap_frames=self.gap,
            rollover=self.rollover,
            repeats=self.repeats,
            repeat_delay_frames=self.delay,
            repeat_every_frames=self.every,
            complete=self.complete,
            presses=self.presses,
            seconds=self.seconds,
            trials=tuple(self.trials),
        )

    # -- the phases -----------------------------------------------------------------------
    def _probe_phase(self) -> bool:
        """Probe the phase under way (``PHASES[self.phase]``); False when the time ran out
        before it ended."""
        phase = PHASES[self.phase]
        if phase == "hold":
            return self._probe_hold()
        if phase == "gap":
            return self._probe_gap()
        if phase == "rollover":
            return self._probe_rollover()
        return self._probe_repeat()

    def _out_of_time(self) -> bool:
        """The budget is spent (never before the first rung of a run was tried)."""
        return self._tried and self.io.now() >= self._deadline

    def _climb(self, phase: str, hold: float | None, top: float) -> float | None:
        """The first rung below ``top`` that passes (as the hold too when ``hold`` is
        None), from where the last run stopped; None when none does, or when the time
        ran out (``self._rung`` then still points below ``top``)."""
        while self._rung < len(self.ladder) and self.ladder[self._rung] < top:
            if self._out_of_time():
                return None
            rung = self.ladder[self._rung]
            self._tried = True
            if self._rung_passes(phase, rung if hold is None else hold, rung):
                return rung
            self._rung += 1
        return None

    def _ladder_done(self, top: float) -> bool:
        return self._rung >= len(self.ladder) or self.ladder[self._rung] >= top

    def _probe_hold(self) -> bool:
        rung = self._climb("hold", None, float("inf"))
        if rung is not None:
            self.hold_rung = rung
            self.hold = self.gap = rung + self.margin(rung)  # the gap may come down next
            return True
        if self._ladder_done(float("inf")):
            self.failed = True
            return True
        return False

    def _probe_gap(self) -> bool:
        assert self.hold is not None
        top = self.hold_rung
        rung = self._climb("gap", self.hold, top)
        if rung is not None:
            self.gap = rung + self.margin(rung)
            return True
        return self._ladder_done(top)  # none below the hold passed: the gap stays

    def _probe_rollover(self) -> bool:
        """Rolled bursts: a game that cannot see a key go down as another goes up loses a
        press in every one, while a busy machine loses one now and then (CI once lost two
        in seven). So the majority of ``ROLLED_BURSTS`` decides, as soon as it is reached."""
        assert self.hold is not None and self.gap is not None
        self._tried = True
        passed = failed = 0
        majority = ROLLED_BURSTS // 2 + 1
        while passed < majority and failed < majority:
            trial = self._burst("rollover", self._staircase(), self.hold, self.gap, True)
            if trial.verdict == "ok":
                passed += 1
            else:
                failed += 1
        self.rollover = passed >= majority
        return True

    def _probe_repeat(self) -> bool:
        self._tried = True
        delays: list[float] = []
        everies: list[float] = []
        for _ in range(2):
            key, room = self._widest()
            frame = self.io.frame_ms
            moves = min(room, 4)
            before = self.pos
            seen = self.io.hold(key, HOLD_FRAMES * frame, moves)
            self.presses += 1
            self.pos = self.io.cursor()
            want = self._delta(key, moves)
            self.trials.append(
                Trial("repeat", f"{key} held", HOLD_FRAMES, 0, want, self._d(before))
            )
            moved = abs(self.pos[0] - before[0]) + abs(self.pos[1] - before[1])
            if len(seen) < 2 or moved < 2:
                self.repeats = False
                return True
            delays.append((seen[1] - seen[0]) / frame)
            everies += [(b - a) / frame for a, b in pairwise(seen[1:])]
        self.repeats = True
        self.delay = round(sum(delays) / len(delays) * 2) / 2
        self.every = round(sum(everies) / len(everies) * 2) / 2 if everies else None
        return True

    # -- bursts ---------------------------------------------------------------------------
    def _rung_passes(self, phase: str, hold: float, gap: float) -> bool:
        for _ in range(BURSTS):
            key = self._away()
            trial = self._burst(phase, [key] * PRESSES, hold, gap, False)
            if trial.verdict != "ok":
                return False
        return True

    def _burst(self, phase: str, keys: list[str], hold: float, gap: float, rollover: bool) -> Trial:
        frame = self.io.frame_ms
        want = (0, 0)
        for key in keys:
            dr, dc = self._delta(key, 1)
            want = (want[0] + dr, want[1] + dc)
        before = self.pos
        self.io.taps(keys, hold * frame, gap * frame, rollover)
        self.presses += len(keys)
        self.pos = self.io.cursor((before[0] + want[0], before[1] + want[1]))
        trial = Trial(phase, "".join(keys), hold, gap, want, self._d(before))
        self.trials.append(trial)
        return trial

    def _d(self, before: Cell) -> tuple[int, int]:
        return self.pos[0] - before[0], self.pos[1] - before[1]

    def _delta(self, key: str, n: int) -> tuple[int, int]:
        k = self.keys
        return {k.up: (-n, 0), k.down: (n, 0), k.left: (0, -n), k.right: (0, n)}[key]

    def _room(self, key: str) -> int:
        r, c = self.pos
        k = self.keys
        if self.keys.wrap:
            return (self.rows if key in (k.up, k.down) else self.cols) - 1
        return {k.up: r - 1, k.down: self.rows - r, k.left: c - 1, k.right: self.cols - c}[key]

    def _away(self) -> str:
        """A horizontal key with room for a burst: the other way from the last burst when
        it has room (so both directions are tried), else the way with more room."""
        k = self.keys
        other = k.left if self._last_dir == k.right else k.right
        if self._room(other) < PRESSES:
            other = max((k.left, k.right), key=self._room)
        if self._room(other) < PRESSES:
            other = max((k.up, k.down), key=self._room)
        self._last_dir = other
        return other

    def _widest(self) -> tuple[str, int]:
        key = max((self.keys.left, self.keys.right, self.keys.up, self.keys.down), key=self._room)
        return key, self._room(key)

    def _staircase(self) -> list[str]:
        """Right/left and down/up in turn, two of each, toward the room there is."""
        k = self.keys
        across = k.right if self._room(k.right) >= 2 else k.left
        along = k.down if self._room(k.down) >= 2 else k.up
        return [across, along, across, along]

    def _go_back(self, start: Cell, tries: int = 4) -> None:
        """Move the cursor back to ``start`` (with the safe timing found, else slowly)."""
        hold = self.hold if self.hold is not None else self.ladder[-1]
        gap = self.gap if self.gap is not None else self.ladder[-1]
        frame = self.io.frame_ms
        k = self.keys
        for _ in range(tries):
            if self.pos == start:
                return
            dr, dc = start[0] - self.pos[0], start[1] - self.pos[1]
            keys = [k.down if dr > 0 else k.up] * abs(dr) + [k.right if dc > 0 else k.left] * abs(
                dc
            )
            self.io.taps(keys, hold * frame, gap * frame, bool(self.rollover))
            self.pos = self.io.cursor(start)
