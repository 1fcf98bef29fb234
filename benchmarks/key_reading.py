"""Key-reading benchmark: walkthroughs of practice-game builds that read their keys as a
1990 game might, each with the key probe and with the profile's fixed timing.

    .venv/bin/python benchmarks/key_reading.py                    # 100 levels, 4 builds
    .venv/bin/python benchmarks/key_reading.py --levels 1-10 --builds queued,polled-4

Builds (``python -m game.build --key-reading``): ``queued`` (the default game),
``polled-2`` and ``polled-4`` (keys read every 2 or 4 frames), ``repeat-3-12-4`` (read
every 3 frames; a held key repeats after 12 frames, then every 4, rounded up to reads).

For each build and timing it prints the levels done, the wall time of the walkthrough
(start sequence and levels, as ``logo-bot walkthrough`` reports it), the floor and
wall / floor, corrections in play per 100 keys sent (the menus' are not counted: they
come before the probe), and the timing played with. The floor is
the fewest key presses x the build's shortest safe press period (2 frames for queued:
one down, one up, as Fuse reads the keys once a frame; 2N frames for a game that reads
every N: held over one read, up over the next) plus the game's own time between levels
and its start sequence's waits (``benchmarks.walkthrough.game_seconds``). A bot that
rolls a different key over the last can beat that floor. Goals with the probe: 100/100
levels, wall <= 1.3 x floor, corrections <= 1 per 100 keys. Figures only; nothing is
asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.walkthrough import game_seconds
from game import build
from game.keyreading import KeyReading
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.errors import BotError
from logo_bot.bot.frames import FRAME_S
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.progress import Progress, clock
from logo_bot.bot.play.unattended import RunReport, Walkthrough
from logo_bot.bot.profile import load_profile

BUILDS = {
    "queued": KeyReading(),
    "polled-2": KeyReading("polled", 2),
    "polled-4": KeyReading("polled", 4),
    "repeat-3-12-4": KeyReading("polled-repeat", 3, repeat_delay=12, repeat_every=4),
}


@dataclass
class Row:
    build: str
    probe: bool
    report: RunReport | None
    wall: float
    floor: float
    error: str | None = None


def press_frames(reading: KeyReading) -> int:
    """The shortest press period that no game of this build can miss (frames)."""
    return 2 * reading.poll_frames


def play(snapshot: Path, first: int, last: int, speed: int, probe: bool) -> tuple:
    """One walkthrough: the report, its seconds, and the error that ended it early."""
    profile = load_profile(
        "practice", [f"game.snapshot={snapshot}", f"timing.probe={str(probe).lower()}"]
    )
    options = SessionOptions(headless=True, speed=speed)
    walk = None
    try:
        with open_session(profile, options) as session:
            walk = Walkthrough(
                session,
                LogoEnv(session),
                profile,
                first,
                last,
                progress=Progress(last - first + 1),
                probe=probe,
            )
            report = walk.run()
    except BotError as exc:
        return (walk.report if walk else None), 0.0, str(exc)
    return report, report.seconds, None


def run(name: str, snapshot: Path, first: int, last: int, speed: int, probe: bool) -> Row:
    reading = BUILDS[name]
    report, wall, error = play(snapshot, first, last, speed, probe)
    presses = report.planned_presses if report else 0
    frame_s = FRAME_S * 100 / speed
    floor = presses * press_frames(reading) * frame_s + game_seconds(
        load_profile("practice"), first, last, speed
    )
    return Row(name, probe, report, wall, floor, error)


def play_corrections(report: RunReport) -> int:
    """Corrections in play (lost or doubled moves and actions), not the menus'."""
    return sum(sum(r.report.corrections.values()) for r in report.results.values() if r.report)


def table(rows: list[Row], first: int, last: int, speed: int) -> str:
    count = last - first + 1
    out = [
        f"key-reading benchmark, levels {first}-{last} at {speed} %",
        f"{'build':<14} {'timing':<7} {'levels':>8} {'wall':>7} {'floor':>7} {'ratio':>6} "
        f"{'keys':>6} {'corr/100':>8}  played with",
    ]
    for r in rows:
        rep = r.report
        done = rep.levels_done if rep else 0
        keys = rep.keys_sent if rep else 0
        per_100 = play_corrections(rep) * 100 / keys if rep and keys else float("nan")
        t = (rep.key_timing or {}) if rep else {}
        played = (
            f"{t.get('hold_ms', 0):g}/{t.get('gap_ms', 0):g} ms, rollover "
            f"{'on' if t.get('rollover') else 'off'}"
            if t
            else "-"
        )
        probe = rep.key_probe if rep else None
        if probe and probe.get("repeats"):
            delay, every = probe["repeat_delay_frames"], probe["repeat_every_frames"]
            played += f", repeats after {delay:g} frames, every {every:g}"
        ratio = r.wall / r.floor if r.floor and r.wall else float("nan")
        out.append(
            f"{r.build:<14} {'probe' if r.probe else 'fixed':<7} {done:>4}/{count:<3} "
            f"{clock(r.wall):>7} {clock(r.floor):>7} {ratio:>6.2f} {keys:>6} {per_100:>8.2f}  "
            f"{played}" + (f"  [stopped: {r.error}]" if r.error else "")
        )
    out.append("")
    for r in rows:
        if not r.probe:
            continue
        rep = r.report
        done = bool(rep) and rep.levels_done == count
        keys = rep.keys_sent if rep else 0
        per_100 = play_corrections(rep) * 100 / keys if rep and keys else 99.0
        ratio = r.wall / r.floor if r.floor and r.wall else 99.0
        out.append(
            f"{r.build} with the probe: {'PASS' if done else 'FAIL'} all levels, "
            f"{'PASS' if ratio <= 1.3 else 'FAIL'} wall <= 1.3 x floor ({ratio:.2f}), "
            f"{'PASS' if per_100 <= 1 else 'FAIL'} corrections <= 1 per 100 keys "
            f"({per_100:.2f})"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--levels", default="1-100", help="level range (default 1-100)")
    p.add_argument("--speed", type=int, default=200, help="emulation speed in percent")
    p.add_argument(
        "--builds", default=",".join(BUILDS), help=f"comma-separated, of: {', '.join(BUILDS)}"
    )
    p.add_argument("--timings", default="probe,fixed", help="probe, fixed or both (default both)")
    args = p.parse_args(argv)
    first, last = level_range(args.levels, 100)
    names = [n.strip() for n in args.builds.split(",") if n.strip()]
    unknown = [n for n in names if n not in BUILDS]
    if unknown:
        p.error(f"unknown builds {', '.join(unknown)}: choose from {', '.join(BUILDS)}")
    timings = [t.strip() == "probe" for t in args.timings.split(",")]
    rows = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="key-reading-") as tmp:
        for name in names:
            snapshot = build.build(Path(tmp) / name, key_reading=BUILDS[name]).z80
            for probe in timings:
                print(f"{name}, {'probe' if probe else 'fixed timing'}...", file=sys.stderr)
                rows.append(run(name, snapshot, first, last, args.speed, probe))
    print(table(rows, first, last, args.speed))
    print(f"\n(benchmark took {clock(time.monotonic() - started)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
