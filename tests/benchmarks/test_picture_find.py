"""benchmarks/picture_find.py runs, finds each window's picture where it is, and prints a
row of figures for each kind of window."""

from benchmarks.picture_find import CASES, main


def test_the_picture_benchmark_prints_a_row_a_window(capsys):
    assert main(["--rounds", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row[:28].strip() for row in rows] == list(CASES)
    ratios = [row.split()[-2:] for row in rows]  # border/copy and read/copy
    assert all(float(border) >= 0 and float(read) >= 0 for border, read in ratios)
    assert [float(read) > 0 for _, read in ratios] == ["HiDPI" in name for name in CASES]
