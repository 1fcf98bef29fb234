"""Attach benchmark: playing in someone's own Fuse against a Fuse the bot starts.

    .venv/bin/python benchmarks/attach.py                   # levels 1-20 at 200 %
    .venv/bin/python benchmarks/attach.py --levels 1-5 --speed 100 --fuse sdl

Plays the levels on one private Xvfb, at the same speed and with the same Fuse build
(--fuse): attached to a Fuse the benchmark started (at its title screen, as a person
would leave it) with the video captured from the screen, and attached with --no-video,
in turn for --rounds rounds; then launched by the bot. Prints the wall times, the
attached/launched ratio (goal <= 1.10), what the screen-capture recording costs each
level against recording off (median over the rounds; goal <= 5 %), and the capture
thread's CPU time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logo_bot.bot.cli import main as logo_bot
from logo_bot.bot.commands.common import level_range
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.profile import Profile, load_profile
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.grab import open_grabber


def play(argv: list[str], root: Path) -> tuple[float, dict]:
    """Run ``logo-bot``; its wall time and run.json."""
    started = time.monotonic()
    code = logo_bot([*argv, "--video-dir", str(root)])
    wall = time.monotonic() - started
    (folder,) = [p for p in root.iterdir() if p.is_dir()]
    run = json.loads((folder / "run.json").read_text())
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}: {run.get('error')}")
    return wall, run


def attached(
    display: str, config: FuseConfig, profile: Profile, argv: list[str], root: Path
) -> tuple[float, dict]:
    fuse = Fuse.start(config, display)
    try:
        wait_title(display, fuse, profile)
        return play(["walkthrough", "--attach", "--display", display, *argv], root)
    finally:
        fuse.stop()


def wait_title(display: str, fuse: Fuse, profile: Profile, timeout_s: float = 30) -> None:
    """Until the game's title screen shows in ``fuse`` (read with the profile's font)."""
    grabber = open_grabber(display, fuse.window_id)
    screens = ScreenReader(profile, fuse.config.scale)
    try:
        deadline = time.monotonic() + timeout_s
        while not screens.shows(grabber.grab(), "title"):
            if time.monotonic() > deadline:
                raise SystemExit(f"the title screen did not show in {timeout_s:.0f} s")
            time.sleep(0.02)
    finally:
        grabber.close()


def seconds(run: dict) -> dict[int, float]:
    return {e["level"]: e["seconds"] for e in run["levels"] if e.get("seconds")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1-20", metavar="RANGE", help="(default 1-20)")
    parser.add_argument(
        "--speed", type=int, default=200, metavar="PERCENT", help="emulation speed (default 200)"
    )
    parser.add_argument(
        "--fuse",
        choices=("sdl", "gtk"),
        default="gtk",
        help="the Fuse build of both the person's Fuse and the launched run (default gtk)",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="attached runs of each kind (default 2)"
    )
    args = parser.parse_args()
    first, last = level_range(args.levels, 100)
    levels = ["--levels", f"{first}-{last}"]
    profile = load_profile("practice")
    snapshot = profile.resolve(profile.game["snapshot"])
    config = FuseConfig(snapshot=snapshot, speed=args.speed, build=args.fuse)
    with XServer.start() as server, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print(f"levels {first}-{last} at {args.speed} %, the person's Fuse: fuse-{args.fuse}")
        runs: dict[str, list[dict]] = {"video": [], "bare": []}
        walls: dict[str, list[float]] = {"video": [], "bare": []}
        for turn in range(args.rounds):  # interleaved, so that drift hits both alike
            for kind, extra in (("video", []), ("bare", ["--no-video"])):
                wall, run = attached(
                    server.display, config, profile, [*levels, *extra], root / f"{kind}{turn}"
                )
                walls[kind].append(wall)
                runs[kind].append(run)
                print(f"attached, {kind:5} (round {turn + 1}): {wall:7.1f} s")
        launched, launched_run = play(
            [
                "walkthrough",
                *levels,
                "--display",
                server.display,
                "--speed",
                str(args.speed),
                "--fuse",
                args.fuse,
            ],
            root / "launched",
        )
        build = launched_run["session"].get("fuse_build")
        if build != args.fuse:
            raise SystemExit(f"the launched run used fuse-{build}, not fuse-{args.fuse}")
        print(f"launched by the bot:             {launched:7.1f} s  (fuse-{build})")
    recorded, rec_run = min(walls["video"]), runs["video"][0]
    print(f"speed measured: {rec_run['fuse']['speed_measured']} % (asked {args.speed} %)")
    ratio = recorded / launched
    print(f"attached / launched: {ratio:.3f}  goal <= 1.10  {'PASS' if ratio <= 1.10 else 'FAIL'}")
    costs = []
    for level in seconds(runs["video"][0]):
        with_video = statistics.median(seconds(r)[level] for r in runs["video"])
        without = statistics.median(seconds(r)[level] for r in runs["bare"])
        costs.append(with_video / without - 1)
    worst = max(costs)
    print(
        f"recording cost per level (median of {args.rounds} rounds): median "
        f"{statistics.median(costs) * 100:+.1f} %, worst {worst * 100:+.1f} %  goal <= 5 %  "
        f"{'PASS' if worst <= 0.05 else 'FAIL'}"
    )
    play_s = sum(seconds(rec_run).values())
    captured = rec_run["video"].get("captured") or {}
    print(
        f"capture thread CPU: {captured.get('cpu_s')} s for {play_s:.1f} s of play "
        f"({100 * (captured.get('cpu_s') or 0) / play_s:.1f} % of one core)"
    )
    print(
        f"capture: {captured.get('grabs')} slots ({captured.get('reused')} from the bot's own "
        f"frames), {captured.get('late_slots')} late, "
        f"video {captured.get('frames')} frames at {captured.get('rate')} fps, "
        f"written in {captured.get('seconds_to_encode')} s after play"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
