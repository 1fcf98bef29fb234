"""Playing a range of levels under a fault plan: what the tests and benchmarks/chaos.py run.

It is the walkthrough command's setup with the fault layer switched on: lossy keys
wrapped around every key driver (also after restarts), a sentinel window on the same
display that logs any key it receives, ``ChaosEnv`` firing kills, thefts and timeouts,
and, when asked, a run folder recorded as ``logo-bot walkthrough`` records one.
"""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faults.chaos import ChaosEnv, FaultPlan
from faults.lossy_keys import FaultyKeys
from faults.thief import FocusThief
from logo_bot.bot.errors import BotError
from logo_bot.bot.fuse.assembly import SessionOptions, open_session, run_record, with_files
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.unattended import RunReport, Walkthrough
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.bot.x11.keys import KeyDriver


@dataclass
class Outcome:
    report: RunReport
    faults: Counter[str]
    sentinel_events: list[dict[str, Any]]
    folder: Path | None
    seconds: float
    error: BotError | None = None  # the run gave up (the report says how far it got)


def play(
    profile: Profile,
    options: SessionOptions,
    first: int,
    last: int,
    plan: FaultPlan,
    record: RecordOptions | None = None,
    progress: Progress | None = None,
    sentinel: bool = True,
    command: list[str] | None = None,
) -> Outcome:
    """Play ``first``..``last`` with ``plan``'s faults. A run that gives up (``GaveUp``,
    a dead display, ...) returns its partial report with the error, after the run folder,
    if any, is finished."""
    run = _FaultyRun(profile, plan, progress, sentinel)
    started = time.monotonic()
    recording = None
    if record is not None:
        recording = Recording.start(record, "walkthrough", command or ["chaos"], profile)
    error: BotError | None = None
    try:
        run.play(options, first, last, recording)
    except BotError as exc:
        error = exc
    report = run.walk.report if run.walk is not None else RunReport(first, last)
    return Outcome(
        report,
        run.counts,
        run.events,
        recording.folder.path if recording else None,
        time.monotonic() - started,
        error,
    )


class _FaultyRun:
    def __init__(
        self, profile: Profile, plan: FaultPlan, progress: Progress | None, sentinel: bool
    ) -> None:
        self.profile, self.plan, self.progress, self.sentinel = profile, plan, progress, sentinel
        self.counts: Counter[str] = Counter()
        self.key_rng = random.Random(plan.keys.seed)
        self.walk: Walkthrough | None = None
        self.events: list[dict[str, Any]] = []

    def lossy(self, keys: KeyDriver) -> KeyDriver:
        return FaultyKeys(keys, self.plan.keys, self.counts, self.key_rng)

    def play(
        self, options: SessionOptions, first: int, last: int, recording: Recording | None
    ) -> None:
        wrap = self.lossy if self.plan.keys.active else None
        with contextlib.ExitStack() as stack:
            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="logo-bot-chaos-"))
            if recording is not None:
                stack.enter_context(recording)
                options = with_files(options, recording.fuse_files())
                recording.note_session(run_record(options))
                recording.requested = (first, last)
            session = stack.enter_context(open_session(self.profile, options, wrap_keys=wrap))
            thief = None
            if self.sentinel or self.plan.thefts:
                log = Path(scratch) / "sentinel.jsonl"
                thief = stack.enter_context(FocusThief(session.xserver.display, log))
            env: LogoEnv | EnvWrapper = LogoEnv(session)
            if recording is not None:
                recording.record_fuse(session)
                env = recording.wrap(env)
            chaos = ChaosEnv(env, session, self.plan, thief, self.counts)
            self.walk = Walkthrough(
                session,
                chaos,
                self.profile,
                first,
                last,
                progress=self.progress,
                evidence_dir=recording.folder.failures if recording else None,
            )
            try:
                self.walk.run()
            finally:
                chaos.join()
                if recording is not None:
                    recording.report = self.walk.report
                if thief is not None:
                    self.events = thief.events()
