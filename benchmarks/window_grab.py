"""Reading the Fuse window's picture on XWayland: plain GetImage against XShm, ms a frame.

    .venv/bin/python benchmarks/window_grab.py --grabs 200
    .venv/bin/python benchmarks/window_grab.py --display :N   # a desktop's XWayland

Without ``--display`` it starts its own Wayland desktop (weston on a private Xvfb,
``faults.wayland``). For each Fuse build and scale it starts Fuse on XWayland's display
and grabs the picture ``--grabs`` times with each grabber, one after another; it prints
the median and the 95th percentile in ms, and whether the picture is the same both ways.
A full-frame-rate video of the picture needs one grab every 20 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from faults.wayland import wayland_desktop
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.x11.grab import Grabber, ShmGrabber, XlibGrabber

FRAME_MS = 20.0


def timed(grabber: Grabber, grabs: int) -> tuple[list[float], np.ndarray]:
    """Milliseconds of each grab, and the last picture."""
    times = []
    picture = grabber.grab()
    for _ in range(grabs):
        began = time.perf_counter()
        picture = grabber.grab()
        times.append((time.perf_counter() - began) * 1000)
    return times, picture


def measure(display: str, build: str, scale: int, grabs: int) -> list[str]:
    config = FuseConfig(scale=scale, build=build, statusbar=build == "gtk")
    lines = []
    with Fuse.start(config, display) as fuse:
        time.sleep(1.0)  # the ROM's start-up screen is drawn (any picture would do)
        pictures = []
        for kind in (XlibGrabber, ShmGrabber):
            with kind(display, fuse.window_id) as grabber:
                times, picture = timed(grabber, grabs)
                plain = getattr(grabber, "plain_grabs", 0)
            pictures.append(picture)
            p95 = statistics.quantiles(times, n=20)[-1]
            h, w = picture.shape[:2]
            lines.append(
                f"fuse-{build:<3} {scale}x {w}x{h:<4} {kind.name:<4} "
                f"median {statistics.median(times):6.2f} ms  p95 {p95:6.2f} ms  "
                f"({'fits' if p95 < FRAME_MS else 'too slow for'} {FRAME_MS:.0f} ms a frame)"
                + (f", {plain} read plainly (off the screen)" if plain else "")
            )
        same = all(np.array_equal(pictures[0], p) for p in pictures[1:])
        lines.append(f"  the same picture both ways: {same}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--display", help="an XWayland display (default: start a desktop)")
    parser.add_argument("--grabs", type=int, default=200)
    parser.add_argument("--builds", default="sdl,gtk")
    parser.add_argument("--scales", default="1,2,3")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        display = args.display or stack.enter_context(wayland_desktop()).display
        print(f"XWayland display {display}, {args.grabs} grabs each")
        for build in args.builds.split(","):
            for scale in map(int, args.scales.split(",")):
                for line in measure(display, build, scale, args.grabs):
                    print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
