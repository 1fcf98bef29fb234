"""End-to-end: the planner as an agent of the environment, through the cell wrapper,
plays levels 1-3 of the real game with its plan's keys and no correction."""

from __future__ import annotations

import pytest

from logo_bot.gym.cells import CellActions
from logo_bot.gym.env import LogoGym
from logo_bot.gym.planner_agent import PlannerAgent, main, play_level

pytestmark = pytest.mark.fuse


def test_the_planner_agent_plays_levels_1_to_3_with_its_plans_keys(xserver):
    env = CellActions(LogoGym(display=xserver.display, headless=False, speed=200))
    agent = PlannerAgent()
    try:
        episodes = [play_level(env, agent, level) for level in (1, 2, 3)]
    finally:
        env.close()
    for e in episodes:
        assert e.solved and e.rewards[-1] == 1.0 and not any(e.rewards[:-1]), e
        assert (e.keys, e.corrections) == (e.planned, 0), e


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
