"""What the walkthrough costs the machine: CPU of the bot, Fuse and Xvfb.

    .venv/bin/python -m benchmarks.cpu                       # levels 1-20 at 100 % and 200 %
    .venv/bin/python -m benchmarks.cpu --levels 1-100        # the whole walkthrough

Plays the practice game headless, in this process, as ``benchmarks/walkthrough.py`` does,
and prints for each speed: the CPU seconds (user + system) of the bot (this process, its
threads included), of the Fuse and of the Xvfb the session started (``/proc/PID/stat``),
the bot's CPU per key and its wake-ups per key (voluntary context switches of the whole
process: each is a thread that slept and was woken), the wall time, ms per key inside
levels against two frames, the corrections, and how the bot saw the picture change
(``picture``: X DAMAGE reports, or polling). Goals: the bot's CPU at most 3 ms per key at
both speeds, ms per key in levels at most 1.02 x two frames at 100 % and 1.06 x at 200 %
with 0 corrections, and (the moonshot) the bot below Fuse.

The figures are the run's own: on a machine shared with other work they vary with its
load (printed: the 1-minute load average as each play began), so compare runs made one
right after the other.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.pace import Pace
from benchmarks.walkthrough import transition_seconds
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import Profile, load_profile

TICK_S = 1 / os.sysconf("SC_CLK_TCK")
GOAL_MS_PER_KEY = 3.0
PACE_GOALS = {100: 1.02, 200: 1.06}


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) that process ``pid`` has used so far (0 once gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()  # after the command's name
    return (int(fields[11]) + int(fields[12])) * TICK_S  # utime, stime


@dataclass(frozen=True)
class Own:
    """This process's CPU seconds and voluntary context switches so far."""

    cpu: float
    wakeups: int

    @classmethod
    def now(cls) -> Own:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return cls(usage.ru_utime + usage.ru_stime, usage.ru_nvcsw)


@dataclass(frozen=True)
class Cost:
    speed: int
    levels: int
    bot_s: float
    fuse_s: float
    xvfb_s: float
    keys: int
    wakeups: int
    wall: float
    ratio: float  # ms per key in levels against two frames
    corrections: int
    picture: str
    load: float  # the machine's load average (1 min) when the play began

    @property
    def bot_ms_per_key(self) -> float:
        return 1000 * self.bot_s / max(self.keys, 1)

    @property
    def wakeups_per_key(self) -> float:
        return self.wakeups / max(self.keys, 1)


def run(profile: Profile, first: int, last: int, speed: int) -> Cost:
    """Play levels ``first``-``last`` at ``speed`` and measure what the play cost (the
    start of Xvfb and Fuse left out)."""
    with open_session(profile, SessionOptions(headless=True, speed=speed)) as session:
        xvfb = session.xserver.process
        pids = (session.fuse.process.pid, xvfb.pid if xvfb else 0)
        walk = Walkthrough(
            session,
            LogoEnv(session),
            profile,
            first,
            last,
            progress=Progress(last - first + 1),
            probe=profile.timing.probe,
        )
        fuse0, xvfb0 = (process_cpu(pid) for pid in pids)
        load = os.getloadavg()[0]
        own0 = Own.now()
        started = time.monotonic()
        report = walk.run()
        wall = time.monotonic() - started
        own1 = Own.now()
        fuse1, xvfb1 = (process_cpu(pid) for pid in pids)
        picture = session.run_record.get("picture", "polling (not recorded)")
    pace = Pace.from_report(report, speed, wall, transition_seconds(first, last, speed))
    return Cost(
        speed,
        report.levels_done,
        own1.cpu - own0.cpu,
        fuse1 - fuse0,
        xvfb1 - xvfb0,
        report.keys_sent,
        own1.wakeups - own0.wakeups,
        wall,
        pace.ratio,
        sum(report.corrections.values()),
        str(picture),
        load,
    )


def table(rows: list[Cost], first: int, last: int) -> str:
    out = [
        f"CPU benchmark, levels {first}-{last}, headless, no video",
        "| speed | levels | bot CPU | Fuse CPU | Xvfb CPU | keys | bot CPU per key "
        "| wake-ups per key | wall | ms/key ratio | corrections | load | picture |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in rows:
        out.append(
            f"| {c.speed} % | {c.levels} | {c.bot_s:.1f} s | {c.fuse_s:.1f} s | "
            f"{c.xvfb_s:.1f} s | {c.keys} | {c.bot_ms_per_key:.2f} ms | "
            f"{c.wakeups_per_key:.1f} | {c.wall:.0f} s | {c.ratio:.2f} | {c.corrections} | "
            f"{c.load:.1f} | {c.picture} |"
        )
    out.append("")
    for c in rows:
        goal = PACE_GOALS.get(c.speed)
        paced = "" if goal is None else (
            f", {'PASS' if c.ratio <= goal and c.corrections == 0 else 'FAIL'} pace "
            f"<= {goal:.2f} x two frames with 0 corrections ({c.ratio:.2f}, {c.corrections})"
        )  # fmt: skip
        out.append(
            f"{c.speed}%: {'PASS' if c.bot_ms_per_key <= GOAL_MS_PER_KEY else 'FAIL'} bot CPU "
            f"<= {GOAL_MS_PER_KEY:g} ms per key ({c.bot_ms_per_key:.2f}){paced}, "
            f"{'PASS' if c.bot_s < c.fuse_s else 'FAIL'} bot below Fuse "
            f"({c.bot_s:.1f} s against {c.fuse_s:.1f} s)"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--speeds", default="100,200", help="comma-separated speeds in percent")
    p.add_argument("--levels", default="1-20", help="level range (default 1-20)")
    args = p.parse_args(argv)
    profile = load_profile("practice", [])
    first, last = level_range(args.levels, 100)
    rows = [run(profile, first, last, int(s)) for s in args.speeds.split(",")]
    print(table(rows, first, last))
    return 0


if __name__ == "__main__":
    sys.exit(main())
