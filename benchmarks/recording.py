"""Recording benchmark: what a run's recording costs, and how fast its replay is.

    .venv/bin/python benchmarks/recording.py                # levels 1-10 at 100 %
    .venv/bin/python benchmarks/recording.py --levels 1-5 --speed 200

Plays the levels twice in one Fuse setup each: once without recording (the reference)
and once with everything recorded (`logo-bot walkthrough`, with --annotate when asked),
then replays the run whole and one level alone. Prints wall times and their ratio to
the reference, the time spent after play (video, run.json), the sizes of the files, and
the frame counts (Fuse's movie, its input recording, the video) that must agree.
Targets: recording adds at most 10 % to the play; the video is written in less than a
quarter of the play's wall time at 100 %; frames agree within one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logo_bot.bot.cli import main as logo_bot
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.folder import list_runs
from logo_bot.bot.recording.video import probe
from logo_bot.bot.x11.display import XServer


def reference(display: str, first: int, last: int, speed: int) -> float:
    profile = load_profile("practice")
    options = SessionOptions(display=display, headless=False, speed=speed)
    started = time.monotonic()
    with open_session(profile, options) as session:
        report = Walkthrough(session, LogoEnv(session), profile, first, last).run()
    if report.status != "complete":
        raise SystemExit(f"the reference run did not complete: {report.status}")
    return time.monotonic() - started


def timed(argv: list[str]) -> tuple[int, float]:
    started = time.monotonic()
    code = logo_bot(argv)
    return code, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1-10")
    parser.add_argument("--speed", type=int, default=100)
    parser.add_argument("--annotate", action="store_true")
    args = parser.parse_args()
    first, last = level_range(args.levels, 100)
    with tempfile.TemporaryDirectory() as tmp, XServer.start() as server:
        base = reference(server.display, first, last, args.speed)
        argv = ["walkthrough", "--levels", args.levels, "--speed", str(args.speed)]
        argv += ["--display", server.display, "--video-dir", tmp]
        code, wall = timed(argv + (["--annotate"] if args.annotate else []))
        (folder,) = list_runs(Path(tmp))
        run = json.loads(folder.run_json.read_text())
        play = run["seconds"]  # from the folder's creation to the end of play
        video = probe(folder.video)
        replay_argv = ["replay", str(folder.path), "--display", server.display, "--speed"]
        _, whole = timed([*replay_argv, "1000", "--video"])
        _, level = timed([*replay_argv, "1000", "--level", str(last)])
        size = {p.name: p.stat().st_size for p in folder.path.glob("*") if p.is_file()}
    print(f"levels {args.levels} at {args.speed} %: exit {code}, status {run['status']}")
    print(f"play without recording  {base:7.1f} s  (reference)")
    print(f"play with recording     {play:7.1f} s  ({play / base:.2f} x)")
    print(
        f"video.mp4 written in    {run['video']['seconds_to_encode']:7.1f} s  "
        f"({run['video']['seconds_to_encode'] / play:.2f} x the play)"
    )
    if run.get("annotated"):
        print(f"annotated.mp4 in        {run['annotated']['seconds_to_encode']:7.1f} s")
    print(f"whole command           {wall:7.1f} s")
    print(f"replay whole at 1000 %  {whole:7.1f} s;  level {last} alone {level:.1f} s")
    frames = run["frames"]
    print(
        f"frames: movie {frames['movie']}, rzx {frames['rzx']}, video {video['frames']} "
        f"({'agree' if abs(video['frames'] - frames['rzx']) <= 1 else 'DISAGREE'})"
    )
    for name in ("video.mp4", "annotated.mp4", "run.rzx", "movie.fmf", "events.jsonl"):
        if name in size:
            print(f"  {name:14} {size[name] / 1024:9.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
