"""``logo-bot show --launch --level N`` on the real practice game: it plays the levels
before N on the way and reads level N's target and its still empty board."""

from __future__ import annotations

import json

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.levels import load_level_list

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}


def test_show_launch_reaches_a_later_level(xserver, capsys):
    argv = ["show", "--launch", "--level", "3", "--json", "--display", xserver.display]
    assert main([*argv, "--speed", "200"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["level_shown"] is True, shown
    assert shown["panel"]["level"] == "003", shown
    assert int(shown["panel"]["score"]) > 0, shown  # levels 1 and 2 were played on the way
    assert shown["target"] == str(LEVELS[3]).splitlines(), shown
    assert all(set(row) <= {".", " "} for row in shown["board"]), shown["board"]
