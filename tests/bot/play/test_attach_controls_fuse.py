"""End-to-end: an attached bot learns whether the person's game takes the alternate keys.

The person entered the practice game with its default controls (menu option 4 not
chosen), which ignore 7 6 5 8. The bot learns it from the first one it presses, presses
none after, makes no cursor correction for it, and measures the key timing once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from logo_bot.bot.recording.events import read_events
from tests.bot.play.test_attach_fuse import LEVELS, PROFILE, Person, run_attached

pytestmark = pytest.mark.fuse

ALTERNATES = set(PROFILE.keys.alternates.values())


@pytest.fixture
def person(xserver):
    someone = Person(xserver.display)
    yield someone
    someone.close()


def test_attached_to_the_default_controls_it_learns_the_alternates_do_nothing(
    xserver, tmp_path, person
):
    person.to_level_1()  # space, 2, 5, enter, 7, a name: option 4 is never chosen
    code, err, run = run_attached(xserver, tmp_path, "--levels", "1-2", "--no-video")
    assert code == 0, err
    assert [lv["status"] for lv in run["levels"]] == ["done", "done"]
    for entry in run["levels"]:
        assert entry["end_board"] == str(LEVELS[entry["level"]]).splitlines()
    events = read_events(Path(run["_folder"]) / "events.jsonl")
    learnt = [i for i, e in enumerate(events) if e["event"] == "alternates"]
    assert len(learnt) == 1 and events[learnt[0]]["taken"] is False, learnt
    played = [e for e in events if e["event"] == "keys" and not e.get("probe")]
    pressed = [key for e in played for key in e["keys"] if key in ALTERNATES]
    assert pressed == [events[learnt[0]]["key"]], "one alternate key, the one that told"
    # without learning, each ignored alternate key was a cursor correction (8 here in
    # levels 1 and 2); a press that a busy machine loses may be one
    cursor = sum(lv["corrections"].get("cursor", 0) for lv in run["levels"])
    assert cursor <= 1, [lv["corrections"] for lv in run["levels"]]
    assert run["key_timing"]["alternates"] is False
    probes = [e for e in events if e["event"] == "key_probe"]
    assert len(probes) == 1 and probes[0]["complete"], "the key timing is measured once"
