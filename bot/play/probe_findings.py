"""What the key probe tried and found: each burst (``Trial``) and the result
(``ProbeResult``), for the events, run.json, ``--save-profile`` and a person to read; and
the two lengths in frames both the probe and its result speak of (``LADDER``,
``HOLD_FRAMES``). ``bot.play.key_probe`` decides what to press."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from logo_bot.bot.frames import FRAME_MS
from logo_bot.bot.x11.keys import KeyTiming

# frames held (and up): a quarter frame past one frame, where a game read every frame
# passes once Fuse's lateness is covered (the margin then costs a quarter frame less at
# 100 %); half a frame or more further on, so that a rung short of a game's need loses a
# press often enough to fail: a 3.5-frame rung would pass a game read every 4 frames
# about one time in ten (18 presses, 1 in 8 lost), and its margin at 100 % (a sixth)
# would not make up the half frame
LADDER = (1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0)
HOLD_FRAMES = 50  # how long a key is held to see whether it repeats


@dataclass(frozen=True)
class Trial:
    """One burst: keys pressed with a hold and gap (frames), the cursor move wanted and seen."""

    phase: str
    keys: str
    hold: float
    gap: float
    want: tuple[int, int]
    seen: tuple[int, int]

    @property
    def verdict(self) -> str:
        if self.phase == "repeat":
            return "repeats" if abs(self.seen[0]) + abs(self.seen[1]) > 1 else "no_repeat"
        if self.seen == self.want:
            return "ok"
        wanted = abs(self.want[0]) + abs(self.want[1])
        moved = abs(self.seen[0]) + abs(self.seen[1])
        return "doubled" if moved > wanted else "lost"


@dataclass(frozen=True)
class ProbeResult:
    """What the probe found, in emulated frames and in milliseconds at ``frame_ms``."""

    frame_ms: float
    hold_frames: float | None  # None: no rung of the ladder was safe
    gap_frames: float | None
    rollover: bool | None  # None: not probed yet
    repeats: bool | None
    repeat_delay_frames: float | None
    repeat_every_frames: float | None
    complete: bool
    presses: int
    seconds: float
    trials: tuple[Trial, ...] = field(default=(), repr=False)

    @property
    def hold_ms(self) -> float | None:
        return None if self.hold_frames is None else round(self.hold_frames * self.frame_ms, 1)

    @property
    def gap_ms(self) -> float | None:
        return None if self.gap_frames is None else round(self.gap_frames * self.frame_ms, 1)

    @property
    def repeat_delay_ms(self) -> float | None:
        frames = self.repeat_delay_frames
        return None if frames is None else round(frames * self.frame_ms, 1)

    @property
    def repeat_every_ms(self) -> float | None:
        frames = self.repeat_every_frames
        return None if frames is None else round(frames * self.frame_ms, 1)

    @property
    def usable(self) -> bool:
        return self.hold_frames is not None and self.gap_frames is not None

    def key_timing(self, fallback: KeyTiming) -> KeyTiming:
        """The timing to play with: what was found, ``fallback``'s for the rest."""
        if not self.usable:
            return fallback
        assert self.hold_ms is not None and self.gap_ms is not None
        rollover = fallback.rollover if self.rollover is None else self.rollover
        return KeyTiming(self.hold_ms, self.gap_ms, rollover)

    def as_dict(self) -> dict[str, Any]:
        """For run.json and the events (trials as compact rows)."""
        out = {k: v for k, v in asdict(self).items() if k != "trials"}
        out.update(
            hold_ms=self.hold_ms,
            gap_ms=self.gap_ms,
            repeat_delay_ms=self.repeat_delay_ms,
            repeat_every_ms=self.repeat_every_ms,
            trials=[
                [t.phase, t.keys, t.hold, t.gap, list(t.want), list(t.seen), t.verdict]
                for t in self.trials
            ],
        )
        out["frame_ms"] = round(self.frame_ms, 3)
        out["seconds"] = round(self.seconds, 2)
        return out

    def lines(self) -> list[str]:
        """What a person reads: the figures, then what they mean."""
        if not self.usable and not self.complete:
            return [f"no timing found yet ({self.presses} presses, {self.seconds:.1f} s)"]
        if not self.usable:
            return [
                f"no safe key timing up to {LADDER[-1]:g} frames held: every rung lost or "
                f"doubled presses ({self.presses} presses, {self.seconds:.1f} s)"
            ]
        out = [
            f"hold {self.hold_ms:g} ms ({self.hold_frames:g} frames), gap {self.gap_ms:g} ms "
            f"({self.gap_frames:g} frames) at {FRAME_MS / self.frame_ms * 100:.0f} % speed"
        ]
        if self.rollover is not None:
            out.append(
                "rollover safe: a different key may go down as the last goes up"
                if self.rollover
                else "no rollover: every press waits the gap"
            )
        if self.repeats is True:
            every = (
                f", then every {self.repeat_every_ms:g} ms ({self.repeat_every_frames:g} frames)"
                if self.repeat_every_frames is not None
                else ""
            )
            out.append(
                f"a held key repeats after {self.repeat_delay_ms:g} ms "
                f"({self.repeat_delay_frames:g} frames){every}"
            )
        elif self.repeats is False:
            out.append(f"a held key does not repeat (held {HOLD_FRAMES} frames)")
        out.append(
            f"{self.presses} presses in {self.seconds:.1f} s"
            + ("" if self.complete else "; not finished yet (goes on at the next level)")
        )
        return out
