"""benchmarks/picture_find.py runs, finds each window's picture where it is, and prints a
row of figures for each kind of window."""

from benchmarks.picture_find import CASES, main


def test_the_picture_benchmark_prints_a_row_a_window(capsys):
    assert main(["--rounds", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row[:28].strip() for row in rows] == list(CASES)
    assert all("border/copy" in row for row in rows)
