"""End-to-end: the planner as an agent of the environment, through the cell wrapper,
plays levels 1-3 of the real game with the fewest keys (the level file's proven
``presses``) and no correction."""

from __future__ import annotations

import pytest

from logo_bot.bot.profile import load_profile
from logo_bot.gym.cells import CellActions
from logo_bot.gym.env import LogoGym
from logo_bot.gym.planner_agent import PlannerAgent, main, play_level
from logo_bot.solvers.levels import load_level_list

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
FEWEST = {
    lv.number: int(lv.meta["presses"])
    for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))
}


def test_the_planner_agent_plays_levels_1_to_3_with_the_fewest_keys(xserver):
    env = CellActions(LogoGym(display=xserver.display, headless=False, speed=200))
    agent = PlannerAgent()
    try:
        episodes = [play_level(env, agent, level) for level in (1, 2, 3)]
    finally:
        env.close()
    for e in episodes:
        assert e.solved and e.rewards[-1] == 1.0 and not any(e.rewards[:-1]), e
        assert (e.keys, e.planned, e.corrections) == (FEWEST[e.level], FEWEST[e.level], 0), e


def test_the_agents_command_prints_a_level_and_its_figures(xserver, capsys):
    assert main(["--levels", "1", "--display", xserver.display]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "level",
        "solved",
        "keys",
        "planned",
        "corrections",
        "ms/key",
        "frames/key",
    ]
    level, solved, keys, planned, corrections = lines[1].split()[:5]
    assert (level, solved, keys, corrections) == ("1", "yes", planned, "0")
