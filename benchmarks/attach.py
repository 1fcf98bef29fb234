"""Attach benchmark: playing in someone's own Fuse against a Fuse the bot starts.

    .venv/bin/python benchmarks/attach.py                   # levels 1-20 at 200 %
    .venv/bin/python benchmarks/attach.py --levels 1-5 --speed 100 --fuse gtk

Plays the levels three times on one private Xvfb, at the same speed: attached to a
Fuse the benchmark started (at its title screen, as a person would leave it) with the
video captured from the screen; attached again with --no-video; and launched by the
bot. Prints the wall times, the attached/launched ratio (goal <= 1.10) and what the
screen-capture recording costs each level against recording off (goal <= 5 %).
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

from bot.cli import main as logo_bot
from bot.commands.common import level_range
from bot.fuse.emulator import Fuse, FuseConfig
from bot.profile import load_profile
from bot.x11.display import XServer


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


def attached(display: str, config: FuseConfig, argv: list[str], root: Path) -> tuple[float, dict]:
    fuse = Fuse.start(config, display)
    try:
        time.sleep(1.0)  # the title screen is up
        return play(["walkthrough", "--attach", "--display", display, *argv], root)
    finally:
        fuse.stop()


def seconds(run: dict) -> dict[int, float]:
    return {e["level"]: e["seconds"] for e in run["levels"] if e.get("seconds")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1-20")
    parser.add_argument("--speed", type=int, default=200)
    parser.add_argument("--fuse", choices=("sdl", "gtk"), default="sdl", help="the person's Fuse")
    args = parser.parse_args()
    first, last = level_range(args.levels, 100)
    levels = ["--levels", f"{first}-{last}"]
    profile = load_profile("practice")
    snapshot = profile.resolve(profile.game["snapshot"])
    config = FuseConfig(snapshot=snapshot, speed=args.speed, **build_option(args.fuse))
    with XServer.start() as server, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print(f"levels {first}-{last} at {args.speed} %, the person's Fuse: fuse-{args.fuse}")
        recorded, rec_run = attached(server.display, config, levels, root / "a")
        print(f"attached, video from the screen: {recorded:7.1f} s")
        bare, bare_run = attached(server.display, config, [*levels, "--no-video"], root / "b")
        print(f"attached, --no-video:            {bare:7.1f} s")
        launched, _ = play(
            ["walkthrough", *levels, "--display", server.display, "--speed", str(args.speed)],
            root / "c",
        )
        print(f"launched by the bot:             {launched:7.1f} s")
    print(f"speed measured: {rec_run['fuse']['speed_measured']} % (asked {args.speed} %)")
    ratio = recorded / launched
    print(f"attached / launched: {ratio:.3f}  goal <= 1.10  {'PASS' if ratio <= 1.10 else 'FAIL'}")
    with_video, without = seconds(rec_run), seconds(bare_run)
    costs = [with_video[n] / without[n] - 1 for n in with_video if n in without]
    worst = max(costs)
    print(
        f"recording cost per level: median {statistics.median(costs) * 100:+.1f} %, "
        f"worst {worst * 100:+.1f} %  goal <= 5 %  {'PASS' if worst <= 0.05 else 'FAIL'}"
    )
    captured = rec_run["video"].get("captured") or {}
    print(
        f"capture: {captured.get('grabs')} grabs, {captured.get('late_slots')} late slots, "
        f"video {captured.get('frames')} frames at {captured.get('rate')} fps, "
        f"written in {captured.get('seconds_to_encode')} s after play"
    )
    return 0


def build_option(build: str) -> dict[str, str]:
    """FuseConfig's choice of build, where this version of it has one."""
    fields = FuseConfig.__dataclass_fields__
    return {"build": build} if "build" in fields else {}


if __name__ == "__main__":
    sys.exit(main())
