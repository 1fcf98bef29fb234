"""The trip of a run's options through the bot: which files the options object reaches,
and how often the trip climbs back up a layer.

Runs ``logo-bot walkthrough`` in this process (headless, no video, level 1 by default)
with a profile hook on every thread. A call *carries* the options when one of its
arguments is the run's options (``RunOptions``, or the ``SessionOptions`` in it and any
copy made of them) or holds them in an attribute (``session.options``). The trip is the
order in which calls that carry the options enter a file from another file. A *climb
back up* is a step of the trip from a file to one in a higher layer (the options went
down into, say, ``x11/`` and came back up to ``fuse/``); each different step is counted
once, however often the run repeats it.

    .venv/bin/python -m benchmarks.options_trip [--levels 1] [--top 15]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import itertools
import os
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bot/ layers, lowest first (bot/README.md's table); solvers below them all.
LAYERS = ["solvers", "base", "profile", "x11", "see", "fuse", "play", "recording", "commands"]
BASE_MODULES = {"errors", "frames", "interrupts", "processes", "installation", "terminal"}


def layer_of(path: str) -> int:
    """The rank of the layer that the file at ``path`` (relative to the checkout) is in."""
    parts = Path(path).parts
    if parts[0] == "solvers":
        return 0
    if len(parts) == 2:  # a top-level module of bot/
        stem = Path(parts[1]).stem
        if stem == "cli":
            return len(LAYERS)
        return LAYERS.index("profile") if stem == "profile" else LAYERS.index("base")
    return LAYERS.index(parts[1])


TRACKED = {"RunOptions", "SessionOptions"}


def is_options(value: object) -> bool:
    kind = type(value)
    return kind.__name__ in TRACKED and kind.__module__.startswith(("bot.", "logo_bot."))


def carries(frame: FrameType) -> bool:
    """Whether the call's arguments are, or hold in an attribute, an options object."""
    code = frame.f_code
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    for name in names:
        value = frame.f_locals.get(name)
        if is_options(value):
            return True
        attributes = getattr(value, "__dict__", None)
        if isinstance(attributes, dict) and any(is_options(v) for v in attributes.values()):
            return True
    return False


class Trip:
    """The files entered by calls that carry the options, in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self.lock = threading.Lock()

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        here = self.project_file(frame)
        if here is None or not here.startswith(("bot/", "solvers/")):
            return
        caller = frame.f_back
        if caller is not None and self.project_file(caller) == here:
            return  # within one file: not an entry
        if carries(frame):
            with self.lock:
                self.entries.append(here)

    @staticmethod
    def project_file(frame: FrameType) -> str | None:
        name = frame.f_code.co_filename
        root = str(ROOT) + os.sep
        return name[len(root) :] if name.startswith(root) else None

    def report(self, top: int) -> str:
        trip = [f for i, f in enumerate(self.entries) if i == 0 or self.entries[i - 1] != f]
        steps = set(itertools.pairwise(trip))
        climbs = sorted((a, b) for a, b in steps if layer_of(b) > layer_of(a))
        counts = collections.Counter(trip)
        lines = [
            f"files entered: {len(counts)}",
            f"entries: {len(trip)} ({len(steps)} different steps)",
            f"climbs back up a layer: {len(climbs)}",
            *(f"  {a} -> {b}" for a, b in climbs),
            "most entered:",
        ]
        lines += [f"  {n:5d}  {f}" for f, n in counts.most_common(top)]
        lines.append("every file: " + ", ".join(sorted(counts)))
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    package = "logo_bot.bot" if (ROOT / "logo_bot").is_dir() else "bot"  # before logo_bot
    walkthrough = importlib.import_module(f"{package}.commands.walkthrough")
    trip = Trip()
    with tempfile.TemporaryDirectory(prefix="options-trip-") as runs:
        argv = ["--levels", args.levels, "--headless", "--no-video", "--runs-dir", runs]
        threading.setprofile(trip.hook)
        sys.setprofile(trip.hook)
        try:
            code = walkthrough.main(argv)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
    print(f"walkthrough {' '.join(argv[:2])}: exit {code}")
    print(trip.report(args.top))
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
