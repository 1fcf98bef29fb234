"""A small chart as a stand-alone SVG file: axes with round-numbered ticks and a grid,
marks placed in the data's own units (step lines, bars, markers, vertical lines) and a
legend. Drawn by hand in milliseconds (the report's plots are written at the end of every
run, also one the person stopped, within its bounded end); every text is escaped."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 10, 40  # room for the tick labels and the axis names
FONT = "font-family='DejaVu Sans, Arial, sans-serif' font-size='11'"
TICKS = 6  # about this many intervals on an axis
MARK = 3.5  # half the size of a marker (pixels)


def nice_ticks(low: float, high: float, whole: bool = False) -> list[float]:
    """Ticks 1, 2 or 5 times a power of ten apart, from at or below ``low`` to at or above
    ``high``; ``whole``: whole numbers only (levels, keys)."""
    if not high > low:
        high = low + 1
    raw = (high - low) / TICKS
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    if whole:
        step = max(1.0, float(round(step)))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [k * step for k in range(first, last + 1)]


def label(value: float) -> str:
    """A tick's text: no ".0" and no float noise."""
    return f"{round(value, 6):g}"


@dataclass(frozen=True)
class Scale:
    """Data units to pixels along one axis: ``low`` at pixel ``start``, ``high`` at ``end``."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        return self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start)


def px(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


class Chart:
    """One chart: give the data's ranges and the axes' names, add marks, then ``svg()``."""

    def __init__(
        self,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        x_name: str,
        y_name: str,
        *,
        whole_x: bool = False,
        whole_y: bool = False,
    ) -> None:
        self.x_ticks = nice_ticks(*x_range, whole=whole_x)
        self.y_ticks = nice_ticks(*y_range, whole=whole_y)
        self.x = Scale(self.x_ticks[0], self.x_ticks[-1], LEFT, WIDTH - RIGHT)
        self.y = Scale(self.y_ticks[0], self.y_ticks[-1], HEIGHT - BOTTOM, TOP)
        self.names = (x_name, y_name)
        self.marks: list[str] = []
        self.legend: list[tuple[str, str]] = []  # (a swatch drawn around 0,0; its text)

    def step_line(self, xs: Sequence[float], ys: Sequence[float], colour: str, text: str) -> None:
        """A line that holds each value until the next x (a running total); named in the
        legend even with no point (a run with nothing to draw is still one of the runs)."""
        self._key(
            f"<line x1='-8' y1='0' x2='8' y2='0' stroke='{colour}' stroke-width='1.4'/>", text
        )
        if not xs:
            return
        points = [(self.x(xs[0]), self.y(ys[0]))]
        for x, y, before in zip(xs[1:], ys[1:], ys, strict=False):
            points += [(self.x(x), self.y(before)), (self.x(x), self.y(y))]
        path = " ".join(f"{px(a)},{px(b)}" for a, b in points)
        self.marks.append(
            f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='1.4'/>"
        )

    def markers(
        self, xs: Sequence[float], ys: Sequence[float], shape: str, colour: str, text: str | None
    ) -> None:
        """A cross ("x") or a ring ("o") at each point."""
        for x, y in zip(xs, ys, strict=True):
            self.marks.append(_marker(shape, colour, self.x(x), self.y(y)))
        if xs and text:
            self._key(_marker(shape, colour, 0, 0), text)

    def vertical(self, x: float, colour: str, text: str | None) -> None:
        """A dashed line across the chart at ``x``."""
        self.marks.append(
            f"<line x1='{px(self.x(x))}' y1='{TOP}' x2='{px(self.x(x))}' "
            f"y2='{HEIGHT - BOTTOM}' stroke='{colour}' stroke-dasharray='4 3'/>"
        )
        if text:
            self._key(
                f"<line x1='0' y1='-6' x2='0' y2='6' stroke='{colour}' stroke-dasharray='3 2'/>",
                text,
            )

    def bars(
        self, xs: Sequence[float], ys: Sequence[float], width: float, colours: Sequence[str]
    ) -> None:
        """A bar from 0 to each y, ``width`` data units wide, centred on its x."""
        base = self.y(max(0.0, self.y.low))
        for x, y, colour in zip(xs, ys, colours, strict=True):
            left, right = self.x(x - width / 2), self.x(x + width / 2)
            top = self.y(y)
            self.marks.append(
                f"<rect x='{px(left)}' y='{px(min(top, base))}' width='{px(right - left)}' "
                f"height='{px(abs(base - top))}' fill='{colour}'/>"
            )

    def key(self, colour: str, text: str) -> None:
        """A legend entry of a filled square (what bars of ``colour`` mean)."""
        self._key(f"<rect x='-4' y='-4' width='8' height='8' fill='{colour}'/>", text)

    def _key(self, swatch: str, text: str) -> None:
        if all(text != known for _, known in self.legend):
            self.legend.append((swatch, text))

    def svg(self) -> str:
        """The whole file."""
        bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
        parts = [
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
            f"viewBox='0 0 {WIDTH} {HEIGHT}' {FONT}>",
            f"<rect width='{WIDTH}' height='{HEIGHT}' fill='#ffffff'/>",
        ]
        for tick in self.y_ticks:
            y = px(self.y(tick))
            parts.append(f"<line x1='{LEFT}' y1='{y}' x2='{right}' y2='{y}' stroke='#e4e4e4'/>")
            parts.append(
                f"<text x='{LEFT - 5}' y='{y}' text-anchor='end' dy='0.35em'>{label(tick)}</text>"
            )
        for tick in self.x_ticks:
            x = px(self.x(tick))
            parts.append(f"<line x1='{x}' y1='{bottom}' x2='{x}' y2='{bottom + 4}' stroke='#444'/>")
            parts.append(
                f"<text x='{x}' y='{bottom + 15}' text-anchor='middle'>{label(tick)}</text>"
            )
        parts += self.marks
        parts.append(
            f"<rect x='{LEFT}' y='{TOP}' width='{right - LEFT}' height='{bottom - TOP}' "
            "fill='none' stroke='#444'/>"
        )
        x_name, y_name = (escape(name) for name in self.names)
        parts.append(
            f"<text x='{(LEFT + right) / 2:g}' y='{HEIGHT - 6}' "
            f"text-anchor='middle'>{x_name}</text>"
        )
        middle = (TOP + bottom) / 2
        parts.append(
            f"<text transform='translate(14 {middle:g}) rotate(-90)' "
            f"text-anchor='middle'>{y_name}</text>"
        )
        for row, (swatch, text) in enumerate(self.legend):
            row_y = TOP + 12 + row * 15
            parts.append(
                f"<g transform='translate({LEFT + 14} {row_y})'>{swatch}"
                f"<text x='14' dy='0.35em'>{escape(text)}</text></g>"
            )
        parts.append("</svg>")
        return "\n".join(parts) + "\n"


def _marker(shape: str, colour: str, x: float, y: float) -> str:
    if shape == "o":
        return (
            f"<circle cx='{px(x)}' cy='{px(y)}' r='{MARK}' fill='none' stroke='{colour}' "
            "stroke-width='1.4'/>"
        )
    a, b, c, d = px(x - MARK), px(x + MARK), px(y - MARK), px(y + MARK)
    return f"<path d='M{a},{c}L{b},{d}M{a},{d}L{b},{c}' stroke='{colour}' stroke-width='1.6'/>"
