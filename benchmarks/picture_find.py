"""Picture benchmark: what finding Fuse's picture by its pixels costs.

    .venv/bin/python benchmarks/picture_find.py            # 50 rounds a case
    .venv/bin/python benchmarks/picture_find.py --rounds 200

The bot looks for the picture in the whole window when the window changes size (and while
none shows); at each refresh of the window's place, once a second, it checks the border of
the box it found; a grab of the picture happens several times a key. This prints, for
windows of each kind (fuse-sdl, fuse-gtk with DejaVu's or Noto's bars, tiled by i3, drawn
twice as large and smoothly by a HiDPI desktop), the median time of a whole search, of the
search that starts from the box found before, of the border check, and of reading Fuse's
own pixels back from a smoothed picture (at each grab), each against copying the picture
out of the window (what a grab costs beyond the X request), measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logo_bot.bot.x11.picture import border_holds, find_picture, margin_of, picture_at
from logo_bot.bot.x11.smoothing import LEVELS, smoothed

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "bot" / "see" / "fixtures"
GREY = (246, 245, 244)
CASES = {  # name: (scale, window size, menu bar, status bar, HiDPI factor)
    "fuse-sdl 2x": (2, (640, 480), 0, 0, 1),
    "fuse-gtk 2x, DejaVu": (2, (640, 532), 25, 27, 1),
    "fuse-gtk 2x, Noto": (2, (640, 534), 27, 27, 1),
    "fuse-gtk 3x, Noto": (3, (960, 774), 27, 27, 1),
    "fuse-gtk tiled by i3, 3x": (3, (1276, 984), 27, 27, 1),
    "fuse-gtk 1x, HiDPI 2x": (1, (640, 588), 54, 54, 2),
    "fuse-gtk 2x, HiDPI 2x": (2, (1280, 1068), 54, 54, 2),
}


def window(scale: int, size: tuple[int, int], menu: int, status: int, factor: int) -> np.ndarray:
    """A window of ``size``: grey bars, black fill, the recorded level at ``scale``,
    smoothed ``factor`` times as large (in Fuse's colours at 24 bits)."""
    picture = np.asarray(Image.open(FIXTURES / f"play_{scale}x_a.png").convert("RGB"))
    if factor > 1:
        nearest = np.abs(picture[..., None].astype(int) - LEVELS).argmin(axis=-1)
        picture = smoothed(LEVELS[nearest].astype(np.uint8), factor)
    width, height = size
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:menu] = GREY
    if status:
        pixels[height - status :] = GREY
    pixels[menu : menu + picture.shape[0], : picture.shape[1]] = picture
    return pixels


def median_ms(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50, help="timings a case (default 50)")
    args = parser.parse_args(argv)
    print(
        f"{'window':28} {'search':>9} {'from box':>9} {'border':>8} {'read':>8} {'copy':>7}"
        f"   border/copy read/copy"
    )
    for name, (scale, size, menu, status, factor) in CASES.items():
        pixels = window(scale, size, menu, status, factor)
        box = find_picture(pixels)
        assert box == picture_at(0, menu, scale * factor, factor), (name, box)
        picture = box.crop(pixels)
        search = median_ms(lambda p=pixels: find_picture(p), args.rounds)
        again = median_ms(lambda p=pixels, b=box: find_picture(p, hint=b), args.rounds)
        border = median_ms(lambda p=picture, b=box: border_holds(p, margin_of(b)), args.rounds)
        read = median_ms(lambda p=picture, b=box: b.as_drawn(p), args.rounds)
        copy = median_ms(lambda p=picture: np.ascontiguousarray(p[:, :, [2, 1, 0]]), args.rounds)
        print(
            f"{name:28} {search:7.2f}ms {again:7.2f}ms {border:6.2f}ms {read:6.2f}ms "
            f"{copy:5.2f}ms   {border / copy:11.1f} {read / copy:9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
