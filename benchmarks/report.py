"""Text tables for the benchmark's figures."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from benchmarks.measure import Tally


def ms(seconds: float) -> str:
    """Milliseconds with three significant figures, at most."""
    value = seconds * 1000
    if math.isnan(value):
        return "-"
    if value < 1:
        return f"{value:.3f}"
    if value < 10:
        return f"{value:.2f}"
    if value < 100:
        return f"{value:.1f}"
    return f"{value:.0f}"


def spread(tally: Tally | None) -> str:
    """``median / max`` in ms, with the number of timeouts when there were any."""
    if tally is None:
        return "n/a"
    text = f"{ms(tally.median)} / {ms(tally.worst)}"
    return text + (f" ({tally.timeouts} t/o)" if tally.timeouts else "")


def ratio(peer: Tally | None, ours: Tally) -> str:
    """Peer median over our median; '>=' when timeouts make the peer's median a floor."""
    if peer is None:
        return "n/a"
    value = peer.median / ours.median
    text = f"{value:.0f}" if value >= 100 else f"{value:.3g}"
    return (">=" if peer.timeouts else "") + text


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right_from: int = 1,
    left: Sequence[int] = (),
) -> str:
    """Columns padded to their widest cell; those from ``right_from`` on are right-aligned
    except the ones listed in ``left``."""
    widths = [max(len(str(r[k])) for r in [header, *rows]) for k in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if k >= right_from and k not in left else str(c).ljust(w)
            for k, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


class Progress:
    """One line on stderr, rewritten in place on a terminal, one per phase otherwise."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.label = ""
        self.tty = sys.stderr.isatty()

    def phase(self, label: str) -> None:
        self.label = label
        if not self.tty:
            print(f"[bench {self.percent:3d}%] {label}", file=sys.stderr, flush=True)
        self._draw()

    def tick(self) -> None:
        self.done += 1
        self._draw()

    @property
    def percent(self) -> int:
        return min(100, 100 * self.done // self.total)

    def _draw(self) -> None:
        if self.tty:
            text = f"[bench {self.percent:3d}%] {self.label}"
            print(f"\r{text[:100]:<100}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tty:
            print("\r" + " " * 100 + "\r", end="", file=sys.stderr, flush=True)
