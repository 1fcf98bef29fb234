"""The end of a tape's loading, seen on the border.

While a tape plays, the ROM's loader (and nearly every other) paints the border in
stripes: every frame of a pilot tone or of data shows several colours down the border.
With an input recording running, Fuse loads in real time, at its top speed while the
tape plays (fast loading): the wall time that takes depends on how busy the machine is,
so no fixed wait can say that the game has loaded. A key typed too early is BREAK to the
loader. Between two blocks the border is plain for about a second of tape, so the tape
is taken to have ended once the border has stayed plain for longer than that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.errors import EmulatorError

log = logging.getLogger(__name__)

BORDER_X = 8  # a column inside the left border (Fuse window pixels at 1x)
STRIPE_SPREAD = 48  # two colours of one column further apart than this: stripes
SAY_EVERY_S = 10.0  # a log line this often while the tape loads


def loading_stripes(frame: np.ndarray, scale: int) -> bool:
    """Whether the border shows loading stripes: its left column is not one colour."""
    column = frame[:, BORDER_X * scale].astype(np.int16)
    return bool((column.max(axis=0) - column.min(axis=0)).max() > STRIPE_SPREAD)


@dataclass
class TapeEnd:
    """Waits until the border has been plain for ``frames`` emulated frames.

    ``look`` grabs the picture; ``wait_drawn(until)`` waits until Fuse draws or until
    ``until`` (``time.monotonic``); ``frames_per_s`` says how fast Fuse emulates now.
    """

    look: Callable[[], np.ndarray]
    wait_drawn: Callable[[float], object]
    frames_per_s: Callable[[], float]
    scale: int
    longest_s: float = 300.0  # a 48K tape at normal speed is about five minutes
    tape: bool | None = True  # a tape was given (False: a snapshot; None: not known)
    no_tape_s: float = 10.0  # stripes with no tape given: not a tape, said sooner

    def wait(self, frames: float) -> bool:
        """Return once the border has shown no stripes for ``frames`` emulated frames
        (True when stripes were seen, a tape loaded); ``EmulatorError`` after
        ``longest_s`` of stripes."""
        started = last = said = time.monotonic()
        quiet, seen = 0.0, False
        while True:
            striped = loading_stripes(self.look(), self.scale)
            now = time.monotonic()
            per_s = self.frames_per_s()
            quiet = 0.0 if striped else quiet + (now - last) * per_s
            seen = seen or striped
            last = now
            if quiet >= frames:
                return seen
            if self.tape is False and now - started > self.no_tape_s:
                raise EmulatorError(
                    f"the picture's border kept changing for {self.no_tape_s:.0f} s, and the "
                    "game was given as a snapshot, not a tape: the bot may be reading "
                    "something else than the game's picture",
                    hint="run `logo-bot show` to see what the bot reads in the Fuse window",
                )
            if now - started > self.longest_s:
                raise EmulatorError(
                    f"the border kept its loading stripes for {self.longest_s:.0f} s: a tape "
                    "that fails to load may play on and on",
                    hint="check the tape in Fuse by hand",
                )
            if now - said >= SAY_EVERY_S and self.tape is not False:
                what = "the tape is loading" if self.tape else "the border shows loading stripes"
                log.info("%s (%.0f s so far)", what, now - started)
                said = now
            if striped:
                interrupts.sleep(1 / per_s)  # loading: a look a frame is plenty
            else:
                self.wait_drawn(now + (frames - quiet) / per_s)
