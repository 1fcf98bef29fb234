"""Full walkthrough benchmark: plays the practice game at given speeds and prints figures.

    .venv/bin/python benchmarks/walkthrough.py                 # 100 levels at 100 % and 200 %
    .venv/bin/python benchmarks/walkthrough.py --quick         # levels 1-10 only

For each speed it prints levels done, wall time, keys sent against the fewest-keypress
total, corrections by kind, time spent planning, and the floor: the fewest keys x
(hold + gap) + the game's own time (start sequence waits, level transitions, the frames
a skipped code screen needs to appear) at that speed. Targets: 100/100 levels, wall time
<= 1.25 x floor; at 100 % and 200 %, ms per key in levels <= 1.10 x two frames with no
press gone wrong in play (cursor, lost action or wrong stone corrections), and 100
levels under 8:45 at 100 % and under 4:30 at 200 %.

With key rollover (the practice profile's ``timing.rollover``) a different key goes down
as soon as the last one is up, so the bot can beat that floor; it also prints the
rollover floor: the same keys (the two directions of a move in turn) with a hold each
and a gap only before a key pressed again, plus the game's own time.

Then the pace (``benchmarks/pace.py``): ms per key inside levels against two emulated
frames per key, and where the time goes, in levels (keys held and up, X round trips,
waiting for frames, grabs, reading, planning) and between them (transitions against the
game's own, the start, the key probe), from the run's ``time_spent``. The run plays as
``logo-bot walkthrough`` does: with the key probe when the profile says so
(``--set timing.probe=false`` for the profile's fixed timing). The same tables for
recorded runs: ``benchmarks/pace.py RUN_FOLDER...``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.pace import Pace, breakdown_table, pace_table
from game.layout import load_layout
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.frames import FPS
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.progress import Progress, clock
from logo_bot.bot.play.unattended import RunReport, Walkthrough
from logo_bot.bot.profile import Profile, load_profile
from logo_bot.solvers.board import Cell
from logo_bot.solvers.cursor import keys_for


@dataclass
class Figures:
    speed: int
    report: RunReport
    wall: float
    floor: float
    keys_floor: float
    game_floor: float
    rollover_floor: float
    pace: Pace


def rollover_seconds(plans: list[tuple[Cell, ...]], hold: float, gap: float) -> float:
    """Seconds the plans' keys take when only a key pressed again waits the gap."""
    total = 0.0
    for plan in plans:
        keys = keys_for(plan, alternate=True)
        repeats = sum(a == b for a, b in pairwise(keys))
        total += len(keys) * hold + repeats * gap
    return total / 1000


def transition_seconds(first: int, last: int, speed: int) -> float:
    """The game's own time between the levels at ``speed``: transitions, code screens
    appearing."""
    frames = load_layout().timing["transition_frames"] + 2  # the next level: 2 frames to draw
    transitions = last - first  # level ends followed by another level in this run
    code_screens = sum(1 for n in range(first, last) if n % 5 == 0)
    return (transitions * frames + code_screens * 3) / FPS * 100 / speed


def game_seconds(profile: Profile, first: int, last: int, speed: int) -> float:
    """The game's own time at ``speed``: start waits, transitions, code screens appearing."""
    waits = profile.start.loaded_wait + sum(
        float(step.get("wait", 0)) for step in profile.start.sequence
    )
    return waits * 100 / speed + transition_seconds(first, last, speed)


def run(profile: Profile, first: int, last: int, speed: int) -> Figures:
    options = SessionOptions(headless=True, speed=speed)
    with open_session(profile, options) as session:
        walk = Walkthrough(
            session,
            LogoEnv(session),
            profile,
            first,
            last,
            progress=Progress(last - first + 1),
            probe=profile.timing.probe,  # as logo-bot walkthrough plays
        )
        started = time.monotonic()
        report = walk.run()
        wall = time.monotonic() - started
        hold, gap = profile.timing.for_speed(speed)
    keys_floor = report.planned_presses * (hold + gap) / 1000
    game_floor = game_seconds(profile, first, last, speed)
    if profile.timing.rollover:
        plans = [r.report.plan for r in report.results.values() if r.report]
        rolled = rollover_seconds(plans, hold, gap) + game_floor
    else:
        rolled = keys_floor + game_floor
    pace = Pace.from_report(report, speed, wall, transition_seconds(first, last, speed))
    return Figures(
        speed, report, wall, keys_floor + game_floor, keys_floor, game_floor, rolled, pace
    )


def table(rows: list[Figures], first: int, last: int) -> str:
    count = last - first + 1
    out = [
        f"walkthrough benchmark, levels {first}-{last}",
        f"{'speed':>6} {'levels':>8} {'wall':>7} {'floor':>7} {'ratio':>6} {'keys':>6} "
        f"{'fewest':>6} {'bound':>6} {'plan s':>7}  corrections",
    ]
    for f in rows:
        r = f.report
        bound = sum(x.report.lower_bound for x in r.results.values() if x.report)
        plan_s = sum(x.report.plan_seconds for x in r.results.values() if x.report)
        corr = ", ".join(f"{k} {v}" for k, v in sorted(r.corrections.items())) or "none"
        out.append(
            f"{f.speed:>5}% {r.levels_done:>4}/{count:<3} {clock(f.wall):>7} {clock(f.floor):>7} "
            f"{f.wall / f.floor:>6.2f} {r.keys_sent:>6} {r.planned_presses:>6} {bound:>6} "
            f"{plan_s:>7.2f}  {corr}"
        )
    out.append("")
    out.append("floor = fewest keys x (hold + gap) + the game's own time; per speed:")
    for f in rows:
        out.append(f"  {f.speed}%: keys {f.keys_floor:.1f} s + game {f.game_floor:.1f} s")
    out.append("rollover floor = the same keys, a gap only before a key pressed again:")
    for f in rows:
        out.append(
            f"  {f.speed}%: {clock(f.rollover_floor)}, wall / rollover floor "
            f"{f.wall / f.rollover_floor:.2f}"
        )
    out.append("")
    for f in rows:
        done = f.report.levels_done == count
        ratio_ok = f.wall <= 1.25 * f.floor
        line = (
            f"{f.speed}%: {'PASS' if done else 'FAIL'} all levels, "
            f"{'PASS' if ratio_ok else 'FAIL'} wall <= 1.25 x floor ({f.wall / f.floor:.2f})"
        )
        out.append(line + "".join(pace_goals(f, count)))
    return "\n".join(out)


# The pace goals: ms per key in levels against two emulated frames, with no
# press gone wrong in play, and 100 levels' wall time, per speed.
PACE_RATIO = 1.10
WALL_GOALS = {100: 8 * 60 + 45, 200: 4 * 60 + 30}
PLAY_CORRECTIONS = ("cursor", "lost_action", "wrong_stone")


def pace_goals(f: Figures, count: int) -> list[str]:
    """``, PASS ...`` / ``, FAIL ...`` for each pace goal that applies to this row."""
    out = []
    if f.speed in WALL_GOALS:
        wrong = sum(f.report.corrections[k] for k in PLAY_CORRECTIONS)
        ok = f.pace.ratio <= PACE_RATIO and wrong == 0
        out.append(
            f", {'PASS' if ok else 'FAIL'} ms per key <= {PACE_RATIO:.2f} x two frames with no "
            f"correction ({f.pace.ratio:.2f}, {wrong} corrections)"
        )
        if count == 100:
            goal = WALL_GOALS[f.speed]
            out.append(
                f", {'PASS' if f.wall < goal else 'FAIL'} 100 levels under {clock(goal)} "
                f"({clock(f.wall)})"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--speeds", default="100,200", help="comma-separated speeds in percent")
    p.add_argument("--levels", default="1-100", help="level range (default 1-100)")
    p.add_argument("--quick", action="store_true", help="levels 1-10 only")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        help="profile override, e.g. timing.hold_ms.100=30",
    )
    args = p.parse_args(argv)
    profile = load_profile("practice", args.overrides)
    first, last = level_range("1-10" if args.quick else args.levels, 100)
    rows = [run(profile, first, last, int(s)) for s in args.speeds.split(",")]
    print(table(rows, first, last))
    print()
    print(pace_table([f.pace for f in rows]))
    print()
    print(breakdown_table([f.pace for f in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
