"""Kill test: a walkthrough stopped at random moments in every way a user stops it, and
what it leaves.

    .venv/bin/python benchmarks/kill.py                     # 100 rounds, levels 1-2
    .venv/bin/python benchmarks/kill.py --rounds 10 --seed 7
    .venv/bin/python benchmarks/kill.py --only HANGUP:play,SIGTERM+SIGTERM:menus:display

Each round starts `logo-bot walkthrough` with a TMPDIR and a --video-dir of its own,
headless (a private Xvfb) or, in half the rounds, on an Xvfb the benchmark started and
owns, as a person's own display (--display :N). It waits for a moment it sees in
events.jsonl, run.log or the bot's processes - start-up (Python's imports, Xvfb or Fuse
starting), the menus (after the n-th key), play (a level's n-th key burst, or its key
probe), a Fuse restart (the benchmark kills the bot's Fuse as a crash and waits for the
restart event) or the video encoding (at run_end, or while ffmpeg writes video.mp4) -
and stops it: SIGTERM, SIGHUP or SIGINT; the same signal twice 5 to 200 ms apart
(SIGTERM+SIGTERM, SIGINT+SIGINT); SIGINT, then another 0 to 50 ms after the bot's last
line (SIGINT+AFTER: its status, 130, must stand); its terminal hung up (HANGUP: the bot
is the session leader of a pty whose master the benchmark closes); and in a tenth of the
rounds SIGKILL, spread over the moments (the video encoding first). Moments and stops
are spread evenly over the rounds, in a seeded random order, and each moment's exact
point is drawn at random.

After each round (faults/kill_play.py): the bot was gone within 10 s of the first signal
(else a hang), with exit 130; within 5 s of its exit no process it started is alive, no
temporary folder is left in its TMPDIR, and its run folder is valid and truthful
(run.json, the run_end event and report.html agree: complete after a stop in the
encoding, aborted otherwise), or absent when Fuse never started; on the benchmark's
display, no grab (a new client answered within a second, probed during the stop and
after it) and no key down (the server's key map, and every key event the bot sent has
its release). After SIGKILL the folder is unfinished by nature: the bot's reaper must
have ended its programs and removed its Fuse home and temporary files, and the folder
must read as killed (or finished) and hold no video that does not play. Prints a table,
one line per round, then the totals against the goals. Exit status 0 when every goal is met.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faults.display_left import keys_down, release
from faults.kill_play import STOPS, RoundResult, play_round
from faults.kill_round import MOMENTS, SETTLE_S, RoundOptions
from faults.stop_checks import BOUND_S
from logo_bot.bot.x11.display import XServer

HEADER = (
    f"{'round':>5}  {'stop':15}  {'moment':9}  {'where':7}  {'exit':>4}  {'s':>5}  "
    f"{'left':4}  {'folder':30}  details"
)
CATCHABLE = [s for s in STOPS if s != "SIGKILL"]


def schedule(rounds: int, kills: int, seed: int) -> list[tuple[str, str, bool]]:
    """(stop, moment, on the benchmark's display) per round: every moment as often as
    the others, every stop but SIGKILL too, ``kills`` SIGKILLs spread over the moments as
    evenly (the video encoding first), half the rounds on the display, all in a seeded
    random order."""
    rng = random.Random(seed)
    moments = [MOMENTS[i % len(MOMENTS)] for i in range(rounds)]
    rng.shuffle(moments)
    stops: list[str | None] = [None] * rounds
    order = ["encoding", *(m for m in MOMENTS if m != "encoding")]
    for kill in range(min(kills, rounds)):
        free = [i for i in range(rounds) if stops[i] is None]
        wanted = [i for i in free if moments[i] == order[kill % len(order)]]
        stops[rng.choice(wanted or free)] = "SIGKILL"
    others = [CATCHABLE[i % len(CATCHABLE)] for i in range(stops.count(None))]
    rng.shuffle(others)
    filled = iter(others)
    displays = [i % 2 == 1 for i in range(rounds)]
    rng.shuffle(displays)
    return [
        (stop or next(filled), moment, display)
        for stop, moment, display in zip(stops, moments, displays, strict=True)
    ]


def parse_only(text: str) -> list[tuple[str, str, bool]]:
    """``STOP:MOMENT[:display],...`` as (stop, moment, on the display) triples."""
    out = []
    for item in text.split(","):
        stop, _, rest = item.strip().partition(":")
        moment, _, where = rest.partition(":")
        stop = "+".join(
            s if s.startswith("SIG") or s in ("HANGUP", "AFTER") else f"SIG{s}"
            for s in stop.upper().split("+")
        )
        if stop not in STOPS or moment not in MOMENTS or where not in ("", "display"):
            raise argparse.ArgumentTypeError(
                f"{item!r}: give STOP:MOMENT or STOP:MOMENT:display, stops "
                f"{', '.join(STOPS)}, moments {', '.join(MOMENTS)}"
            )
        out.append((stop, moment, where == "display"))
    return out


def row(r: RoundResult) -> str:
    where = "display" if r.display else "private"
    code = "-" if r.exit is None else str(r.exit)
    seconds = "-" if r.seconds_to_exit is None else f"{r.seconds_to_exit:.1f}"
    left = str(len(r.orphans))
    folder = ("ok: " if r.folder_ok else "NO: ") + r.folder
    details = [r.detail.lstrip("; "), f"[{r.state}]" if r.state else ""]
    details += [f"ORPHANS: {', '.join(r.orphans)}"] if r.orphans else []
    details += ["HANG"] if r.hung else []
    details += [f"GRABBED x{r.grabs}"] if r.grabs else []
    details += [f"KEYS DOWN {r.keys_down}"] if r.keys_down else []
    details += ["TEMP LEFT: " + ", ".join(r.temp_left)] if r.temp_left else []
    details += [f"PROBLEM: {p}" for p in r.problems]
    text = "; ".join(d for d in details if d)
    return (
        f"{r.number:>5}  {r.signal:15}  {r.moment:9}  {where:7}  {code:>4}  {seconds:>5}  "
        f"{left:4}  {folder[:30]:30}  {text}"
    )


def totals(results: list[RoundResult]) -> list[str]:
    n = len(results)
    stopped = [r for r in results if r.signal != "SIGKILL"]
    on_display = [r for r in results if r.display]
    # 130, or killed by the signal itself before logo-bot took the signals (nothing started)
    exits = sum(
        r.exit is not None and not any(p.startswith("exit ") for p in r.problems) for r in stopped
    )
    truthful = sum(r.truthful for r in stopped)
    valid = sum(r.folder_ok for r in results)
    other = [r.number for r in results if r.problems]

    def count(values: list[str], names: tuple[str, ...]) -> str:
        return ", ".join(f"{v} {values.count(v)}" for v in names if v in values)

    return [
        f"rounds: {n} ({count([r.signal for r in results], STOPS)}; "
        f"{count([r.moment for r in results], MOMENTS)}; {len(on_display)} on the display)",
        f"hangs (not gone within {BOUND_S:g} s of the first signal): "
        f"{sum(r.hung for r in results)} (goal 0)",
        f"processes left running {SETTLE_S:g} s after the exit: "
        f"{sum(len(r.orphans) for r in results)} (goal 0)",
        f"keys down on the display after a round: {sum(r.keys_down for r in on_display)} (goal 0)",
        f"grabs (the display unanswered for a second): {sum(r.grabs for r in on_display)} (goal 0)",
        f"exit 130 without SIGKILL (or the signal's own before logo-bot took it): "
        f"{exits}/{len(stopped)} (goal every round)",
        f"truthful folders: {truthful}/{len(stopped)} = "
        f"{100 * truthful / max(len(stopped), 1):.0f} % (goal 100 %)",
        f"valid run folders, SIGKILL included: {valid}/{n} (goal {n})",
        f"rounds with a temporary folder left: {sum(bool(r.temp_left) for r in results)} (goal 0)",
        f"rounds with another problem (exit status, a missed moment, a traceback): "
        f"{len(other)}{' ' + str(other) if other else ''} (goal 0)",
    ]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rounds", type=int, default=100, help="rounds to play (default 100)")
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
        metavar="STOP:MOMENT[:display],...",
        help="play these rounds (cycled up to --rounds), e.g. HANGUP:play,SIGINT+SIGINT:menus",
    )
    p.add_argument("--keep", type=Path, metavar="DIR", help="keep each round's folders in DIR")
    return p


def run_rounds(
    plan: list[tuple[str, str, bool]],
    options: RoundOptions,
    seed: int,
    work: Path,
    display: str | None = None,
    out=sys.stdout,
) -> list[RoundResult]:
    """Play ``plan`` in folders under ``work`` (rounds on the display on ``display``),
    printing each round's row as it ends."""
    results = []
    print(HEADER, file=out, flush=True)
    for number, (stop, moment, on_display) in enumerate(plan, 1):
        if on_display and display is None:
            raise ValueError("a round on the display, and no display given")
        rng = random.Random(seed * 1000 + number)
        where = display if on_display else None
        round_options = RoundOptions(options.levels, options.speed, options.probe, display=where)
        result = play_round(number, stop, moment, rng, round_options, work / f"round-{number:03d}")
        if where is not None:
            release(where, keys_down(where))  # the next round starts with every key up
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
        f"kill test: {args.rounds} rounds of 'logo-bot walkthrough --levels {args.levels} "
        f"--speed {args.speed}', seed {args.seed}; checks {SETTLE_S:g} s after each exit",
        flush=True,
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="logo-bot-kill-") as scratch, XServer.start() as x:
        work = args.keep or Path(scratch)
        print(f"the display of the rounds marked 'display': {x.display} (Xvfb)", flush=True)
        results = run_rounds(plan, options, args.seed, work, display=x.display)
    print()
    print("\n".join(totals(results)))
    print(
        f"wall time: {time.monotonic() - started:.0f} s"
        + (f", folders in {work}" if args.keep else "")
    )
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
