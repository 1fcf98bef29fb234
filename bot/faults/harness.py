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

from bot.env import EnvWrapper, LogoEnv
from bot.faults.chaos import ChaosEnv, FaultPlan
from bot.faults.keys import FaultyKeys
from bot.faults.thief import FocusThief
from bot.keys import KeyDriver
from bot.profile import Profile
from bot.progress import Progress
from bot.recording.recording import Recording, RecordOptions
from bot.session import Session, SessionOptions
from bot.walkthrough import RunReport, Walkthrough


@dataclass
class Outcome:
    report: RunReport
    faults: Counter[str]
    sentinel_events: list[dict[str, Any]]
    folder: Path | None
    seconds: float


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
    """Play ``first``..``last`` with ``plan``'s faults; ``GaveUp`` and friends propagate
    (after the run folder, if any, is finished)."""
    counts: Counter[str] = Counter()
    key_rng = random.Random(plan.keys.seed)

    def lossy(keys: KeyDriver) -> KeyDriver:
        return FaultyKeys(keys, plan.keys, counts, key_rng)

    wrap = lossy if plan.keys.active else None
    started = time.monotonic()
    recording = None
    if record is not None:
        recording = Recording.start(record, "walkthrough", command or ["chaos"], profile)
    report: RunReport | None = None
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="logo-bot-chaos-")))
        log = scratch / "sentinel.jsonl"
        if recording is not None:
            stack.enter_context(recording)
            options = recording.fuse_files(options)
            recording.requested = (first, last)
        session = stack.enter_context(Session.open(profile, options, wrap_keys=wrap))
        thief = None
        if sentinel or plan.thefts:
            thief = stack.enter_context(FocusThief(session.xserver.display, log))
        env: LogoEnv | EnvWrapper = LogoEnv(session)
        if recording is not None:
            recording.attach(session)
            env = recording.wrap(env)
        chaos = ChaosEnv(env, session, plan, thief, counts)
        walk = Walkthrough(
            session,
            chaos,
            profile,
            first,
            last,
            progress=progress,
            evidence_dir=recording.folder.failures if recording else None,
        )
        try:
            report = walk.run()
        finally:
            chaos.join()
            if recording is not None:
                recording.report = walk.report
            events = thief.events() if thief is not None else []
    assert report is not None
    return Outcome(
        report,
        counts,
        events,
        recording.folder.path if recording else None,
        time.monotonic() - started,
    )
