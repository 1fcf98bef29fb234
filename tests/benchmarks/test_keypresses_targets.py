"""Reading order, and the speed targets checked against a run's figures."""

from __future__ import annotations

from benchmarks import corpus, targets
from benchmarks.keypresses import reading_order
from benchmarks.measure import Tally
from logo_bot.solvers.board import Board, play


def test_reading_order_keeps_the_solution_and_reads_row_by_row():
    published = ((4, 5), (3, 6), (3, 4), (2, 5), (3, 5))
    order = reading_order(published)
    assert order == ((2, 5), (3, 4), (3, 6), (4, 5), (3, 5))
    target = play(Board.empty(6, 10), published)
    assert play(Board.empty(6, 10), order) == target


def test_reading_order_waits_for_stones_that_must_go_first():
    # A row placed right to left: each stone waits for its right-hand neighbour.
    plan = ((1, 3), (1, 2), (1, 1))
    assert reading_order(plan) == plan


def row(ours: float, peer: float, worst: float | None = None) -> targets.Row:
    return {
        "ours": Tally(seconds=[ours, worst or ours]),
        "CP-SAT": Tally(seconds=[peer]),
        "clingo": None,
    }


def test_class_checks_name_each_missed_target():
    six = corpus.class_named("6x10 full unsat")
    checks = targets.class_checks(six, row(0.0005, 0.004, worst=0.3))
    labels = {c.label: c.passed for c in checks}
    assert labels["6x10 < 1 ms median, < 10 ms max"] is False
    assert labels["unsolvable < 200 ms"] is False
    assert labels["10x CP-SAT"] is False  # the median, 0.15 s, is not a tenth of 4 ms
    assert labels["10x clingo"] is None
    verdict = targets.verdict(checks)
    assert verdict.startswith("FAIL: ") and "CP-SAT" in verdict


def test_a_class_meeting_every_target_passes():
    big = corpus.class_named("32x32 full")
    checks = targets.class_checks(big, row(0.005, 0.1, worst=0.01))
    assert targets.verdict(checks) == "PASS"
    slow = targets.class_checks(big, row(0.005, 1.0, worst=0.03))
    assert targets.verdict(slow) == "FAIL: max 30.0 ms"


def test_summary_reports_the_worst_class():
    results = {
        "6x10 sparse": row(0.0002, 0.001),
        "6x10 full unsat": row(0.0004, 0.008),
    }
    summary = {s.goal: s for s in targets.summarise(results, None)}
    six = summary["any 6x10 target: < 1 ms median and < 10 ms max, every class"]
    assert six.passed and "6x10 full unsat" in six.measured
    cp = summary[">= 10x faster than CP-SAT on every class (medians)"]
    assert cp.passed is False and "min 5x (6x10 sparse); 1 of 2" in cp.measured
    assert summary[">= 10x faster than clingo on every class"].passed is None
