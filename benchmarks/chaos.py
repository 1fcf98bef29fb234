"""Chaos benchmark: the whole walkthrough with faults injected, against a clean run.

    .venv/bin/python benchmarks/chaos.py                    # 100 levels at 200 %
    .venv/bin/python benchmarks/chaos.py --quick            # levels 1-20, fewer faults
    .venv/bin/python benchmarks/chaos.py --levels 1-50 --speed 400 --seed 7

It first plays the levels cleanly (the reference), then again with one key press in
five lost and one in twenty doubled (menus included), Fuse killed with SIGKILL in the
middle of 3 levels, the keyboard focus stolen by the sentinel window in 5 levels (given
back after 0.3 s, or never: then the bot takes it back) and the bot stalled past the
time limit once. It prints levels completed (goal: all), faults injected and
corrections by kind, keys the sentinel received (goal: 0), whether the chaos run's
folder is complete and valid, and the wall time of both runs as a ratio. Each run uses
its own private Xvfb. Exit status 0 when every goal is met.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faults.chaos import FaultPlan
from faults.folder_check import check_folder
from faults.harness import Outcome, play
from faults.lossy_keys import KeyFaults
from game.layout import load_layout
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.fuse.assembly import SessionOptions
from logo_bot.bot.play.progress import Progress, clock
from logo_bot.bot.profile import Profile, load_profile
from logo_bot.bot.recording.recording import RecordOptions
from logo_bot.solvers.levels import load_level_list


def level_seconds(profile: Profile) -> dict[int, float]:
    """Each level's time limit in emulated seconds (how long a forced timeout waits)."""
    timing = load_layout().timing
    levels = load_level_list(profile.resolve(profile.game["levels"]))
    return {
        lv.number: timing["base_seconds"] + timing["seconds_per_stone"] * lv.board.stone_count
        for lv in levels
    }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[2], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--levels", default="1-100", metavar="RANGE", help="default 1-100")
    p.add_argument("--speed", type=int, default=200, help="emulation speed %% (default 200)")
    p.add_argument("--quick", action="store_true", help="levels 1-20, 1 kill, 2 thefts")
    p.add_argument("--drop", type=float, default=0.20, help="lost presses (default 0.20)")
    p.add_argument("--double", type=float, default=0.05, help="doubled presses (default 0.05)")
    p.add_argument("--latency-ms", type=float, default=0.0, help="extra delay, up to (ms)")
    p.add_argument("--kills", type=int, default=3, help="Fuse kills (default 3)")
    p.add_argument("--thefts", type=int, default=5, help="focus thefts (default 5)")
    p.add_argument("--timeouts", type=int, default=1, help="forced timeouts (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-clean", action="store_true", help="skip the clean reference run")
    p.add_argument("--video-dir", type=Path, help="keep the chaos run's folder here")
    return p


def report_run(name: str, outcome: Outcome, count: int) -> list[str]:
    r = outcome.report
    lines = [
        f"{name}: {r.levels_done}/{count} levels in {clock(r.seconds)} ({r.seconds:.1f} s of "
        f"play, {outcome.seconds:.1f} s in all), keys {r.keys_sent} "
        f"(fewest {r.planned_presses}), restarts {r.restarts}"
    ]
    if outcome.error is not None:
        lines.append(f"  gave up: {outcome.error.message}")
    return lines


def kinds(counter: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()) if v) or "none"


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    profile = load_profile("practice")
    if args.quick:
        args.levels, args.kills, args.thefts = "1-20", min(args.kills, 1), min(args.thefts, 2)
    first, last = level_range(args.levels, int(profile.game.get("level_count", 100)))
    count = last - first + 1
    limits = level_seconds(profile)
    plan = FaultPlan.spread(
        range(first + 1, last + 1) if count > 1 else [first],
        kills=args.kills,
        thefts=args.thefts,
        timeouts=args.timeouts,
        keys=KeyFaults(args.drop, args.double, args.latency_ms, seed=args.seed),
        seed=args.seed,
        stall_cost=limits.get,
    )
    options = SessionOptions(headless=True, speed=args.speed)
    print(f"chaos benchmark: levels {first}-{last} at {args.speed} %, seed {args.seed}")
    print(
        f"plan: drop {args.drop:.0%}, double {args.double:.0%}, latency up to "
        f"{args.latency_ms:g} ms; kills at {list(plan.kills)}, thefts at {list(plan.thefts)}, "
        f"timeouts at {list(plan.timeouts)}",
        flush=True,
    )
    clean = None
    if not args.no_clean:
        clean = play(
            profile, options, first, last, FaultPlan(), progress=Progress(count), sentinel=False
        )
    with tempfile.TemporaryDirectory(prefix="logo-bot-chaos-runs-") as scratch:
        root = args.video_dir or Path(scratch)
        chaos = play(
            profile,
            options,
            first,
            last,
            plan,
            RecordOptions(root),
            progress=Progress(count),
            command=["benchmarks/chaos.py", *(argv if argv is not None else sys.argv[1:])],
        )
        check = check_folder(chaos.folder, status="complete") if chaos.folder else None
        lines = [""]
        if clean is not None:
            lines += report_run("clean run", clean, count)
        lines += report_run("chaos run", chaos, count)
        report = chaos.report
        lines += [
            f"levels completed: {report.levels_done}/{count} (goal {count}/{count})",
            f"faults injected: {kinds(chaos.faults)}",
            f"corrections: {kinds(report.corrections)}",
            f"recoveries: {kinds(report.recoveries)}",
            f"keys delivered to the sentinel: {len(chaos.sentinel_events)} (goal 0)",
        ]
        if check is None:
            lines.append("run folder: none was written")
        else:
            verdict = "yes" if check.ok else "NO: " + "; ".join(check.problems)
            lines.append(f"run folder complete and valid: {verdict} (goal yes)")
            lines.append(
                f"  {len(check.run.get('segments', []))} segments, "
                f"{check.count('crash')} crashes, {check.count('fault')} faults and "
                f"{check.count('correction')} corrections noted, video "
                f"{(check.run.get('video') or {}).get('frames')} frames"
                + (f", kept in {chaos.folder}" if args.video_dir else "")
            )
        if clean is not None and clean.report.seconds:
            ratio = chaos.report.seconds / clean.report.seconds
            lines.append(f"wall time, chaos / clean: {ratio:.2f} (play time of both runs)")
        print("\n".join(lines), flush=True)
    goals = (
        report.levels_done == count
        and not chaos.sentinel_events
        and (check is None or check.ok)
        and (clean is None or clean.report.levels_done == count)
    )
    return 0 if goals else 1


if __name__ == "__main__":
    sys.exit(main())
