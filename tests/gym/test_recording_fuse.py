"""End-to-end: an episode recorded by the wrapper leaves the bot's run folder, checked
as the bot's own are (faults/folder_check.py: schemas, events, RZX, video); without
the wrapper nothing is written."""

from __future__ import annotations

import pytest

from faults.folder_check import check_folder
from logo_bot.gym.cells import CellActions
from logo_bot.gym.env import LogoGym
from logo_bot.gym.planner_agent import PlannerAgent, play_level
from logo_bot.gym.recording import RecordEpisodes

pytestmark = pytest.mark.fuse


@pytest.mark.ffmpeg
def test_a_recorded_episode_leaves_a_run_folder_with_its_video(xserver, tmp_path):
    runs = tmp_path / "runs"
    recorded = RecordEpisodes(LogoGym(display=xserver.display, headless=False), runs)
    env = CellActions(recorded)
    try:
        episode = play_level(env, PlannerAgent(), 1)
    finally:
        env.close()
    assert episode.solved
    [folder] = recorded.folders
    check = check_folder(folder)
    assert check.ok, check.problems
    [level] = check.run["levels"]
    assert (level["level"], level["status"], level["keys_sent"]) == (1, "done", episode.keys)
    assert level["movie_end_board"] == level["target"], "the movie ends on the solved board"
    assert check.count("keys") == episode.keys, "every key of the episode, as an event"
    assert check.run["video"]["chapters"] >= 1 and (folder / "report.html").is_file()


def test_without_the_wrapper_nothing_is_written(xserver, tmp_path, monkeypatch):
    """Neither in the bot's runs folder nor in the current one."""
    runs = tmp_path / "runs"
    monkeypatch.setenv("LOGO_BOT_RECORDINGS", str(runs))
    monkeypatch.chdir(tmp_path)
    env = CellActions(LogoGym(display=xserver.display, headless=False))
    try:
        assert play_level(env, PlannerAgent(), 1).solved
    finally:
        env.close()
    assert list(tmp_path.iterdir()) == []
