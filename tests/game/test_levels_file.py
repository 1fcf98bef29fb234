"""The committed game/levels.txt: what the game needs, and what the generator writes."""

from __future__ import annotations

import itertools
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from game import make_levels
from game.difficulty import measure
from logo_bot.solvers import planner
from logo_bot.solvers.board import Board, play
from logo_bot.solvers.levels import load_level_list, parse_level

LEVELS_FILE = make_levels.OUTPUT
REPO = Path(make_levels.__file__).resolve().parents[1]

PUBLISHED = [
    "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n",
    "6 10\n..........\n.....1....\n....111...\n...11111..\n....111...\n.....1....\n",
]


@pytest.fixture(scope="module")
def levels():
    return load_level_list(LEVELS_FILE)


def test_one_hundred_6x10_levels(levels):
    assert [lv.number for lv in levels] == list(range(1, 101))
    assert all((lv.board.rows, lv.board.cols) == (6, 10) for lv in levels)


def test_levels_1_and_2_are_the_published_targets(levels):
    assert [levels[0].board, levels[1].board] == [parse_level(text) for text in PUBLISHED]


def test_level_94_and_only_94_fills_the_board(levels):
    assert [lv.number for lv in levels if lv.board.stone_count == 60] == [94]


def test_every_level_has_a_verified_plan(levels):
    for lv in levels:
        verdict = planner.solve(lv.board)
        assert verdict.plan is not None, f"level {lv.number}: {verdict.reason}"
        assert play(Board.empty(6, 10), verdict.plan) == lv.board, f"level {lv.number}"


def test_codes_start_levels_6_11_to_96_and_are_distinct(levels):
    with_code = {lv.number: lv.meta["code"] for lv in levels if "code" in lv.meta}
    assert sorted(with_code) == list(range(6, 97, 5))
    assert all(re.fullmatch(r"[A-Z]{5}", code) for code in with_code.values())
    assert len(set(with_code.values())) == 19


def test_every_block_of_five_has_its_own_theme(levels):
    themes = [{lv.meta["theme"] for lv in levels[k : k + 5]} for k in range(0, 100, 5)]
    assert all(len(block) == 1 for block in themes)
    assert len(set.union(*themes)) == 20


def test_metadata_figures_are_the_measured_ones(levels):
    for lv in levels:
        diff = measure(lv.board)
        meta = lv.meta
        assert int(meta["stones"]) == diff.stones == lv.board.stone_count
        assert (int(meta["pairs"]), int(meta["open"])) == (diff.pairs, diff.open)
        assert int(meta["solutions"]) == diff.solutions
        assert float(meta["forced"]) == pytest.approx(diff.forced, abs=0.05)
        assert int(meta["presses"]) >= 2 * diff.stones - 1  # at least one move between actions


def test_difficulty_rises_block_by_block(levels):
    """Stones and forced decisions, averaged over each block of five, never go down, and
    the last block forces many times what the first does."""
    blocks = [levels[k : k + 5] for k in range(0, 100, 5)]
    stones = [statistics.mean(lv.board.stone_count for lv in block) for block in blocks]
    forced = [statistics.mean(measure(lv.board).forced for lv in block) for block in blocks]
    assert all(a <= b for a, b in itertools.pairwise(stones)), stones
    assert all(a <= b for a, b in itertools.pairwise(forced)), forced
    assert forced[-1] >= 10 * max(forced[0], 1)


def start_generator(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "game.make_levels", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_the_generator_writes_the_committed_file_byte_for_byte(tmp_path):
    """A fresh run writes the bytes of the committed file, which an earlier run wrote:
    two runs agree. (One run: each costs seconds of CPU, and a second one in this test
    proved no more than the committed file does.)"""
    written = tmp_path / "levels.txt"
    run = start_generator("--output", str(written))
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert "wrote 100 levels" in out
    assert written.read_bytes() == LEVELS_FILE.read_bytes()


def test_check_says_current_and_refuses_a_file_one_character_off(tmp_path, monkeypatch, capsys):
    """--check compares what the generator writes (the committed file's bytes, shown by
    the test above, so not generated again here) with the file."""
    committed = LEVELS_FILE.read_text(encoding="utf-8")
    monkeypatch.setattr(make_levels, "generate", lambda designs, seed: committed)
    stale = tmp_path / "stale.txt"
    stale.write_text(committed.replace("code: ", "code:  ", 1), encoding="utf-8")
    assert make_levels.main(["--check"]) == 0
    assert "is current" in capsys.readouterr().out
    assert make_levels.main(["--check", "--output", str(stale)]) == 1
    assert "is not what the generator writes" in capsys.readouterr().err
    assert stale.read_text(encoding="utf-8") != committed, "--check writes nothing"


def test_is_current_compares_bytes(tmp_path):
    text = LEVELS_FILE.read_text(encoding="utf-8")
    assert make_levels.is_current(text, LEVELS_FILE)
    assert not make_levels.is_current(text + "\n", LEVELS_FILE)
    assert not make_levels.is_current(text, tmp_path / "missing.txt")
