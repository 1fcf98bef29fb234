"""The recorder around the player, on the pure-Python stand-in game: events, level files,
failure pictures and run.json (the end-to-end tests do the same on the real game)."""

from __future__ import annotations

import json

from PIL import Image

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.unattended import LevelResult, RunReport
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.solvers.board import Board
from tests.bot.fake_game import FakeGame

PROFILE = load_profile("practice")
LEVEL_2 = Board.from_rows(
    ["..........", ".....1....", "....111...", "...11111..", "....111...", ".....1...."]
)


def test_recorder_writes_what_the_player_saw_and_did(tmp_path):
    game = FakeGame(PROFILE, LEVEL_2, drop=0.2, seed=4)
    recording = Recording.start(RecordOptions(tmp_path), "level", ["logo-bot", "x"], PROFILE)
    recording.requested = (2, 2)
    with recording:
        env = recording.wrap(LogoEnv(game, poll_s=0.0))
        player = Player(env, PROFILE, settle_frames=2)
        first = player.wait_level()
        env.note("level_shown", level=2)
        level = player.play_level(first)
        env.note("level_done", level=2, keys=level.keys_sent)
        recording.report = RunReport(2, 2, {2: LevelResult(2, "done", level)}, status="complete")
    folder = recording.folder.path
    assert game.done and game.dropped > 0

    events = read_events(folder / "events.jsonl")
    kinds = [e["event"] for e in events]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end"
    keys = [e for e in events if e["event"] == "keys"]
    assert sum(len(e["keys"]) for e in keys) == level.keys_sent == len(game.keys.sent)
    assert any(not e["met"] for e in keys), "lost presses show as unmet expectations"
    corrections = [e for e in events if e["event"] == "correction"]
    assert len(corrections) == sum(level.corrections.values()) > 0
    for event in corrections:
        picture = folder / event["picture"]
        assert picture.parent.name == "failures" and Image.open(picture).size[0] == 640

    level_dir = folder / "levels" / "002"
    plan = (level_dir / "plan.txt").read_text()
    assert f"{len(level.plan)} moves, {level.planned_presses} key presses" in plan
    assert plan.count("space") == len(level.plan)
    assert Image.open(level_dir / "start.png").size == (320, 240)
    assert Image.open(level_dir / "end.png").size == (320, 240)

    run = json.loads((folder / "run.json").read_text())
    assert run["status"] == "complete" and run["mode"] == "level"
    (entry,) = run["levels"]
    assert entry["keys_sent"] == level.keys_sent and entry["end_board"] == str(LEVEL_2).split()
    assert run["totals"]["corrections"] == dict(level.corrections)
    assert "recording this run" in (folder / "run.log").read_text()


def test_an_exception_makes_a_failed_run_and_ctrl_c_an_aborted_one(tmp_path):
    for exc, status in ((RuntimeError("boom"), "failed"), (KeyboardInterrupt(), "aborted")):
        recording = Recording.start(RecordOptions(tmp_path), "walkthrough", ["x"], PROFILE)
        recording.level_started(3)
        recording.requested = (1, 5)
        try:
            with recording:
                raise exc
        except (RuntimeError, KeyboardInterrupt):
            pass
        run = json.loads((recording.folder.path / "run.json").read_text())
        assert run["status"] == status and run["error"]
        assert run["levels"] == [
            {"level": 3, "status": "aborted", "reason": "the run stopped here"}
        ]


def test_a_level_in_one_burst_is_written_down_a_stone_at_a_time(tmp_path, monkeypatch):
    """Held until seen, a level is one burst; the record still gets a keys event for each
    stone (the moves to it and its act) with the look that saw it placed, and an annotated
    video also the look that saw each move."""
    looks: dict[bool, list[float]] = {}
    for annotate in (False, True):
        game = FakeGame(PROFILE, LEVEL_2)
        options = RecordOptions(tmp_path / str(annotate), video=False, annotate=annotate)
        recording = Recording.start(options, "level", ["logo-bot", "x"], PROFILE)
        seen = looks[annotate] = []
        monkeypatch.setattr(recording, "seen", lambda obs, seen=seen: seen.append(obs.at))
        with recording:
            env = recording.wrap(LogoEnv(game, poll_s=0.0))
            player = Player(env, PROFILE, settle_frames=2)
            level = player.play_level(player.wait_level())
            recording.report = RunReport(2, 2, {2: LevelResult(2, "done", level)})
        assert level.end_board == LEVEL_2 and not level.corrections
        events = read_events(recording.folder.path / "events.jsonl")
        keys = [e for e in events if e["event"] == "keys"]
        assert len(keys) == len(level.plan), "a keys event a stone"
        assert all(e["met"] and e["keys"][-1] == "space" for e in keys)
        assert [e["keys"].count("space") for e in keys] == [1] * len(keys)
        assert sum(len(e["keys"]) for e in keys) == level.keys_sent
        assert [str(Board.from_rows(e["board"])).count("1") for e in keys] == [
            str(state).count("1") for state in level_states(level)
        ], "each written with the look that saw its stone"
        times = [e["t"] for e in keys]
        assert times == sorted(times) and len(set(times)) == len(times)
    moves = level.keys_sent - len(level.plan)
    assert len(looks[True]) - len(looks[False]) == moves, "and a look for every move"


def level_states(level):
    from logo_bot.solvers.board import act

    board, states = Board.empty(level.target.rows, level.target.cols), []
    for cell in level.plan:
        board = act(board, cell)
        states.append(board)
    return states
