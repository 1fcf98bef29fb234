"""Kill test: a headless walkthrough stopped by a signal at random moments, and what it leaves.

    .venv/bin/python benchmarks/kill.py                     # 60 rounds, levels 1-2
    .venv/bin/python benchmarks/kill.py --rounds 10 --seed 7
    .venv/bin/python benchmarks/kill.py --only SIGHUP:encoding,SIGKILL:restart

Each round starts `logo-bot walkthrough --headless` with a TMPDIR and a --video-dir of
its own, waits for a moment it sees in events.jsonl, run.log or the bot's processes -
start-up (Python's imports, Xvfb or Fuse starting), the menus (after the n-th key),
play (a level's n-th key burst, or its key probe), a Fuse restart (the benchmark kills
the bot's Fuse as a crash and waits for the restart event) or the video encoding (at
run_end, or while ffmpeg writes video.mp4) - and sends SIGTERM, SIGHUP or SIGINT, and
in a tenth of the rounds SIGKILL. Moments and signals are spread evenly over the
rounds, in a seeded random order, and each moment's exact point is drawn at random.

After each round, within 5 s of the bot's exit: no process the bot started is alive
(orphans), no temporary folder is left in its TMPDIR (after SIGKILL the Fuse home is
left by nature, and must be removed by the next run's sweep), and the run folder is
complete and aborted, or absent when Fuse never started; after SIGKILL it is unfinished
by nature. The bot must also exit 130 (killed by the signal when it came before logo-bot
took the signals, having started nothing). Prints a table, one line per round, then the
totals against the goals: 0 orphans and 100 % valid folders. Exit status 0 when met.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faults.kill_round import MOMENTS, SETTLE_S, SIGNALS, RoundOptions, RoundResult, play_round

HEADER = f"{'round':>5}  {'signal':7}  {'moment':9}  {'orphans':7}  {'folder valid':40}  details"


def schedule(rounds: int, kills: int, seed: int) -> list[tuple[str, str]]:
    """(signal, moment) per round: every moment as often as the others, and every
    catchable signal too, with ``kills`` SIGKILLs, all in a seeded random order."""
    rng = random.Random(seed)
    moments = [MOMENTS[i % len(MOMENTS)] for i in range(rounds)]
    catchable = [s for s in SIGNALS if s != "SIGKILL"]
    kills = min(kills, rounds)
    signals = ["SIGKILL"] * kills + [catchable[i % 3] for i in range(rounds - kills)]
    rng.shuffle(moments)
    rng.shuffle(signals)
    return list(zip(signals, moments, strict=True))


def parse_only(text: str) -> list[tuple[str, str]]:
    """``SIGNAL:MOMENT,...`` as (signal, moment) pairs."""
    pairs = []
    for item in text.split(","):
        name, _, moment = item.strip().partition(":")
        name = name.upper() if name.upper().startswith("SIG") else f"SIG{name.upper()}"
        if name not in SIGNALS or moment not in MOMENTS:
            raise argparse.ArgumentTypeError(
                f"{item!r}: give SIGNAL:MOMENT, signals {', '.join(SIGNALS)}, "
                f"moments {', '.join(MOMENTS)}"
            )
        pairs.append((name, moment))
    return pairs


def row(r: RoundResult) -> str:
    orphans = ", ".join(r.orphans) if r.orphans else "0"
    valid = ("yes: " if r.folder_ok else "NO: ") + r.folder
    details = [r.detail, f"[{r.state}]" if r.state else ""]
    if r.exit is not None:
        details.append(f"exit {r.exit} in {r.seconds_to_exit:.1f} s")
    if r.swept:
        details.append(f"swept {r.swept} Fuse home")
    if r.temp_left:
        details.append("TEMP LEFT: " + ", ".join(r.temp_left))
    details += [f"PROBLEM: {p}" for p in r.problems]
    text = "; ".join(d for d in details if d)
    return f"{r.number:>5}  {r.signal:7}  {r.moment:9}  {orphans:7}  {valid[:40]:40}  {text}"


def totals(results: list[RoundResult]) -> list[str]:
    n = len(results)
    orphans = sum(len(r.orphans) for r in results)
    valid = sum(r.folder_ok for r in results)
    temp = sum(bool(r.temp_left) for r in results)
    other = [r.number for r in results if r.problems]
    by_moment = ", ".join(
        f"{m} {sum(r.moment == m for r in results)}"
        for m in MOMENTS
        if any(r.moment == m for r in results)
    )
    by_signal = ", ".join(
        f"{s} {sum(r.signal == s for r in results)}"
        for s in SIGNALS
        if any(r.signal == s for r in results)
    )
    return [
        f"rounds: {n} ({by_signal}; {by_moment})",
        f"orphans: {orphans} (goal 0)",
        f"valid run folders: {valid}/{n} = {100 * valid / max(n, 1):.0f} % (goal 100 %)",
        f"rounds with a temporary folder left: {temp} (goal 0)",
        f"rounds with another problem (exit status, a missed moment, a hang): "
        f"{len(other)}{' ' + str(other) if other else ''} (goal 0)",
    ]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rounds", type=int, default=60, help="rounds to play (default 60)")
    p.add_argument("--kills", type=int, help="rounds ended by SIGKILL (default: a tenth)")
    p.add_argument("--seed", type=int, default=1, help="the random order and points (default 1)")
    p.add_argument("--levels", default="1-2", help="levels each round plays (default 1-2)")
    p.add_argument("--speed", type=int, default=100, help="emulation speed %% (default 100)")
    p.add_argument(
        "--no-probe", action="store_true", help="no key probe on the first level (shorter rounds)"
    )
    p.add_argument(
        "--only",
        type=parse_only,
        metavar="SIGNAL:MOMENT,...",
        help="play these rounds (cycled up to --rounds), e.g. SIGTERM:play,SIGKILL:restart",
    )
    p.add_argument("--keep", type=Path, metavar="DIR", help="keep each round's folders in DIR")
    return p


def run_rounds(
    plan: list[tuple[str, str]], options: RoundOptions, seed: int, work: Path, out=sys.stdout
) -> list[RoundResult]:
    """Play ``plan`` in folders under ``work``, printing each round's row as it ends."""
    results = []
    print(HEADER, file=out, flush=True)
    for number, (signame, moment) in enumerate(plan, 1):
        rng = random.Random(seed * 1000 + number)
        result = play_round(number, signame, moment, rng, options, work / f"round-{number:02d}")
        results.append(result)
        print(row(result), file=out, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    kills = args.kills if args.kills is not None else max(1, args.rounds // 10)
    if args.only:
        plan = [args.only[i % len(args.only)] for i in range(args.rounds)]
    else:
        plan = schedule(args.rounds, kills, args.seed)
    options = RoundOptions(levels=args.levels, speed=args.speed, probe=not args.no_probe)
    print(
        f"kill test: {args.rounds} rounds of 'logo-bot walkthrough --headless --levels "
        f"{args.levels} --speed {args.speed}', seed {args.seed}; checks {SETTLE_S:g} s after "
        "each exit",
        flush=True,
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="logo-bot-kill-") as scratch:
        work = args.keep or Path(scratch)
        results = run_rounds(plan, options, args.seed, work)
    print()
    print("\n".join(totals(results)))
    print(
        f"wall time: {time.monotonic() - started:.0f} s"
        + (f", folders in {work}" if args.keep else "")
    )
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
