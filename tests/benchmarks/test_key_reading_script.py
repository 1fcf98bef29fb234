"""benchmarks/key_reading.py: its floor and its table, without running Fuse."""

import pytest

from benchmarks import key_reading
from logo_bot.bot.play.unattended import RunReport


def test_the_shortest_safe_press_is_one_read_down_and_one_up():
    assert key_reading.press_frames(key_reading.BUILDS["queued"]) == 2
    assert key_reading.press_frames(key_reading.BUILDS["polled-4"]) == 8
    assert key_reading.press_frames(key_reading.BUILDS["repeat-3-12-4"]) == 6


def test_the_table_says_what_passed_and_why_a_run_stopped():
    done = RunReport(1, 2)
    done.key_timing = {"source": "probe", "hold_ms": 49.9, "gap_ms": 39.9, "rollover": True}
    rows = [
        key_reading.Row("polled-4", True, done, wall=20.0, floor=10.0),
        key_reading.Row("polled-4", False, None, 0.0, 10.0, error="the menus failed"),
    ]
    text = key_reading.table(rows, 1, 2, 200)
    assert "49.9/39.9 ms, rollover on" in text
    assert "[stopped: the menus failed]" in text
    assert "FAIL all levels" in text and "FAIL wall <= 1.3 x floor (2.00)" in text


def test_an_unknown_build_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        key_reading.main(["--builds", "queued,sometimes"])
    assert stop.value.code == 2 and "unknown builds sometimes" in capsys.readouterr().err
