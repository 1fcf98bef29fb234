"""The key probe on a running game: keys pressed and the cursor read through the
player's environment, so a recorder writes down the probe's keys like any other
(``bot.play.key_probe`` decides what to press)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from logo_bot.bot import interrupts
from logo_bot.bot.errors import Unreadable
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.key_probe import KeyProbe
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.probe_findings import ProbeResult
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.solvers.board import Cell

log = logging.getLogger(__name__)

# The probe's time on a level, in emulated frames (12 of the game's seconds, whatever the
# speed): the practice game's whole probe takes about 400 at 100 % and 200 % alike, so it
# is done on the run's first level (a budget of 4 s of wall time cut it in two at 100 %,
# and the timing was measured again on the next level); a level gives 30 s and more.
BUDGET_FRAMES = 600


class GameProbeIO:
    """``ProbeIO`` for the level on screen: ``player`` reads the cursor (and notices a
    level that leaves the screen); its environment presses the keys (``press`` and
    ``press_until``, each marked ``probe``)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.env = player.env
        self.settle = player.settle

    @property
    def frame_ms(self) -> float:
        return self.env.frame_s * 1000

    def taps(self, keys: Sequence[str], hold_ms: float, gap_ms: float, rollover: bool) -> None:
        self.env.press(keys, KeyTiming(hold_ms, gap_ms, rollover), probe=True)

    def hold(self, key: str, longest_ms: float, moves: int) -> list[float]:
        env = self.env
        last = self.cursor()
        seen: list[float] = []
        pressed: list[float] = []

        def done() -> bool:
            nonlocal last
            now = time.monotonic()
            if not pressed:
                pressed.append(now)  # first asked just after the key went down
            try:
                cursor = env.observe().cursor
            except Unreadable:
                return False
            if cursor != last:
                seen.append((now - pressed[0]) * 1000)
                last = cursor
            return len(seen) >= moves

        env.press_until(key, done, longest_ms, probe=True)
        return seen

    def cursor(self, expect: Cell | None = None) -> Cell:
        """The cursor once still: at once when it shows ``expect`` (then a look two frames
        later catches a doubled move), else after the game's settle time and more."""
        if expect is not None:
            self.env.wait_for(lambda o: o.cursor == expect, self.settle + 8)
            self.wait_frames(2)
        else:
            self.wait_frames(self.settle + 4)
        return self.player.read("cursor")

    def wait_frames(self, frames: float) -> None:
        interrupts.sleep(max(frames, 0) * self.env.frame_s)

    def now(self) -> float:
        return time.monotonic()


def probe_keys(
    session: Session, player: Player, probe: KeyProbe | None = None, budget_s: float | None = None
) -> tuple[KeyProbe, ProbeResult]:
    """Probe (or go on probing) on the level shown, for ``budget_s`` (by default
    ``BUDGET_FRAMES`` at the session's speed), and play with what was found."""
    if probe is None:
        grid = session.profile.geometry.board
        probe = KeyProbe(GameProbeIO(player), session.profile.keys, grid.rows, grid.cols)
    result = probe.run(BUDGET_FRAMES * session.frame_s if budget_s is None else budget_s)
    timing = result.key_timing(session.keys.timing)
    session.use_timing(timing)
    player.env.note("key_probe", **result.as_dict())
    for line in result.lines():
        log.info("key probe: %s", line)
    return probe, result
