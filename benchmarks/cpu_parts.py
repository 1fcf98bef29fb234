"""Where the bot's CPU goes in a walkthrough: the CPU time of each part.

    .venv/bin/python -m benchmarks.cpu_parts                 # levels 1-20 at 100 %
    .venv/bin/python -m benchmarks.cpu_parts --speed 200 --levels 1-5

Plays as ``benchmarks/cpu.py`` does, with each part in ``PARTS`` timed by the CPU time
of the thread that runs it (``time.thread_time``: waits cost nothing), and prints a
table: the part, the part it runs inside (parts nest: a look includes its conversion),
its CPU seconds, calls, microseconds a call and share of the bot's CPU. The timing adds
about 2 microseconds a call. A sampling profiler misses what numpy does without the GIL,
and a tracing one (cProfile) triples the cost of small calls; this one times only the
parts named here, at their own cost.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (module, attribute path in it, label, the label of the part it runs inside)
Part = tuple[str, str, str, str]
PARTS: tuple[Part, ...] = (
    ("logo_bot.bot.fuse.session", "Session.frame", "a look", ""),
    ("logo_bot.bot.x11.reading_watch", "LinkedWatch.look", "the watch's read", "a look"),
    ("logo_bot.bot.x11.reading_watch", "to_rgb", "BGRX to RGB", "the watch's read"),
    ("logo_bot.bot.x11.framebuffer", "Framebuffer.read", "screen file to RGB", "the watch's read"),
    ("logo_bot.bot.x11.framebuffer", "Framebuffer.view", "screen file area", "the watch's read"),
    ("logo_bot.bot.x11.damage", "DamageWatch._check_unreported", "unreported check", "a look"),
    ("logo_bot.bot.x11.cover", "CoverWatch.covered", "cover check", "a look; key events"),
    ("logo_bot.bot.x11.damage", "DamageWatch.wait", "wait for a drawing", ""),
    ("logo_bot.bot.x11.window_keys", "WindowDelivery.guarded", "key events, checked", ""),
    ("logo_bot.bot.x11.x11_keys", "X11Keys._hold_until", "holding a key", ""),
    ("logo_bot.bot.see.screens", "ScreenReader.which", "which screen", ""),
    ("logo_bot.bot.see.screens", "ScreenReader.text_at", "reading text", ""),
    ("logo_bot.bot.play.player", "plan_ahead", "planning the next level", ""),
)
INHERITED = object()  # a method the class takes from its base: deleted again afterwards


@dataclass
class Spent:
    seconds: float = 0.0
    calls: int = 0


@dataclass
class Parts:
    """CPU time of the functions ``parts`` name while ``timed`` is open."""

    parts: tuple[Part, ...] = PARTS
    spent: dict[str, Spent] = field(default_factory=dict)

    def timer(self, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        spent = self.spent.setdefault(label, Spent())

        @wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent.seconds += time.thread_time() - started
                spent.calls += 1

        return timed

    @contextmanager
    def timed(self) -> Iterator[None]:
        """Each part replaced by its timed self; put back afterwards."""
        undo: list[tuple[Any, str, Any]] = []
        try:
            for module, path, label, _ in self.parts:
                *owners, name = path.split(".")
                owner: Any = importlib.import_module(module)
                for step in owners:
                    owner = getattr(owner, step)
                undo.append((owner, name, vars(owner).get(name, INHERITED)))
                setattr(owner, name, self.timer(label, getattr(owner, name)))
            yield
        finally:
            for owner, name, original in reversed(undo):
                if original is INHERITED:
                    delattr(owner, name)
                else:
                    setattr(owner, name, original)

    def table(self, total_s: float) -> str:
        inside = {label: parent for _, _, label, parent in self.parts}
        out = [
            "| part | inside | CPU | calls | per call | share of the bot's CPU |",
            "|---|---|---|---|---|---|",
        ]
        for label, spent in sorted(self.spent.items(), key=lambda item: -item[1].seconds):
            per_call = 1e6 * spent.seconds / max(spent.calls, 1)
            out.append(
                f"| {label} | {inside.get(label, '')} | {spent.seconds:.2f} s | {spent.calls} "
                f"| {per_call:.0f} us | {100 * spent.seconds / max(total_s, 1e-9):.0f} % |"
            )
        return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--speed", type=int, default=100, help="speed in percent (default 100)")
    p.add_argument("--levels", default="1-20", help="level range (default 1-20)")
    args = p.parse_args(argv)
    from benchmarks import cpu
    from logo_bot.bot.commands.common import level_range
    from logo_bot.bot.profile import load_profile

    first, last = level_range(args.levels, 100)
    parts = Parts()
    with parts.timed():
        cost = cpu.run(load_profile("practice", []), first, last, args.speed)
    print(cpu.table([cost], first, last))
    print()
    print(f"Where the bot's {cost.bot_s:.2f} s went ({cost.bot_ms_per_key:.2f} ms a key):")
    print(parts.table(cost.bot_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
