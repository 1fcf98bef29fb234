"""The end of a stopped bot, judged: ``end_and_check`` waits for its exit after the first
stop signal and lists every problem with what it left (faults.stop_checks), for the stop
tests and the kill benchmark alike."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from faults.display_left import grab_watch
from faults.folder_check import check_folder
from faults.kill_round import SETTLE_S, Bot, kill_exactly
from faults.stop_checks import (
    BOUND_S,
    DisplayLeft,
    display_left,
    run_log,
    tracebacks,
    untruthful,
)

HANG_S = 40.0  # after the first signal, the bot is killed (a hang) if still running


@dataclass
class Outcome:
    exit: int | None = None  # None: it hung and was killed
    seconds: float | None = None  # from the first signal to the exit
    grab_probes_missed: int = 0  # probes unanswered for a second while it stopped
    left: list[str] = field(default_factory=list)  # its processes running after it
    temp_left: list[str] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    display: DisplayLeft | None = None
    folder: Path | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def hung(self) -> bool:
        return self.exit is None or (self.seconds or 0) > BOUND_S


def end_and_check(
    bot: Bot,
    signalled_at: float,
    display: str | None = None,
    key_log: Path | None = None,
    expected: frozenset[str] = frozenset({"aborted"}),
    exit_status: int | None = 130,
) -> Outcome:
    """Wait for ``bot`` (signalled at ``signalled_at``, monotonic clock) to end, then
    check its exit, the bound, its output, its processes, its TMPDIR, its folder (its
    status one of ``expected``, or complete once every level was done) and, with
    ``display``, what it left there."""
    out = Outcome()
    grabs: list[int] = []
    watcher = None
    if display is not None:
        watcher = threading.Thread(
            target=lambda: grabs.append(grab_watch(display, bot.process.pid)), daemon=True
        )
        watcher.start()
    left_s = max(0.0, signalled_at + HANG_S - time.monotonic())
    out.exit = bot.end(left_s)
    if out.exit is not None:
        out.seconds = time.monotonic() - signalled_at
    if watcher is not None:
        watcher.join(5)
        out.grab_probes_missed = grabs[0] if grabs else 0
    bot.close()
    left = bot.watch.left_running(SETTLE_S)
    for proc in left:  # ours to clean up, by PID
        kill_exactly(proc)
    out.left = [f"{p.name} {p.pid}" for p in left]
    out.temp_left = [
        p.name for p in bot.temp.iterdir() if not (p.is_file() and p.name.endswith(".Xauthority"))
    ]
    out.tracebacks = tracebacks("\n".join(bot.stderr), run_log(bot.root))
    if display is not None:
        out.display = display_left(display, key_log)
    out.folder = bot.folder()
    _judge(out, bot, expected, exit_status)
    return out


def every_level_done(bot: Bot, events: list[dict]) -> bool:
    """Whether the run's events show every level it was asked for done."""
    first, last = (int(n) for n in (bot.options.levels.split("-") * 2)[:2])
    done = {e.get("level") for e in events if e.get("event") == "level_done"}
    return done >= set(range(first, last + 1))


def _judge(out: Outcome, bot: Bot, expected: frozenset[str], exit_status: int | None) -> None:
    p = out.problems
    if out.exit is None:
        p.append(f"still running {HANG_S:.0f} s after the signal (killed)")
    elif out.seconds is not None and out.seconds > BOUND_S:
        p.append(f"ended {out.seconds:.1f} s after the signal (bound {BOUND_S:g} s)")
    if out.exit is not None and exit_status is not None and out.exit != exit_status:
        tail = bot.stderr[-1] if bot.stderr else "(no output)"
        p.append(f"exit {out.exit}, not {exit_status}: {tail}")
    if out.grab_probes_missed:
        p.append(f"the display was grabbed for over a second {out.grab_probes_missed} times")
    if out.left:
        p.append(f"left running: {', '.join(out.left)}")
    if out.temp_left:
        p.append(f"left in TMPDIR: {', '.join(out.temp_left)}")
    if out.tracebacks:
        p.append(f"tracebacks: {out.tracebacks[:3]}")
    if out.display is not None and not out.display.clean:
        p.append(f"on the display: {out.display.describe()}")
    if out.folder is None:
        with bot.watch.lock:
            fuse_ran = any(proc.name.startswith("fuse") for proc in bot.watch.seen.values())
        if fuse_ran:  # before Fuse, a stop may come before the folder is made
            p.append("no run folder, though Fuse ran")
        return
    check = check_folder(out.folder, status=None)
    p += [f"folder: {problem}" for problem in check.problems]
    if every_level_done(bot, check.events):  # the stop came after the last level
        expected = expected | {"complete"}
    wrong = untruthful(out.folder, set(expected))
    if wrong:
        p.append(f"folder: {wrong}")
