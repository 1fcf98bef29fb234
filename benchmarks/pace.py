"""The walkthrough's pace and where its time goes, as Markdown tables.

Built from what a run says about itself: ``levels[].seconds``, ``totals.keys_sent`` and
``time_spent`` in run.json (``Pace.from_run_json``), or the same figures of a run played
in this process (``Pace.from_report``). "2 frames per key" is one emulated frame held
and one up, what the practice game's queued key reading needs; the ratio is ms per key
inside levels against it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logo_bot.bot.frames import FRAME_S
from logo_bot.bot.play.progress import clock
from logo_bot.bot.play.run_report import RunReport

# The parts of the time in levels, in the order printed, with what each one is.
LEVEL_PARTS = {
    "keys_held": "keys held (press to release)",
    "keys_up": "keys up (the gap before a press)",
    "key_events": "X round trips: key events (focus checked)",
    "focus_checks": "X round trips: focus and cover checks before a burst",
    "frame_wait": "waiting for frames to re-read (cursor, board)",
    "grab": "pixel grabs",
    "reading": "reading the picture (vision)",
    "planning": "planning",
    "recording": "recording (events, pictures)",
    "other": "the loop's own code",
}
# The phases outside levels, in the order printed.
BETWEEN = {
    "transition": "transitions (last stone to the next level steady)",
    "start": "the start (menus)",
    "probe": "the key probe",
    "recovery": "recoveries",
    "other": "the rest of the run's loop",
    "outside": "before the loop",
    "unmeasured": "in no phase (starting Fuse, the run's folder)",
}


@dataclass
class Pace:
    """One run's figures at one speed."""

    label: str
    speed: float
    wall: float  # seconds
    in_levels: float  # seconds inside levels (sum of levels[].seconds)
    keys: int  # keys sent inside levels
    levels: int  # levels done
    spent: dict[str, Any] = field(default_factory=dict)  # run.json's time_spent
    game_transitions: float | None = None  # the game's own transition seconds, if known
    timing: dict[str, Any] | None = None  # the key timing played with at the end

    @classmethod
    def from_run_json(cls, data: dict[str, Any], label: str | None = None) -> Pace:
        speed = float((data.get("session") or {}).get("speed") or 100)
        done = [e for e in data.get("levels", []) if e.get("status") == "done"]
        return cls(
            label or f"{speed:g} %",
            speed,
            float(data["seconds"]),
            sum(float(e.get("seconds", 0.0)) for e in done),
            sum(int(e.get("keys_sent", 0)) for e in done),
            len(done),
            data.get("time_spent") or {},
            timing=data.get("key_timing"),
        )

    @classmethod
    def from_report(
        cls, report: RunReport, speed: float, wall: float, game_transitions: float | None = None
    ) -> Pace:
        done = [r.report for r in report.results.values() if r.status == "done" and r.report]
        return cls(
            f"{speed:g} %",
            speed,
            wall,
            sum(r.seconds for r in done),
            sum(r.keys_sent for r in done),
            len(done),
            report.time_spent or {},
            game_transitions,
            report.key_timing,
        )

    @property
    def ms_per_key(self) -> float:
        return 1000 * self.in_levels / self.keys if self.keys else 0.0

    @property
    def two_frames_ms(self) -> float:
        return 2000 * FRAME_S * 100 / self.speed

    @property
    def ratio(self) -> float:
        return self.ms_per_key / self.two_frames_ms

    def level_parts(self) -> dict[str, float]:
        """Seconds of each part of the time in levels (``LEVEL_PARTS`` order; parts not
        known there are added under their own names)."""
        parts = dict((self.spent.get("level") or {}).get("parts", {}))
        ordered = {name: float(parts.pop(name, 0.0)) for name in LEVEL_PARTS}
        return ordered | {name: float(s) for name, s in sorted(parts.items())}

    def between(self) -> dict[str, float]:
        """Seconds of each phase outside levels, and ``unmeasured``: the wall time no
        phase claims (starting Fuse, the run's folder)."""
        phases = {name: float(p.get("seconds", 0.0)) for name, p in self.spent.items()}
        phases.pop("level", None)
        ordered = {name: phases.pop(name, 0.0) for name in BETWEEN}
        ordered |= phases
        measured = sum(p.get("seconds", 0.0) for p in self.spent.values())
        ordered["unmeasured"] = max(0.0, self.wall - measured) if self.spent else 0.0
        return ordered

    def part(self, phase: str, part: str) -> float:
        """Seconds of one part of a phase (planning ahead, in the transitions)."""
        return float(((self.spent.get(phase) or {}).get("parts") or {}).get(part, 0.0))

    def count(self, phase: str, part: str) -> int:
        return int(((self.spent.get(phase) or {}).get("counts") or {}).get(part, 0))

    def times(self, phase: str) -> int:
        return int((self.spent.get(phase) or {}).get("times", 0))


def pace_table(rows: list[Pace]) -> str:
    """The pace table: wall, time in levels, keys per second, ms per key, ratio."""
    out = [
        "| speed | levels | wall | in levels | keys | keys per second in levels | ms per key "
        "| 2 frames per key | ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in rows:
        per_s = p.keys / p.in_levels if p.in_levels else 0.0
        out.append(
            f"| {p.label} | {p.levels} | {clock(p.wall)} | {p.in_levels:.1f} s | {p.keys} "
            f"| {per_s:.1f} | {p.ms_per_key:.1f} | {p.two_frames_ms:.1f} | {p.ratio:.2f} |"
        )
    return "\n".join(out)


def _cell(seconds: float, keys: int, whole: float) -> str:
    per_key = f"{1000 * seconds / keys:.2f} ms" if keys else "-"
    share = f"{100 * seconds / whole:.0f} %" if whole else "-"
    return f"{seconds:.2f} s, {per_key}, {share}"


def _named_rows(
    rows: list[Pace],
    seconds: dict[str, dict[str, float]],
    labels: dict[str, str],
    whole: Callable[[Pace], float],
) -> list[str]:
    """A table row for each name with seconds in some run (``seconds[label][name]``): its
    cell per run, the share taken of ``whole(run)``."""
    names = dict.fromkeys(n for parts in seconds.values() for n, s in parts.items() if s)
    return [
        f"| {labels.get(name, name)} | "
        + " | ".join(_cell(seconds[p.label].get(name, 0.0), p.keys, whole(p)) for p in rows)
        + " |"
        for name in names
    ]


def breakdown_table(rows: list[Pace]) -> str:
    """Where the time in levels goes and what the time between them is: per speed the
    seconds, the ms per key sent in levels and the share (of the time in levels, or of
    the wall time for the phases between levels)."""
    head = "| " + " | ".join(p.label for p in rows) + " |"
    rule = "|---|" + "---|" * len(rows)
    out = ["in levels: seconds, ms per key, share of the time in levels", ""]
    out += ["| part " + head, rule]
    parts = {p.label: p.level_parts() for p in rows}
    out += _named_rows(rows, parts, LEVEL_PARTS, lambda p: p.in_levels)
    totals = [_cell(sum(parts[p.label].values()), p.keys, p.in_levels) for p in rows]
    out.append("| **all parts** | " + " | ".join(totals) + " |")
    grabs = [f"{p.count('level', 'grab') / p.keys:.2f}" if p.keys else "-" for p in rows]
    out.append("| grabs per key | " + " | ".join(grabs) + " |")
    timing = [
        f"{p.timing['hold_ms']:.1f} / {p.timing['gap_ms']:.1f} ms ({p.timing['source']})"
        if p.timing
        else "-"
        for p in rows
    ]
    out.append("| key timing played: hold / gap | " + " | ".join(timing) + " |")
    out += ["", "between levels: seconds, ms per key sent in levels, share of the wall time", ""]
    out += ["| phase " + head, rule]
    between = {p.label: p.between() for p in rows}
    out += _named_rows(rows, between, BETWEEN, lambda p: p.wall)
    if any(p.game_transitions is not None for p in rows):
        cells = [
            "-" if p.game_transitions is None else _cell(p.game_transitions, p.keys, p.wall)
            for p in rows
        ]
        out.append("| of the transitions, the game's own | " + " | ".join(cells) + " |")
    ahead = [p.part("transition", "planning") for p in rows]
    if any(ahead):
        cells = [_cell(s, p.keys, p.wall) for s, p in zip(ahead, rows, strict=True)]
        out.append("| of the transitions, planning the next level | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Print the tables for the run.json files named on the command line."""
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: benchmarks/pace.py RUN/run.json...", file=sys.stderr)
        return 2
    rows = []
    for path in paths:
        path = path / "run.json" if path.is_dir() else path
        rows.append(Pace.from_run_json(json.loads(path.read_text())))
    print(pace_table(rows))
    print()
    print(breakdown_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
