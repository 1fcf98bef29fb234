"""A one-line live progress display on stderr (a line per level when not a terminal)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import TextIO


def clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return (
        f"{seconds // 60}:{seconds % 60:02d}"
        if seconds < 3600
        else (f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}")
    )


@dataclass
class Progress:
    total_levels: int
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    keys: int = 0
    corrections: int = 0
    level: int | None = None
    status: str = ""
    paused_s: float = 0.0  # paused for the focus (``pause``, ``go_on``), not counted ahead
    paused_at: float | None = None  # when the pause under way began

    def pause(self) -> None:
        """The run waits (for the keyboard focus): the time until ``go_on`` is not a
        level's, and the time left is estimated without it."""
        if self.paused_at is None:
            self.paused_at = time.monotonic()

    def go_on(self) -> None:
        if self.paused_at is not None:
            self.paused_s += time.monotonic() - self.paused_at
            self.paused_at = None

    def playing_s(self, now: float) -> float:
        """Seconds since the start, pauses left out."""
        pausing = now - self.paused_at if self.paused_at is not None else 0.0
        return now - self.started - self.paused_s - pausing

    @property
    def live(self) -> bool:
        return self.stream.isatty()

    def line(self) -> str:
        now = time.monotonic()
        elapsed = now - self.started
        left = self.total_levels - self.done
        per_level = self.playing_s(now) / self.done if self.done else 0.0
        eta = f" | ~{clock(per_level * left)} left" if self.done and left else ""
        level = f"level {self.level}" if self.level is not None else "starting"
        return (
            f"{level} ({self.done}/{self.total_levels} done) | keys {self.keys} | "
            f"corrections {self.corrections} | {clock(elapsed)}{eta}"
            + (f" | {self.status}" if self.status else "")
        )

    def update(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self, key, value)
        if self.live:
            self.stream.write("\r\033[K" + self.line())
            self.stream.flush()

    def level_done(self, keys: int, corrections: int) -> None:
        self.done += 1
        self.keys += keys
        self.corrections += corrections
        if self.live:
            self.update()
        else:
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def finish(self, message: str) -> None:
        if self.live:
            self.stream.write("\r\033[K")
        self.stream.write(message + "\n")
        self.stream.flush()
