"""End-to-end: builds of the practice game that poll their keys (and repeat a held one)
are probed on level 1 and played to level 5 with the timing found; the figures fall
within each build's known key reading."""

from __future__ import annotations

import pytest

from game import build
from game.keyreading import KeyReading
from logo_bot.bot.frames import FRAME_MS
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.levels import load_level_list

pytestmark = pytest.mark.fuse

PRACTICE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PRACTICE.resolve(PRACTICE.game["levels"]))}
POLLED = KeyReading("polled", 3)
REPEATING = KeyReading("polled-repeat", 3, repeat_delay=12, repeat_every=4)


@pytest.fixture(scope="module", params=[POLLED, REPEATING], ids=["polled-p3", "repeat-p3-d12-e4"])
def built(request, tmp_path_factory):
    reading = request.param
    return reading, build.build(tmp_path_factory.mktemp("keys"), key_reading=reading).z80


@pytest.mark.long
def test_levels_1_to_5_with_the_probed_timing(xserver, built):
    reading, snapshot = built
    profile = load_profile("practice", [f"game.snapshot={snapshot}"])
    options = SessionOptions(display=xserver.display, headless=False, speed=100)
    with open_session(profile, options) as session:
        walk = Walkthrough(session, LogoEnv(session), profile, 1, 5, probe=True)
        report = walk.run()
        played_with = session.keys.timing
    assert report.status == "complete", report
    for number, result in report.results.items():
        assert result.report.end_board == LEVELS[number], f"level {number} end board"
    found = report.key_probe
    assert found is not None and found["complete"], found
    poll = reading.poll_frames
    # held over one read at least, and not much longer; let go over one read less half a
    # frame at most: a gap of 2.5 frames against a read every 3 passes six bursts one time
    # in 30 at rest, and more often on a loaded machine, where X events arrive late and
    # stretch the gaps (play then lengthens the timing if presses go wrong)
    assert poll <= found["hold_frames"] <= poll + 2, found
    assert poll - 0.5 <= found["gap_frames"] <= poll + 2, found
    assert found["rollover"] is True
    assert report.key_timing["source"] == "probe"
    # played with what was found, and half a frame more per raise when presses went
    # wrong in play (a busy machine)
    raised = report.run_corrections["timing_raised"]
    assert raised <= 4
    assert played_with.hold_ms == pytest.approx(found["hold_ms"] + raised * FRAME_MS / 2)
    assert played_with.gap_ms == pytest.approx(found["gap_ms"] + raised * FRAME_MS / 2)
    if reading.mode == "polled":
        assert found["repeats"] is False, found
    else:
        assert found["repeats"] is True, found
        # timed in wall time: 10 found for 12 once, with six Fuse test workers on 2 cores
        assert abs(found["repeat_delay_frames"] - reading.first_repeat_frames) <= 2.5, found
        assert abs(found["repeat_every_frames"] - reading.repeat_period_frames) <= 1.5, found
        assert found["hold_frames"] < found["repeat_delay_frames"]
