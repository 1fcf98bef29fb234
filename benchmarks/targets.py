"""The project's speed targets, checked against one run's figures.

- every 6x10 class: median < 1 ms, max < 10 ms;
- 32x32 full: every target < 20 ms;
- every unsolvable target up to 32x32 proven in < 200 ms;
- >= 10x faster (median against median) than CP-SAT and clingo on every class;
- fewest-keypress orders of the 6x10 targets proven optimal in < 1 s each.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks import corpus
from benchmarks.keypresses import PressTotals
from benchmarks.measure import Tally
from benchmarks.report import ms

PEERS = ("CP-SAT", "clingo")
Row = dict[str, Tally | None]


@dataclass(frozen=True)
class Check:
    """One target on one class: ``passed`` is None when a peer is missing."""

    label: str
    measured: str
    passed: bool | None


def class_checks(board_class: corpus.BoardClass, row: Row) -> list[Check]:
    ours = row["ours"]
    assert ours is not None
    checks = []
    if board_class.family.rows == 6:
        checks.append(
            Check(
                "6x10 < 1 ms median, < 10 ms max",
                f"{ms(ours.median)} / {ms(ours.worst)} ms",
                ours.median < 0.001 and ours.worst < 0.010,
            )
        )
    if board_class.name == "32x32 full":
        checks.append(Check("32x32 full < 20 ms", f"max {ms(ours.worst)} ms", ours.worst < 0.02))
    if not board_class.solvable:
        checks.append(Check("unsolvable < 200 ms", f"max {ms(ours.worst)} ms", ours.worst < 0.2))
    for peer in PEERS:
        other = row.get(peer)
        if other is None:
            checks.append(Check(f"10x {peer}", "n/a", None))
        else:
            times = other.median / ours.median
            checks.append(Check(f"10x {peer}", f"{peer} {times:.3g}x", times >= 10))
    return checks


def verdict(checks: list[Check]) -> str:
    """PASS, or FAIL naming the targets missed (with their figure)."""
    failed = [c.measured for c in checks if c.passed is False]
    if failed:
        return "FAIL: " + "; ".join(failed)
    return "PASS" if any(c.passed for c in checks) else "n/a"


@dataclass(frozen=True)
class Summary:
    goal: str
    measured: str
    passed: bool | None


def summarise(results: dict[str, Row], presses: PressTotals | None) -> list[Summary]:
    """One line per target over every class measured in the run."""
    by_class = {c.name: c for c in corpus.CLASSES}
    rows: list[Summary] = []
    six = {n: r for n, r in results.items() if by_class[n].family.rows == 6}
    if six:
        worst_median = max(six, key=lambda n: six[n]["ours"].median)  # type: ignore[union-attr]
        worst_max = max(six, key=lambda n: six[n]["ours"].worst)  # type: ignore[union-attr]
        med = six[worst_median]["ours"].median  # type: ignore[union-attr]
        top = six[worst_max]["ours"].worst  # type: ignore[union-attr]
        rows.append(
            Summary(
                "any 6x10 target: < 1 ms median and < 10 ms max, every class",
                f"worst median {ms(med)} ms ({worst_median}), max {ms(top)} ms ({worst_max})",
                med < 0.001 and top < 0.010,
            )
        )
    if "32x32 full" in results:
        top = results["32x32 full"]["ours"].worst  # type: ignore[union-attr]
        rows.append(Summary("32x32 full: every target < 20 ms", f"max {ms(top)} ms", top < 0.02))
    unsat = {n: r for n, r in results.items() if not by_class[n].solvable}
    if unsat:
        name = max(unsat, key=lambda n: unsat[n]["ours"].worst)  # type: ignore[union-attr]
        top = unsat[name]["ours"].worst  # type: ignore[union-attr]
        rows.append(
            Summary(
                "every unsolvable target up to 32x32 proven < 200 ms",
                f"max {ms(top)} ms ({name})",
                top < 0.2,
            )
        )
    for peer in PEERS:
        ratios = {}
        for name, row in results.items():
            other, ours = row.get(peer), row["ours"]
            if other is not None and ours is not None:
                ratios[name] = other.median / ours.median
        if not ratios:
            rows.append(Summary(f">= 10x faster than {peer} on every class", "n/a", None))
            continue
        low = min(ratios, key=ratios.__getitem__)
        below = sum(r < 10 for r in ratios.values())
        rows.append(
            Summary(
                f">= 10x faster than {peer} on every class (medians)",
                f"min {ratios[low]:.3g}x ({low}); {below} of {len(ratios)} classes below 10x",
                below == 0,
            )
        )
    if presses is not None and presses.boards:
        rows.append(
            Summary(
                "6x10 fewest-keypress orders proven optimal in < 1 s each",
                f"{presses.optimal} of {presses.boards} proven, max {ms(presses.worst)} ms",
                presses.optimal == presses.boards and presses.worst < 1.0,
            )
        )
    return rows
