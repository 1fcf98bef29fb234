"""The benchmark script runs end to end on a tiny corpus and reports every part.

No figure is asserted (timings are the script's output, not a test's); only that
the report is complete and no solver gave a wrong answer.
"""

from __future__ import annotations

import pytest

from benchmarks import solver
from benchmarks.peers import cpsat


@pytest.mark.slow
def test_a_small_run_reports_every_part(capsys):
    code = solver.main(
        ["--classes", "6x10 sparse,10x10 full unsat", "--per-class", "2", "--cap", "0.05"]
    )
    out = capsys.readouterr()
    assert code == 0, out.out
    for words in (
        "seed 1, 2 targets per class",
        "6x10 sparse ",
        "6x10 sparse unsat",
        "6x10 sparse adversarial",
        "10x10 full unsat",
        "Keypresses (cursor moves and actions) over the 2 solvable 6x10 targets",
        "reading order",
        "fewest_presses",
        "lower bound",
        "Targets",
        ">= 10x faster than CP-SAT",
    ):
        assert words in out.out
    assert "10x10 full adversarial" not in out.out
    assert "[bench" in out.err


def test_bad_class_names_are_refused_with_the_list(capsys):
    with pytest.raises(SystemExit) as stop:
        solver.main(["--classes", "7x7 full"])
    assert stop.value.code == 2
    assert "known classes: '6x10 sparse'" in capsys.readouterr().err


def test_a_missing_peer_is_reported_as_n_a(monkeypatch, capsys):
    monkeypatch.setattr(cpsat, "cp_model", None)
    code = solver.main(["--classes", "6x10 sparse unsat", "--per-class", "1", "--cap", "0.05"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "n/a" in out
    assert ">= 10x faster than CP-SAT on every class n/a n/a" in " ".join(out.split())
