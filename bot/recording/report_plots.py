"""The report's plots as SVG files (``svg_chart``): keys over the run's wall time with
corrections and crashes marked, and seconds per level."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from pathlib import Path

from logo_bot.bot.recording.report_data import RunData, keys_over_time, moments
from logo_bot.bot.recording.svg_chart import Chart

STATUS_COLOURS = {"done": "#3a7d44", "failed": "#c0392b", "aborted": "#999999"}
OTHER_STATUS = "#999999"
RUN_COLOURS = ("#1f5fa8", "#d9822b")
MARKED = "#c0392b"  # corrections and failures


def keys_plot(runs: Sequence[RunData], path: Path) -> Path:
    """Cumulative keys over wall time, one line per run; corrections (x), failures (o)
    and restarts or crashes of Fuse (dashed lines) marked."""
    lines = [keys_over_time(data) for data in runs]
    longest = max((times[-1] for times, _ in lines if times), default=1.0)
    most = max((keys[-1] for _, keys in lines if keys), default=1)
    chart = Chart((0, longest), (0, most), "seconds since the start of the run", "keys",
                  whole_y=True)  # fmt: skip
    for index, (data, (times, keys)) in enumerate(zip(runs, lines, strict=True)):
        colour = RUN_COLOURS[index % len(RUN_COLOURS)]
        text = data.name if len(runs) > 1 else "keys pressed in levels (every attempt)"
        chart.step_line(times, keys, colour, text)
        for names, shape, what in (
            (("correction",), "x", "correction"),
            (("failure", "level_gone"), "o", "failure"),
        ):
            at = moments(data, names)
            chart.markers(at, [_value_at(times, keys, t) for t in at], shape, MARKED, what)
        for t in moments(data, ("crash", "restart")):
            chart.vertical(t, colour, "Fuse restarted")
    path.write_text(chart.svg(), encoding="utf-8")
    return path


def seconds_plot(runs: Sequence[RunData], path: Path) -> Path:
    """Seconds per level: bars coloured by the level's status (side by side for two runs)."""
    rows = [[r for r in data.rows if r.get("seconds") is not None] for data in runs]
    levels = [r.level for some in rows for r in some] or [1]
    longest = max((r.get("seconds") for some in rows for r in some), default=1.0)
    chart = Chart((min(levels) - 0.5, max(levels) + 0.5), (0, longest), "level", "seconds",
                  whole_x=True)  # fmt: skip
    width = 0.8 / max(1, len(runs))
    for index, (data, some) in enumerate(zip(runs, rows, strict=True)):
        xs = [r.level + (index - (len(runs) - 1) / 2) * width for r in some]
        ys = [r.get("seconds") for r in some]
        if len(runs) > 1:
            colour = RUN_COLOURS[index % len(RUN_COLOURS)]
            chart.bars(xs, ys, width, [colour] * len(some))
            chart.key(colour, data.name)
            continue
        statuses = [str(r.get("status")) for r in some]
        colours = [STATUS_COLOURS.get(status, OTHER_STATUS) for status in statuses]
        chart.bars(xs, ys, width, colours)
        for status, colour in zip(statuses, colours, strict=True):
            chart.key(colour, status)
    path.write_text(chart.svg(), encoding="utf-8")
    return path


def _value_at(times: list[float], values: list[int], t: float) -> int:
    index = bisect.bisect_right(times, t)
    return values[index - 1] if index else 0
