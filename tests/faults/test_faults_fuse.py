"""End-to-end: the bot finishes its levels in the real Fuse while faults are injected."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from faults.chaos import FaultPlan
from faults.folder_check import check_folder
from faults.harness import play
from faults.hog import CpuHog
from faults.lossy_keys import KeyFaults
from game import build
from logo_bot.bot.fuse.assembly import SessionOptions
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.recording import RecordOptions
from logo_bot.solvers.levels import load_level_list

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}
LOSSY = KeyFaults(drop=0.2, double=0.05, latency_ms=10, seed=11)


def options(xserver, **more) -> SessionOptions:
    return SessionOptions(display=xserver.display, headless=False, speed=200, **more)


def assert_all_right(outcome, first, last):
    assert outcome.error is None, outcome.error
    report = outcome.report
    assert report.status == "complete", report
    assert sorted(report.results) == list(range(first, last + 1))
    for number, result in report.results.items():
        assert result.status == "done"
        assert result.report.target == LEVELS[number], f"level {number} target misread"
        assert result.report.end_board == LEVELS[number], f"level {number} end board"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_lossy_keys_and_a_focus_theft_every_level_still_right(xserver):
    """One press in five lost, one in twenty doubled, up to 10 ms late, in the menus (a
    code is typed) as in play; and a window takes the focus in the middle of a level."""
    plan = FaultPlan(keys=LOSSY, thefts=(12,), seed=2, theft_holds=(None,))
    outcome = play(PROFILE, options(xserver, focus_grace_s=0.2), 11, 12, plan)
    assert_all_right(outcome, 11, 12)
    faults, corrections = outcome.faults, outcome.report.corrections
    assert faults["dropped"] > 10 and faults["doubled"] > 0 and faults["focus_theft"] == 1
    assert corrections["cursor"] + corrections["lost_action"] > 0 and corrections["menu"] > 0
    assert corrections["focus_taken_back"] == 1
    assert outcome.sentinel_events == [], "no key may reach another window"
    assert outcome.report.restarts == 0


def test_without_taking_focus_the_walkthrough_pauses_and_says_so(xserver):
    plan = FaultPlan(thefts=(1,), seed=4, theft_holds=(1.0,))
    terminal = Terminal()
    outcome = play(
        PROFILE, options(xserver, take_focus=False), 1, 1, plan, progress=Progress(1, terminal)
    )
    assert_all_right(outcome, 1, 1)
    assert "PAUSED: another window has the keyboard focus" in terminal.getvalue()
    assert outcome.report.corrections["focus_returned"] == 1
    assert outcome.sentinel_events == []


@pytest.mark.parametrize("own_xvfb", [False, True], ids=["display", "own-xvfb"])
def test_fuse_killed_mid_level_restarts_enters_by_code_and_replays(xserver, tmp_path, own_xvfb):
    """On the bot's own Xvfb its checks are glimpses, and the failure's picture (the last
    glimpse's frame) is taken after Fuse died."""
    plan = FaultPlan(kills=(7,), seed=3)
    record = RecordOptions(tmp_path / "runs")
    session = SessionOptions(headless=True, speed=200) if own_xvfb else options(xserver)
    outcome = play(PROFILE, session, 6, 7, plan, record)
    report = outcome.report
    assert_all_right(outcome, 6, 7)
    assert outcome.faults["fuse_kill"] == 1
    assert report.recoveries["fuse_died"] == 1 and report.restarts == 1
    assert report.corrections["level_replayed"] == 1, "level 6 again, after its code"
    assert report.results[7].attempts == 2
    check = check_folder(outcome.folder)
    assert check.ok, check.problems
    assert check.count("crash") == 1 and check.count("fault") == 1
    enters = [e for e in check.events if e["event"] == "enter"]
    assert [(e["level"], e["code"]) for e in enters] == [(6, e["code"]) for e in enters]
    assert enters[0]["code"] and len(enters) == 2
    assert [s["number"] for s in check.run["segments"]] == [1, 2]


@pytest.fixture(scope="module")
def short_time_build(tmp_path_factory) -> Path:
    """The practice game with 4 s + 1 s per stone on the clock, so time runs out soon."""
    folder = tmp_path_factory.mktemp("short-time")
    layout = Path(build.LAYOUT_FILE).read_text()
    layout = layout.replace("base_seconds = 30", "base_seconds = 4")
    layout = layout.replace("seconds_per_stone = 3", "seconds_per_stone = 1")
    (folder / "layout.toml").write_text(layout)
    return build.build(folder / "out", build.Inputs(layout=folder / "layout.toml")).z80


@pytest.mark.parametrize("until", ["game_over", "time_up"])
def test_time_running_out_is_recognised_and_the_run_resumes(xserver, short_time_build, until):
    """A stall past the time limit; from GAME OVER SPACE is the way back (Fuse goes on),
    from TIME UP waiting is quicker than a restart only when TIME UP is short enough."""
    plan = FaultPlan(timeouts=(1,), seed=1, timeout_ends=(until,))
    game = options(xserver, snapshot=short_time_build)
    game = SessionOptions(**{**game.__dict__, "speed": 400})
    outcome = play(PROFILE, game, 1, 2, plan)
    report = outcome.report
    assert_all_right(outcome, 1, 2)
    # the stall ran the clock out once; a busy machine may let it run out once more
    # while the bot plays level 1 again (9 s at 400 %): each is recognised the same way
    ran_out = report.recoveries["time_up"]
    assert outcome.faults["timeout"] == 1 and 1 <= ran_out <= 2
    if until == "game_over":
        assert report.recoveries["soft"] == ran_out and report.restarts == 0
    else:  # 75 frames at 400 % (0.37 s) against a restart of Fuse
        assert report.recoveries["soft"] + report.restarts == ran_out
    assert report.results[1].attempts == 1 + ran_out


def test_a_cpu_hog_on_every_core_only_slows_the_bot_down(xserver):
    with CpuHog():
        outcome = play(PROFILE, options(xserver), 1, 3, FaultPlan(), sentinel=False)
    assert_all_right(outcome, 1, 3)
    assert outcome.report.restarts == 0
