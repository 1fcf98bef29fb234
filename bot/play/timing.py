"""The speed and key timing a run plays with: the emulation speed measured from the
screen (an attached Fuse), the key probe on the first levels (``--probe-keys``), and
the probed timing lengthened a little when presses go wrong in play."""

from __future__ import annotations

import logging
from dataclasses import replace

from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.key_probe import KeyProbe
from logo_bot.bot.play.level_report import LevelReport
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.probe_io import probe_keys
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.play.speed import board_area, measure_speed
from logo_bot.bot.profile import Profile

log = logging.getLogger(__name__)


class RunTiming:
    """Measures and adapts the timing; says in ``report.key_timing`` what is played with."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        player: Player,
        report: RunReport,
        probe: bool = False,
    ) -> None:
        self.session = session
        self.env = env
        self.profile = profile
        self.player = player
        self.report = report
        self.probe_wanted = probe  # measure the key timing on the first levels
        self.probe: KeyProbe | None = None
        self.measured_speed: float | None = None
        self._keys_since = self._misses_since = 0  # since the timing last changed
        self._raised = 0  # half frames added to the probed timing in play

    @property
    def probe_due(self) -> bool:
        """The key probe is wanted and has not finished yet."""
        return self.probe_wanted and not (self.probe and self.probe.complete)

    def measure_speed(self) -> None:
        """Time the cursor's FLASH and play at the speed found (attached runs)."""
        area = board_area(self.profile, self.session.vision.scale)
        reading = measure_speed(self.session.frame, area, wait_drawn=self.session.wait_drawn)
        self.session.set_speed(reading.percent)
        self.measured_speed = self.report.measured_speed = reading.percent
        self.note_timing("profile")
        self.env.note("speed_measured", percent=reading.percent, swaps=reading.swaps)
        log.info("the emulation runs at %.1f %% (%d FLASH swaps)", reading.percent, reading.swaps)

    def probe_keys(self, level: int) -> None:
        """Measure the key timing on this level (``bot.play.key_probe``), going on from
        where an earlier level's probe stopped, and play with what it found."""
        if self.probe is None:
            log.info("probing the key timing on level %d (a few seconds)", level)
        self.probe, result = probe_keys(self.session, self.player, self.probe)
        self.report.key_probe = result.as_dict()
        if result.repeats and result.repeat_delay_frames and result.repeat_every_frames:
            self.player.repeat = (result.repeat_delay_frames, result.repeat_every_frames)
        self.note_timing("probe" if result.usable else "profile")

    def adapt_timing(self, result: LevelReport, most: int = 4) -> None:
        """Probed timing only: when presses are lost or doubled in play (cursor and lost
        action corrections) more than once per 100 keys, hold and let go half a frame
        longer, at most ``most`` times (the probe saw a dozen presses; play sees thousands,
        and a busy machine delays X events)."""
        if self.report.key_timing is not None:  # learnt in play (``Player.alternates``)
            self.report.key_timing["alternates"] = self.player.alternates
        if self.probe is None or not self.probe.result().usable or self._raised >= most:
            return
        self._keys_since += result.keys_sent
        self._misses_since += result.corrections["cursor"] + result.corrections["lost_action"]
        if self._keys_since < 100:
            return
        if self._misses_since >= 2 and self._misses_since * 100 > self._keys_since:
            t = self.session.keys.timing
            step = self.session.frame_s * 500
            self.session.use_timing(replace(t, hold_ms=t.hold_ms + step, gap_ms=t.gap_ms + step))
            self._raised += 1
            self.report.run_corrections["timing_raised"] += 1
            t = self.session.keys.timing
            self.env.note(
                "timing_raised",
                hold_ms=t.hold_ms,
                gap_ms=t.gap_ms,
                misses=self._misses_since,
                keys_seen=self._keys_since,
            )
            log.info(
                "%d presses of %d went wrong: holding keys %.0f ms and letting go %.0f ms",
                self._misses_since,
                self._keys_since,
                t.hold_ms,
                t.gap_ms,
            )
            self.note_timing("probe")
        self._keys_since = self._misses_since = 0

    def note_timing(self, source: str) -> None:
        """``report.key_timing``: the timing played with now, and where it came from."""
        timing = self.session.keys.timing
        self.report.key_timing = {
            "source": source,
            "hold_ms": timing.hold_ms,
            "gap_ms": timing.gap_ms,
            "rollover": timing.rollover,
            # the game takes keys.alternates (7 6 5 8): None while not known
            "alternates": self.player.alternates,
        }
