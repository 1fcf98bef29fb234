"""The report's plots as SVG files (matplotlib, no display needed): keys over the run's
wall time with corrections and crashes marked, and seconds per level."""

from __future__ import annotations

import bisect
import io
from collections.abc import Sequence
from pathlib import Path

from logo_bot.bot.recording.report_data import RunData, keys_over_time, moments

STATUS_COLOURS = {"done": "#3a7d44", "failed": "#c0392b", "aborted": "#999999"}
RUN_COLOURS = ("#1f5fa8", "#d9822b")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: never a window
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "logo-bot", "svg.fonttype": "none", "font.size": 9})
    return plt


def _save(fig, path: Path) -> Path:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def keys_plot(runs: Sequence[RunData], path: Path) -> Path:
    """Cumulative keys over wall time, one line per run; corrections (x), failures (o)
    and restarts or crashes of Fuse (dashed lines) marked."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    try:
        for index, data in enumerate(runs):
            colour = RUN_COLOURS[index % len(RUN_COLOURS)]
            times, keys = keys_over_time(data)
            label = data.name if len(runs) > 1 else "keys pressed in levels (every attempt)"
            ax.step(times, keys, where="post", color=colour, label=label, linewidth=1.4)
            for names, marker, what in (
                (("correction",), "x", "correction"),
                (("failure", "level_gone"), "o", "failure"),
            ):
                at = moments(data, names)
                if at:
                    ys = [_value_at(times, keys, t) for t in at]
                    ax.scatter(at, ys, marker=marker, color="#c0392b", zorder=3,
                               label=what if index == 0 else None)  # fmt: skip
            for n, t in enumerate(moments(data, ("crash", "restart"))):
                ax.axvline(t, color=colour, linestyle="--", linewidth=1,
                           label="Fuse restarted" if n == 0 and index == 0 else None)  # fmt: skip
        ax.set_xlabel("seconds since the start of the run")
        ax.set_ylabel("keys")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper left", frameon=False)
        return _save(fig, path)
    finally:
        plt.close(fig)


def seconds_plot(runs: Sequence[RunData], path: Path) -> Path:
    """Seconds per level: bars coloured by the level's status (side by side for two runs)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.6))
    try:
        width = 0.8 / max(1, len(runs))
        for index, data in enumerate(runs):
            rows = [r for r in data.rows if r.get("seconds") is not None]
            xs = [r.level + (index - (len(runs) - 1) / 2) * width for r in rows]
            ys = [r.get("seconds") for r in rows]
            if len(runs) > 1:
                ax.bar(xs, ys, width=width, color=RUN_COLOURS[index % 2], label=data.name)
            else:
                colours = [STATUS_COLOURS.get(r.get("status"), "#999999") for r in rows]
                ax.bar(xs, ys, width=width, color=colours)
        ax.set_xlabel("level")
        ax.set_ylabel("seconds")
        ax.grid(axis="y", alpha=0.3)
        if len(runs) > 1:
            ax.legend(loc="upper left", frameon=False)
        ax.xaxis.get_major_locator().set_params(integer=True)
        return _save(fig, path)
    finally:
        plt.close(fig)


def _value_at(times: list[float], values: list[int], t: float) -> int:
    index = bisect.bisect_right(times, t)
    return values[index - 1] if index else 0
