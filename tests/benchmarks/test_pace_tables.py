"""The walkthrough benchmark's pace and breakdown tables, from a small synthetic run.json."""

from __future__ import annotations

import json

import pytest

from benchmarks import pace
from benchmarks.pace import Pace, breakdown_table, pace_table


def run_json(speed: int = 200) -> dict:
    """Two levels at ``speed``: 100 keys in 3 s, and where that time went."""
    return {
        "seconds": 10.0,
        "session": {"speed": speed},
        "levels": [
            {"level": 1, "status": "done", "seconds": 1.0, "keys_sent": 40},
            {"level": 2, "status": "done", "seconds": 2.0, "keys_sent": 60},
            {"level": 3, "status": "failed", "reason": "TIME UP"},
        ],
        "totals": {"keys_sent": 100},
        "key_timing": {"source": "probe", "hold_ms": 20.0, "gap_ms": 19.97, "rollover": True},
        "time_spent": {
            "level": {
                "seconds": 3.0,
                "times": 2,
                "parts": {
                    "keys_held": 1.0,
                    "keys_up": 0.5,
                    "key_events": 0.25,
                    "frame_wait": 0.75,
                    "grab": 0.2,
                    "reading": 0.2,
                    "planning": 0.05,
                    "other": 0.05,
                },
                "counts": {"grab": 250, "frame_wait": 100},
            },
            "transition": {"seconds": 4.0, "times": 3, "parts": {"frame_wait": 4.0}, "counts": {}},
            "start": {"seconds": 1.5, "times": 1, "parts": {"other": 1.5}, "counts": {}},
            "probe": {"seconds": 1.0, "times": 1, "parts": {"other": 1.0}, "counts": {}},
        },
    }


def test_the_pace_of_a_run_json():
    p = Pace.from_run_json(run_json())
    assert (p.levels, p.keys, p.in_levels, p.wall) == (2, 100, 3.0, 10.0)
    assert p.ms_per_key == pytest.approx(30.0)
    assert p.two_frames_ms == pytest.approx(19.968, abs=0.01)  # 2 frames at 200 %
    assert p.ratio == pytest.approx(30.0 / 19.968, abs=0.001)
    row = pace_table([p]).splitlines()[2]
    assert row == "| 200 % | 2 | 0:10 | 3.0 s | 100 | 33.3 | 30.0 | 20.0 | 1.50 |"


def test_the_breakdown_gives_each_part_in_seconds_per_key_and_share():
    table = breakdown_table([Pace.from_run_json(run_json(100)), Pace.from_run_json(run_json())])
    lines = table.splitlines()
    assert "| part | 100 % | 200 % |" in lines
    held = next(line for line in lines if line.startswith("| keys held"))
    assert held.count("1.00 s, 10.00 ms, 33 %") == 2
    assert "| **all parts** | 3.00 s, 30.00 ms, 100 % |" in table
    assert "| grabs per key | 2.50 | 2.50 |" in lines
    assert "| key timing played: hold / gap | 20.0 / 20.0 ms (probe) |" in table
    assert not any(line.startswith("| X round trips: focus") for line in lines)  # none spent
    # between levels: shares of the wall time; what no phase claims is shown too
    assert any(
        line.startswith("| transitions") and "4.00 s, 40.00 ms, 40 %" in line for line in lines
    )
    unmeasured = next(line for line in lines if line.startswith("| in no phase"))
    assert "0.50 s, 5.00 ms, 5 %" in unmeasured


def test_a_run_without_time_spent_still_has_its_pace():
    data = run_json()
    del data["time_spent"]
    p = Pace.from_run_json(data)
    assert p.ms_per_key == pytest.approx(30.0)
    assert "| **all parts** | 0.00 s, 0.00 ms, 0 % |" in breakdown_table([p])


def test_the_script_prints_both_tables_for_run_folders(tmp_path, capsys):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps(run_json()))
    assert pace.main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert "| 200 % | 2 | 0:10 |" in out and "| keys held" in out


def test_the_pace_goals_pass_and_fail_on_the_ratio_the_corrections_and_the_wall():
    from collections import Counter
    from types import SimpleNamespace

    from benchmarks.walkthrough import pace_goals

    def figures(speed: int, ratio_ms: float, wall: float, **corrections: int):
        data = run_json(speed)
        data["levels"][0]["seconds"] = ratio_ms * 100 / 1000 - 2.0  # 100 keys in all
        report = SimpleNamespace(corrections=Counter(corrections))
        return SimpleNamespace(speed=speed, pace=Pace.from_run_json(data), report=report, wall=wall)

    fast = pace_goals(figures(200, 21.0, 269.0), 100)
    assert fast[0].startswith(", PASS ms per key <= 1.10 x two frames") and "(1.05, 0" in fast[0]
    assert fast[1] == ", PASS 100 levels under 4:30 (4:29)"
    slow = pace_goals(figures(200, 23.0, 271.0), 100)
    assert slow[0].startswith(", FAIL") and slow[1].startswith(", FAIL")
    wrong = pace_goals(figures(100, 40.0, 500.0, cursor=1, timing_raised=1), 100)
    assert wrong[0].startswith(", FAIL") and "1 corrections" in wrong[0]
    assert wrong[1] == ", PASS 100 levels under 8:45 (8:20)"
    assert len(pace_goals(figures(200, 21.0, 30.0), 10)) == 1, "no wall goal for 10 levels"
    assert pace_goals(figures(400, 9.0, 100.0), 100) == [], "no goal at 400 %"


def test_planning_ahead_in_the_transitions_gets_its_own_row():
    lines = breakdown_table([Pace.from_run_json(run_json())]).splitlines()
    assert not any("planning the next level" in line for line in lines)  # none spent
    data = run_json()
    data["time_spent"]["transition"]["parts"] = {"frame_wait": 3.0, "planning": 1.0}
    lines = breakdown_table([Pace.from_run_json(data)]).splitlines()
    ahead = next(line for line in lines if "planning the next level" in line)
    assert "1.00 s, 10.00 ms, 10 %" in ahead
