import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from logo_bot.solvers.cli import main
from logo_bot.solvers.levels import parse_level
from logo_bot.solvers.planner import verify

LEVEL_1 = "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n"
LEVEL_2 = "6 10\n..........\n.....1....\n....111...\n...11111..\n....111...\n.....1....\n"
TWO_WAYS = "5 7\n...22..\n..2132.\n.14213.\n1.2331.\n.1....1\n"
UNSOLVABLE = "1 2\n11\n"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv, stdin=None):
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), f"exit status {code} is not one that --help documents"
    if code == 2:  # bad input: one line that says what is wrong, nothing else
        assert re.fullmatch(r"logo-solve: error: [^\n]+\n", err), err
    return code, out, err


def plan_of(out: str) -> list[tuple[int, int]]:
    return [tuple(map(int, line.split())) for line in out.splitlines() if line.strip()]


@pytest.fixture
def level_file(tmp_path):
    def write(text: str, name: str = "level.txt") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def test_single_level_prints_a_verified_plan_and_the_presses(capsys, level_file):
    code, out, err = run(capsys, level_file(LEVEL_1))
    assert code == 0
    verify(parse_level(LEVEL_1), plan_of(out))
    assert "5 moves, 17 key presses from 1,1; proven fewest (lower bound 17)" in err


def test_standard_input(capsys):
    code, out, _ = run(capsys, "-", stdin=LEVEL_2)
    assert code == 0
    verify(parse_level(LEVEL_2), plan_of(out))


def test_level_list_needs_a_level_number(capsys, level_file):
    path = level_file(f"{LEVEL_1}\n{LEVEL_2}\n# third\n{LEVEL_1}")
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert "holds 3 levels; choose one with --level N (1..3)" in err
    code, out, _ = run(capsys, path, "--level", "2")
    assert code == 0
    verify(parse_level(LEVEL_2), plan_of(out))
    code, _, err = run(capsys, path, "--level", "4")
    assert code == 2 and "--level must be 1..3, not 4" in err


def test_json_report(capsys, level_file):
    code, out, err = run(capsys, level_file(LEVEL_1), "--json", "--start", "3,5", "--wrap")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["solved"] and report["optimal"]
    assert report["start"] == [3, 5] and report["wrap"] is True
    assert report["presses"] == report["lower_bound"]
    verify(parse_level(LEVEL_1), [tuple(c) for c in report["plan"]])


def test_keys(capsys, level_file):
    path = level_file(LEVEL_1)
    code, out, _ = run(capsys, path, "--keys")
    assert code == 0
    keys = out.rstrip("\n")
    assert len(keys) == 17 and keys.count(" ") == 5 and set(keys) <= set("qaop ")
    code, out, _ = run(capsys, path, "--keys", "UDLRX")
    assert set(out.strip()) <= set("UDLRX") and out.count("X") == 5
    code, _, err = run(capsys, path, "--keys", "abc")
    assert code == 2 and "--keys wants 5 keys" in err


def test_all_solutions_and_count(capsys, level_file):
    path = level_file(TWO_WAYS)
    code, out, _ = run(capsys, path, "--all", "5")
    assert code == 0
    blocks = out.split("\n\n")
    assert len(blocks) == 2
    target = parse_level(TWO_WAYS)
    for block in blocks:
        verify(target, plan_of(block))
    assert plan_of(blocks[0]) != plan_of(blocks[1])
    assert run(capsys, path, "--count")[1] == "2\n"
    report = json.loads(run(capsys, path, "--count", "--json")[1])
    assert report["count"] == 2 and report["count_capped"] is False


def test_unsolvable_exits_1_with_the_reason(capsys, level_file):
    path = level_file(UNSOLVABLE)
    code, out, err = run(capsys, path)
    assert code == 1 and out == ""
    assert "unsolvable: cells 1 1 and 1 2 are neighbours and both show 1" in err
    code, out, _ = run(capsys, path, "--json")
    assert code == 1
    assert json.loads(out)["solved"] is False and "both show 1" in json.loads(out)["reason"]
    assert run(capsys, path, "--count")[:2] == (1, "0\n")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("", ":1:1:", "the text is empty"),
        ("0 3\n", ":1:1:", "number of rows must be 1..64"),
        ("2 x\n..\n..\n", ":1:1:", "expected a size line"),
        ("2 3\n...\n..\n", ":3:3:", "row is shorter than 3 columns"),
        ("2 3\n...\n....\n", ":3:4:", "row is longer than 3 columns"),
        ("1 3\n.x.\n", ":2:2:", "expected one of '.1234'"),
        ("3 3\n...\n...\n", ":4:1:", "expected 3 rows"),
    ],
    ids=["empty", "zero-rows", "bad-size", "short-row", "long-row", "bad-char", "few-rows"],
)
def test_bad_input_is_a_clear_error(capsys, level_file, text, where, words):
    path = level_file(text, "bad.txt")
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert err.startswith(f"logo-solve: error: {path}{where}")
    assert words in err


def test_unreadable_file_and_bad_options(capsys, tmp_path, level_file):
    code, _, err = run(capsys, str(tmp_path / "missing.txt"))
    assert code == 2 and "cannot read the file" in err
    path = level_file(LEVEL_1)
    for start, words in [("9,9", "outside the 6x10 board"), ("1;1", "ROW,COL")]:
        code, _, err = run(capsys, path, "--start", start)
        assert code == 2 and words in err
    code, _, err = run(capsys, path, "--all", "0")
    assert code == 2 and "--all wants" in err
    with pytest.raises(SystemExit) as info:
        main([path, "--budget", "soon"])
    assert info.value.code == 2


def test_help_teaches_with_an_example(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "example:" in text and "logo-solve one.txt" in text and "exit status" in text


def test_installed_command(tmp_path):
    script = Path(sys.executable).with_name("logo-solve")
    assert script.exists(), "run ./scripts/setup.sh to install the logo-solve command"
    target = tmp_path / "one.txt"
    target.write_text(LEVEL_1)
    done = subprocess.run([str(script), str(target)], capture_output=True, text=True)
    assert done.returncode == 0
    verify(parse_level(LEVEL_1), plan_of(done.stdout))


def test_in_a_process_of_its_own_bad_input_is_the_message_alone(level_file):
    """What a user sees: exit status 2 and the one line, no traceback, nothing on stdout."""
    path = level_file("1 3\n.x.\n", "bad.txt")
    done = subprocess.run(
        [sys.executable, "-m", "logo_bot.solvers.cli", path],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"logo-solve: error: {path}:2:2: expected one of '.1234' ('.' is empty), found 'x'\n"
    )


def test_from_board_finishes_a_level_in_progress(capsys, tmp_path):
    target = tmp_path / "target.txt"
    target.write_text(LEVEL_1)
    good = tmp_path / "good.txt"  # moves 4 5 and 3 6 of a valid plan already made
    good.write_text(
        "6 10\n..........\n..........\n.....1....\n....1.....\n..........\n..........\n"
    )
    code, out, err = run(capsys, str(target), "--from-board", str(good), "--json")
    report = json.loads(out)
    assert code == 0 and report["resets"] == 0 and "no RESET needed" in err
    moves = [tuple(m) for m in report["plan"]]
    assert sorted(moves) == [(2, 5), (3, 4), (3, 5)]
    verify(parse_level(LEVEL_1), [(4, 5), (3, 6), *moves])

    wrong = tmp_path / "wrong.txt"  # a stone the target leaves empty
    wrong.write_text(
        "6 10\n1.........\n..........\n.....1....\n..........\n..........\n..........\n"
    )
    code, out, err = run(capsys, str(target), "--from-board", str(wrong))
    assert code == 0 and "press RESET 2 time(s) first" in err
    verify(parse_level(LEVEL_1), [tuple(map(int, ln.split())) for ln in out.splitlines()])

    small = tmp_path / "small.txt"
    small.write_text("1 2\n1.\n")
    code, _, err = run(capsys, str(target), "--from-board", str(small))
    assert code == 2 and "small.txt is 1x2 but the target is 6x10" in err
    code, _, err = run(capsys, str(target), "--from-board", str(good), "--count")
    assert code == 2 and "does not go with --all or --count" in err
