"""A pure-Python stand-in for the practice game, for the player's unit tests only.

It draws frames to LOGO-GAME.md section 2 and reacts to key presses, with optional
dropped and doubled presses, on the wall clock or on a ``VirtualTime`` the test runs.
The end-to-end tests play the real game in Fuse.
"""

from __future__ import annotations

import random
import select
import time
from collections.abc import Callable

import numpy as np

from logo_bot.bot.profile import Profile
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming
from logo_bot.solvers.board import EMPTY, Board, act, undo
from tests.bot.fake_frames import draw


class FakeKeys(KeyDriver):
    def __init__(self, game: FakeGame) -> None:
        super().__init__(KeyTiming(0, 0))
        self.game = game
        self.sent: list[str] = []

    def check_focus(self) -> None:
        return None

    def _send(self, key: str, down: bool) -> bool:
        if down:
            self.sent.append(key)
            self.game.key(key)
        self.game.held = (key, self.game.clock(), 0) if down else None
        return True


class VirtualTime:
    """Time that moves only when the code waits: ``monotonic`` and ``perf_counter`` read
    it, ``sleep`` moves it on at once (by at least ``tick_s``, as a sleep of 0 yields to the
    scheduler). Put in place of the ``time`` module of the modules under test, what they
    see of time follows from what they asked to wait, not from how busy the machine is."""

    def __init__(self, start: float = 1000.0, tick_s: float = 0.0001) -> None:
        self.now = start
        self.tick_s = tick_s
        self._reads = 0  # since the last sleep

    def monotonic(self) -> float:
        self._reads += 1
        if self._reads > 100_000:
            raise RuntimeError("a loop reads the virtual clock without ever sleeping")
        return self.now

    perf_counter = monotonic

    def sleep(self, seconds: float) -> None:
        self._reads = 0
        self.now += max(seconds, self.tick_s)

    def select(self, rlist: list, wlist: list, xlist: list, timeout: float) -> tuple:
        """``select.select``: what is ready now, else a sleep of ``timeout``."""
        ready = select.select(rlist, wlist, xlist, 0)
        if not any(ready):
            self.sleep(timeout)
        return ready


class FakeGame:
    """One level of the game; ``drop`` and ``double`` are per-press probabilities. With
    ``late`` a doubled press shows only after the next frame is grabbed, as when Fuse
    takes in the second press a frame after the bot looked; like the practice game's
    key queue, it still comes before any key pressed after it."""

    def __init__(
        self,
        profile: Profile,
        target: Board,
        drop: float = 0.0,
        double: float = 0.0,
        seed: int = 0,
        flash_period_s: float = 0.004,
        late: bool = False,
        repeat: tuple[float, float] | None = None,
        clock: Callable[[], float] = time.monotonic,
        alternates: bool = True,
    ) -> None:
        self.profile = profile
        self.clock = clock
        self.vision = Vision(profile, 1)
        self.keys = FakeKeys(self)
        self.frame_s = 0.0005
        self.target = target
        self.board = Board.empty(target.rows, target.cols)
        self.cursor = (1, 1)
        self.stack: list[tuple[int, int]] = []
        self.rng = random.Random(seed)
        self.drop, self.double = drop, double
        self.flash_period_s = flash_period_s
        self.presses = 0
        self.done = False
        self.dropped = self.doubled = 0
        self.late = late
        self.pending: list[str] = []
        self.repeat = repeat  # a held key moves again after (delay, every) seconds
        self.held: tuple[str, float, int] | None = None  # key, when down, repeats so far
        self.alternates = alternates  # False: entered with the default controls, which
        # ignore the cursor-keys controls' second keys

    def key(self, name: str) -> None:
        while self.pending:  # the game takes its keys in the order they went down
            self.apply(self.pending.pop(0))
        if self.rng.random() < self.drop:
            self.dropped += 1
            return
        doubled = self.rng.random() < self.double
        self.doubled += doubled
        self.apply(name)
        if doubled and self.late:
            self.pending.append(name)
        elif doubled:
            self.apply(name)

    def apply(self, name: str) -> None:
        k = self.profile.keys
        if name in k.alternates.values():  # the cursor-keys controls' second keys
            if not self.alternates:
                return
            name = k.other(name) or name
        r, c = self.cursor
        self.presses += 1
        if self.done:
            return
        if name == k.up:
            self.cursor = (max(1, r - 1), c)
        elif name == k.down:
            self.cursor = (min(self.target.rows, r + 1), c)
        elif name == k.left:
            self.cursor = (r, max(1, c - 1))
        elif name == k.right:
            self.cursor = (r, min(self.target.cols, c + 1))
        elif name == k.act and self.board[self.cursor] == EMPTY:
            self.board = act(self.board, self.cursor)
            self.stack.append(self.cursor)
        elif name == k.reset and self.stack:
            self.board = undo(self.board, self.stack.pop())
        if self.board == self.target:
            self.done = True

    def frame(self) -> np.ndarray:
        if self.repeat and self.held:
            key, down, repeats = self.held
            delay, every = self.repeat
            now = self.clock()
            due = int((now - down - delay) / every) + 1
            if now - down >= delay and due > repeats:
                self.held = (key, down, due)
                for _ in range(due - repeats):
                    self.apply(key)
        flash = int(self.clock() / self.flash_period_s) % 2 == 1
        if self.done:
            shown = draw(None, self.board, cursor=None)
        else:
            shown = draw(self.target, self.board, self.cursor, flash)
        while self.pending:
            self.apply(self.pending.pop(0))
        return shown
