"""Scoring answers and laying out the benchmark's tables."""

from __future__ import annotations

import gc

from benchmarks import measure as measure_module
from benchmarks.measure import REPEATS, Answer, Contender, Tally, measure, timed
from benchmarks.report import ms, ratio, spread, table
from logo_bot.solvers.board import Board

SOLVABLE = Board.from_rows(["12"])  # plan: 1 2, then 1 1
UNSOLVABLE = Board.from_rows(["11"])


def run_measure(answers: dict[Board, Answer], targets: list[Board], solvable: bool) -> Tally:
    ticks: list[int] = []
    tally = measure(
        Contender("fake", answers.__getitem__), targets, solvable, lambda: ticks.append(1)
    )
    assert len(ticks) == len(targets) == len(tally.seconds)
    return tally


def test_right_answers_are_not_counted_wrong():
    tally = run_measure({SOLVABLE: Answer(True, ((1, 2), (1, 1)))}, [SOLVABLE], True)
    assert (tally.wrong, tally.timeouts) == (0, 0)
    assert tally.plans == [((1, 2), (1, 1))]


def test_a_plan_that_misses_the_target_or_breaks_the_rules_is_wrong():
    assert run_measure({SOLVABLE: Answer(True, ((1, 1), (1, 2)))}, [SOLVABLE], True).wrong == 1
    assert run_measure({SOLVABLE: Answer(True, ((1, 1), (1, 1)))}, [SOLVABLE], True).wrong == 1
    assert run_measure({SOLVABLE: Answer(True, None)}, [SOLVABLE], True).wrong == 1


def test_a_verdict_against_the_label_is_wrong_and_a_timeout_is_not():
    assert run_measure({UNSOLVABLE: Answer(True, ((1, 1),))}, [UNSOLVABLE], False).wrong == 1
    assert run_measure({SOLVABLE: Answer(False)}, [SOLVABLE], True).wrong == 1
    gave_up = run_measure({UNSOLVABLE: Answer(None)}, [UNSOLVABLE], False)
    assert (gave_up.wrong, gave_up.timeouts) == (0, 1)


def test_figures_in_milliseconds():
    assert [ms(s) for s in (0.000042, 0.0042, 0.042, 0.42, float("nan"))] == [
        "0.042",
        "4.20",
        "42.0",
        "420",
        "-",
    ]


def test_spread_and_ratio_flag_timeouts():
    ours = Tally(seconds=[0.001, 0.002, 0.003])
    capped = Tally(seconds=[1.0, 1.0, 0.5], timeouts=2)
    assert spread(capped) == "1000 / 1000 (2 t/o)"
    assert spread(None) == "n/a"
    assert ratio(capped, ours) == ">=500"
    assert ratio(Tally(seconds=[0.003]), ours) == "1.5"
    assert ratio(Tally(seconds=[0.01995]), ours) == "9.97"  # not rounded up to a pass
    assert ratio(None, ours) == "n/a"


def test_table_pads_and_aligns():
    text = table(["name", "n", "note"], [["a", "10", "x"], ["bbb", "2", "yy"]], left=(2,))
    assert text.splitlines() == [
        "name   n  note",
        "----  --  ----",
        "a     10  x",
        "bbb    2  yy",
    ]


def test_timing_collects_garbage_once_and_holds_the_collector_off_during_each_call(monkeypatch):
    # A collection before each call would walk every loaded object and evict the CPU
    # caches just before the call is timed.
    collections, during = [], []
    monkeypatch.setattr(measure_module.gc, "collect", lambda: collections.append(1))

    def run(target: Board) -> Answer:
        during.append(gc.isenabled())
        return Answer(True, ((1, 2), (1, 1)))

    was = gc.isenabled()
    gc.enable()
    try:
        answer, seconds = timed(run, SOLVABLE)
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert answer.plan == ((1, 2), (1, 1)) and seconds >= 0
    assert collections == [1] and during == [False] * REPEATS
