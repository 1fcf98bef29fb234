"""The hand-drawn SVG charts of the report: ticks, marks in data units, escaping, and
files any SVG reader can parse."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logo_bot.bot.recording.svg_chart import BOTTOM, HEIGHT, LEFT, TOP, WIDTH, Chart, nice_ticks

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(chart: Chart) -> ET.Element:
    root = ET.fromstring(chart.svg())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(1e-3, 1e6, allow_nan=False),
    st.booleans(),
)
def test_ticks_cover_the_range_at_a_round_step(low, span, whole):
    ticks = nice_ticks(low, low + span, whole=whole)
    slack = 1e-6 * (ticks[1] - ticks[0])  # a bound within a millionth of a step is on it
    assert ticks[0] <= low + slack and ticks[-1] >= low + span - slack
    step = (ticks[-1] - ticks[0]) / (len(ticks) - 1)
    noise = 4 * math.ulp(max(abs(ticks[0]), abs(ticks[-1])))  # of ticks far from 0
    assert all(
        b - a == pytest.approx(step, rel=1e-6, abs=noise) for a, b in itertools.pairwise(ticks)
    )
    mantissa = step / 10 ** math.floor(math.log10(step))  # the step's first digit
    assert any(math.isclose(mantissa, m, rel_tol=1e-6) for m in (1, 2, 5, 10))
    assert len(ticks) <= 14
    if whole:
        assert all(t == int(t) for t in ticks)


def test_a_range_of_nothing_still_has_two_ticks():
    assert nice_ticks(0, 0) == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    assert nice_ticks(3, 3, whole=True) == [3, 4]


def test_a_step_line_holds_each_value_until_the_next_x():
    chart = Chart((0, 10), (0, 100), "seconds", "keys")
    chart.step_line([0, 5, 10], [10, 50, 100], "#123456", "keys")
    (line,) = parse(chart).findall("svg:polyline", NS)
    points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    assert len(points) == 5
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    assert xs == [chart.x(0), chart.x(5), chart.x(5), chart.x(10), chart.x(10)]
    assert ys[1] == ys[0] and ys[3] == ys[2], "flat until the next x, then up"
    assert ys[0] > ys[2] > ys[4] == pytest.approx(TOP), "higher values are higher up"
    assert xs[0] == pytest.approx(LEFT) and xs[-1] == pytest.approx(WIDTH - 12)


def test_bars_stand_on_zero_with_their_heights_in_proportion():
    chart = Chart((0.5, 3.5), (0, 4), "level", "seconds", whole_x=True)
    chart.bars([1, 2, 3], [1, 2, 4], 0.8, ["#a", "#b", "#c"])
    rects = [r for r in parse(chart).findall("svg:rect", NS) if r.get("fill") in ("#a", "#b", "#c")]
    heights = [float(r.get("height")) for r in rects]
    bottoms = [float(r.get("y")) + float(r.get("height")) for r in rects]
    assert heights[1] == pytest.approx(2 * heights[0], abs=0.2)
    assert heights[2] == pytest.approx(4 * heights[0], abs=0.2)
    assert bottoms == pytest.approx([HEIGHT - BOTTOM] * 3, abs=0.1)
    widths = {round(float(r.get("width"))) for r in rects}
    assert len(widths) == 1 and widths.pop() > 0


def test_markers_and_lines_are_drawn_one_each_and_named_once_in_the_legend():
    chart = Chart((0, 10), (0, 10), "x", "y")
    chart.markers([1, 2, 3], [1, 2, 3], "x", "#c0392b", "correction")
    chart.markers([4, 5], [4, 5], "o", "#c0392b", "failure")
    chart.markers([6], [6], "o", "#c0392b", "failure")
    chart.vertical(7, "#1f5fa8", "Fuse restarted")
    root = parse(chart)
    plot_paths = [p for p in root.findall("svg:path", NS)]
    circles = root.findall("svg:circle", NS)
    legend = [t.text for g in root.findall("svg:g", NS) for t in g.findall("svg:text", NS)]
    assert len(plot_paths) == 3 and len(circles) == 3
    assert legend == ["correction", "failure", "Fuse restarted"]
    dashed = [x for x in root.findall("svg:line", NS) if x.get("stroke-dasharray")]
    assert len(dashed) == 1 and float(dashed[0].get("x1")) == pytest.approx(chart.x(7), abs=0.1)


def test_no_marker_no_legend_entry():
    chart = Chart((0, 1), (0, 1), "x", "y")
    chart.markers([], [], "x", "#c0392b", "correction")
    assert not chart.legend


def test_every_text_is_escaped_and_read_back_whole():
    nasty = "run <b>&'\"</b>"
    chart = Chart((0, 1), (0, 1), nasty, "keys & more")
    chart.key("#3a7d44", nasty)
    root = parse(chart)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count(nasty) == 2 and "keys & more" in texts
    assert "<b>" not in chart.svg()


def test_tick_labels_read_as_plain_numbers():
    chart = Chart((0, 0.7), (0, 120), "x", "y")
    texts = [t.text for t in parse(chart).iter("{http://www.w3.org/2000/svg}text")]
    assert 3 * 0.2 != 0.6 and "0.6" in texts and "0.8" in texts
    assert "120" in texts and "120.0" not in texts
