"""End-to-end: a real run in Fuse leaves a complete folder, and it replays exactly."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from benchmarks import pace
from logo_bot.bot.cli import main
from logo_bot.bot.commands.replay import LEAD_OUT
from logo_bot.bot.fuse.assembly import SessionOptions, open_session, with_files
from logo_bot.bot.installation import PACKAGES_ROOT as REPO_ROOT
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.chapters import read_chapters
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import list_runs
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.bot.recording.rzx import frame_count
from logo_bot.bot.recording.video import probe
from logo_bot.solvers.levels import load_level_list
from tests.bot.bot_process import bot_process
from tests.bot.emulated_frames import wait_emulated_frames

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}
RUN_SCHEMA = json.loads((REPO_ROOT / "recordings" / "run.schema.json").read_text())
EVENT_SCHEMA = json.loads((REPO_ROOT / "recordings" / "event.schema.json").read_text())


def rows(level: int) -> list[str]:
    return str(LEVELS[level]).splitlines()


def pictures(out: str) -> tuple[int, int]:
    """(frames showing the same game, frames compared) from replay's "pictures:" line;
    most are pixel-identical (asserted), a few may differ by FLASH or raster timing."""
    m = re.search(r"pictures: (\d+) of (\d+) frames identical[^,;\n]*(?:, (\d+) more)?", out)
    assert m and "another game" not in out, out
    identical, compared, more = int(m[1]), int(m[2]), int(m[3] or 0)
    assert identical >= compared * 0.99
    return identical + more, compared


def check_schemas(folder: Path) -> dict:
    run = json.loads((folder / "run.json").read_text())
    jsonschema.validate(run, RUN_SCHEMA, format_checker=jsonschema.FormatChecker())
    for event in read_events(folder / "events.jsonl"):
        jsonschema.validate(event, EVENT_SCHEMA)
    return run


def check_video(folder: Path, run: dict) -> dict:
    info = probe(folder / "video.mp4")
    assert info["codec_name"] == "h264" and info["pix_fmt"] == "yuv420p"
    assert info["frames"] == run["frames"]["movie"] == run["video"]["frames"]
    assert abs(info["frames"] - run["frames"]["rzx"]) <= 1, "video vs emulated frames"
    assert run["frames"]["rzx"] == sum(frame_count(folder / s["rzx"]) for s in run["segments"])
    return info


@pytest.fixture(scope="module")
def recorded(xserver, tmp_path_factory):
    """Levels 1-2 played through the CLI, recorded with --annotate."""
    root = tmp_path_factory.mktemp("recordings")
    argv = ["walkthrough", "--levels", "1-2", "--speed", "200", "--display", xserver.display]
    assert main([*argv, "--video-dir", str(root), "--annotate"]) == 0
    (folder,) = list_runs(root)
    return folder.path


def test_a_run_leaves_a_complete_folder(recorded):
    run = check_schemas(recorded)
    assert run["status"] == "complete" and run["error"] is None
    assert [e["level"] for e in run["levels"]] == [1, 2]
    for entry in run["levels"]:
        assert entry["status"] == "done"
        assert entry["target"] == entry["end_board"] == rows(entry["level"])
        assert entry["movie_end_board"] == rows(entry["level"])
        assert 0 < entry["start_frame"] < entry["end_frame"]
    assert run["levels"][0]["end_frame"] < run["levels"][1]["start_frame"]
    assert run["totals"]["levels_done"] == 2 and run["totals"]["restarts"] == 0
    assert run["fuse"]["killed_segments"] == [], "Fuse quit when asked: files complete"
    assert run["totals"]["keys_sent"] >= run["totals"]["fewest_presses"] > 0
    assert run["versions"]["fuse"] and len(run["versions"]["game"]["sha256"]) == 64
    assert run["profile"]["settings"]["keys"]["reset"] == "r"
    assert run["segments"][0]["final_board"] == rows(2)
    for level in (1, 2):
        d = recorded / "levels" / f"{level:03d}"
        assert (d / "start.png").is_file() and (d / "end.png").is_file()
        plan = (d / "plan.txt").read_text()
        assert "proven fewest" in plan
        # level 2 is planned during the transition, to the level file's fewest presses
        assert ("by the level file" in plan) == (level == 2)
    assert run["segments"][0]["movie"] == "movie.fmf" and (recorded / "movie.fmf").is_file()
    assert "level 2 done" in (recorded / "run.log").read_text()


def test_run_json_says_where_the_time_went(recorded, capsys):
    """time_spent: the parts of the time in levels add up to the level phase,
    and those the player names fit inside the levels' own seconds."""
    run = check_schemas(recorded)
    spent = run["time_spent"]
    level = spent["level"]
    assert level["times"] == 2
    assert sum(level["parts"].values()) == pytest.approx(level["seconds"], abs=0.002)
    in_levels = sum(entry["seconds"] for entry in run["levels"])
    assert level["seconds"] >= in_levels - 0.002  # the phase holds each level's play
    named = sum(s for part, s in level["parts"].items() if part != "other")
    if all(entry["attempts"] == 1 for entry in run["levels"]):  # no failed try in the phase
        assert named <= in_levels + 0.002
    # (keys held until seen look while they are down: no frame waited for after them)
    for part in ("keys_held", "key_events", "grab", "reading", "planning"):
        assert level["parts"].get(part, 0) > 0, part
    assert level["parts"].get("recording", 0) > 0  # a recorded run: the recorder's own time
    assert level["counts"]["grab"] >= run["totals"]["keys_sent"] // 4
    assert {"transition", "start", "probe"} <= set(spent)  # the practice profile probes
    assert sum(p["seconds"] for p in spent.values()) <= run["seconds"]
    assert pace.main([str(recorded)]) == 0  # the benchmark's tables read it
    assert "| 200 % | 2 |" in capsys.readouterr().out


def test_events_follow_the_play(recorded):
    events = read_events(recorded / "events.jsonl")
    kinds = [e["event"] for e in events]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end"
    # the practice profile probes the key timing on the first level before playing it;
    # the probe's presses are recorded as it makes them
    probes = [e for e in events if e["event"] == "key_probe"]
    assert probes and probes[0]["level"] == 1 and probes[-1]["complete"]
    probing = events[kinds.index("level_shown") + 1 : kinds.index("key_probe")]
    assert probing and all(e["event"] == "keys" and e["probe"] for e in probing)
    for level in (1, 2):
        mine = [e for e in events if e.get("level") == level]
        order = [e["event"] for e in mine if e["event"] not in ("keys", "enter", "key_probe")]
        assert order[:3] == ["level_shown", "target", "plan"] and order[-1] == "level_done"
        plan = next(e for e in mine if e["event"] == "plan")
        # keys held until seen: the level goes as one burst (moves, act, moves, act...),
        # written down a stone at a time as each is seen placed: the moves, then the act
        bursts = [e for e in mine if e["event"] == "keys" and not e.get("probe")]
        met = [e for e in bursts if e["met"]]
        assert all(e["keys"][-1] == "space" and e["keys"].count("space") == 1 for e in met)
        assert len(met[0]["keys"]) > 1 and met[-1]["board"] == rows(level)
        # a press lost on a busy machine is pressed again after a noted correction
        lost = [
            e
            for e in mine
            if e["event"] == "correction" and e["kind"] in ("lost_action", "wrong_stone")
        ]
        acts = sum(e["keys"].count("space") for e in bursts)
        assert acts == len(plan["plan"]) + len(lost)
        for act in (e for e in bursts if not e["met"] and e["keys"][-1] == "space"):
            after = mine[mine.index(act) + 1 :]
            upto = next((i for i, e in enumerate(after) if e["event"] == "keys"), len(after))
            assert any(e["event"] == "correction" for e in after[:upto]), act
    frames = [e["frame"] for e in events if e["frame"] is not None]
    assert frames == sorted(frames), "frame estimates only grow within a segment"


def test_video_has_every_emulated_frame_and_annotated_matches(recorded):
    run = check_schemas(recorded)
    info = check_video(recorded, run)
    annotated = probe(recorded / "annotated.mp4")
    assert annotated["frames"] == info["frames"] == run["annotated"]["frames"]
    assert annotated["width"] == 640 and annotated["height"] > 480
    # the same chapters in both, a level's at its exact start frame
    chapters = read_chapters(recorded / "video.mp4")
    assert chapters == read_chapters(recorded / "annotated.mp4")
    assert run["video"]["chapters"] == run["annotated"]["chapters"] == len(chapters)
    starts = {title: start for start, _, title in chapters}
    for entry in run["levels"]:
        assert starts[f"Level {entry['level']}"] == pytest.approx(
            entry["start_frame"] / 50.08, abs=0.001
        )


def gray_frames(video: Path, width: int, height: int) -> np.ndarray:
    """Every frame's top ``height`` rows at a quarter of their size, in grey levels."""
    size = f"{width // 4}:{height // 4}"
    vf = f"crop={width}:{height}:0:0,scale={size}:flags=area,format=gray"
    argv = ["ffmpeg", "-v", "error", "-i", str(video), "-vf", vf, "-f", "rawvideo", "-"]
    out = subprocess.run(argv, capture_output=True, check=True).stdout
    return np.frombuffer(out, np.uint8).reshape(-1, height // 4, width // 4).astype(np.int16)


def test_annotated_shows_the_same_frame_as_the_video_at_every_moment(recorded):
    """Under the marks, annotated.mp4's frame f is video.mp4's frame f: of the video's
    frames f-10..f+10 none is nearer to it (a picture 5 frames stale would be nearer to
    an earlier frame). The bot's looks are placed by their pictures."""
    run = json.loads((recorded / "run.json").read_text())
    video = gray_frames(recorded / "video.mp4", 640, 480)
    annotated = gray_frames(recorded / "annotated.mp4", 640, 480)
    assert len(video) == len(annotated)
    stale = []
    for f, picture in enumerate(annotated):
        lo = max(0, f - 10)
        distance = np.abs(video[lo : f + 11] - picture).mean(axis=(1, 2))
        if distance[f - lo] > distance.min() + 0.5:
            stale.append((f, int(distance.argmin()) + lo - f))
    assert stale == [], "frames (and the nearest video frame's offset) showing another frame"
    # most looks are found in the movie (at rest 142 of 148; a grab made while Fuse was
    # drawing, more often on a busy machine, matches no frame and keeps the clock's place;
    # a Fuse that falls behind the run's clock is followed by the clock's shift)
    looks = run["annotated"]["looks"]
    assert looks["found_in_movie"] >= 0.5 * looks["count"] > 0, looks


def test_replay_of_the_whole_run_reaches_the_same_board(recorded, xserver, capsys):
    video = recorded.parent / "whole.mp4"
    argv = ["replay", str(recorded), "--display", xserver.display, "--speed", "1000"]
    assert main([*argv, "--video", str(video)]) == 0
    out = capsys.readouterr().out
    assert "the board matches the recording" in out
    run = json.loads((recorded / "run.json").read_text())
    frames = run["frames"]["movie"]
    assert pictures(out) == (frames, frames)
    assert probe(video)["frames"] == frames
    titles = [title for _, _, title in read_chapters(video)]
    assert titles == [title for _, _, title in read_chapters(recorded / "video.mp4")]


def test_replay_of_level_2_alone_reproduces_its_end_board(recorded, xserver, capsys):
    argv = ["replay", recorded.name, "--video-dir", str(recorded.parent), "--level", "2"]
    assert main([*argv, "--display", xserver.display, "--speed", "1000", "--video"]) == 0
    out = capsys.readouterr().out
    assert "level 2's end: the board matches the recording" in out
    run = json.loads((recorded / "run.json").read_text())
    entry = run["levels"][1]
    kept = frame_count(recorded / "levels" / "002" / "replay.rzx") - 1  # one frame of padding
    assert kept > entry["end_frame"] - entry["start_frame"]
    assert pictures(out) == (kept - 1, kept - 1)  # all but the first
    assert probe(recorded / "levels" / "002" / "replay.mp4")["frames"] == kept


def test_level_replay_check_fails_when_the_level_is_cut_short(recorded, xserver, capsys):
    copy = recorded.parent / "cut-short"
    shutil.copytree(recorded, copy, ignore=shutil.ignore_patterns("*.mp4", "levels"))
    run = json.loads((copy / "run.json").read_text())
    entry = run["levels"][1]
    # cut where the level appears: the replay's lead-out (25 frames) is far too short for
    # the 43 presses level 2 needs, the game reading at most one a frame
    assert LEAD_OUT < 43
    entry["end_frame"] = entry["start_frame"]
    (copy / "run.json").write_text(json.dumps(run))
    argv = ["replay", str(copy), "--level", "2", "--display", xserver.display]
    assert main([*argv, "--speed", "1000"]) == 1
    assert "differs from the recording" in capsys.readouterr().out


def test_runs_lists_the_run_and_bad_names_exit_2(recorded, capsys):
    assert main(["runs", "--video-dir", str(recorded.parent)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith(recorded.name))
    assert "walkthrough" in line and "2/2" in line and "complete" in line
    for bad in ("no-such-run", str(recorded.parent / "nothing")):
        assert main(["replay", bad, "--video-dir", str(recorded.parent)]) == 2
        # the error and what to do about it, and nothing else (no log lines, no traceback)
        no_run = f"no run {bad!r} (neither a folder nor a run in {recorded.parent})"
        assert one_error(capsys.readouterr().err) == no_run
    assert main(["replay", recorded.name, "--video-dir", str(recorded.parent), "--level", "9"]) == 2
    assert one_error(capsys.readouterr().err).startswith("level 9 is not in")


def one_error(err: str) -> str:
    """The message of the one error ``logo-bot replay`` printed: its line
    "logo-bot replay: error: MESSAGE" and an optional "  what to do: HINT" line are all of
    ``err``."""
    m = re.fullmatch(r"logo-bot replay: error: (.+)\n(?:  what to do: .+\n)?", err)
    assert m, f"not one error line (and its hint): {err!r}"
    return m[1]


def test_ctrl_c_mid_level_leaves_a_complete_aborted_folder(xserver, tmp_path):
    root = tmp_path / "runs"
    args = ["walkthrough", "--levels", "1-10", "--speed", "200", "--display", xserver.display]
    with bot_process([*args, "--video-dir", str(root)], watchdog_s=180) as process:
        # Ctrl-C once the bot has pressed its first keys on level 2 (events.jsonl is
        # flushed line by line): mid-level, with all of its stones still to place
        seen = wait_for_event(root, process, lambda e: e["event"] == "keys" and e.get("level") == 2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert not [e for e in seen if e["event"] == "level_done" and e.get("level") == 2]
    (folder,) = list_runs(root)
    run = check_schemas(folder.path)
    assert run["status"] == "aborted" and "Ctrl-C" in run["error"]
    assert run["levels"][0]["status"] == "done"
    assert run["levels"][-1] == {**run["levels"][-1], "level": 2, "status": "aborted"}
    # the folder tells what was true when Ctrl-C came: level 2 on screen, not finished
    events = read_events(folder.path / "events.jsonl")
    assert events[: len(seen)] == seen, "events.jsonl is only appended to"
    assert (events[-1]["event"], events[-1]["status"]) == ("run_end", "aborted")
    assert not [e for e in events if e["event"] == "level_done" and e.get("level") == 2]
    if run["video"].get("unfinished"):  # the stop's 4 s ran out first (a busy machine)
        assert "logo-bot replay" in run["video"]["error"]
        assert not (folder.path / "video.mp4").exists(), "no half-written video"
    else:
        end_board = run["levels"][-1]["movie_end_board"]  # the movie's last picture
        assert end_board is not None and end_board != rows(2), "level 2 was finished"
        check_video(folder.path, run)
        # the movie was read: the RZX goes past the level's first frame in it
        assert frame_count(folder.path / "run.rzx") > run["levels"][-1]["start_frame"]


def wait_for_event(root: Path, process, wanted, timeout_s: float = 120) -> list[dict]:
    """The events of the run under ``root`` up to the first that is ``wanted``."""
    deadline = time.monotonic() + timeout_s
    while True:
        for path in root.glob("*/events.jsonl"):
            events = read_events(path)
            for i, event in enumerate(events):
                if wanted(event):
                    return events[: i + 1]
        assert process.poll() is None, f"the bot stopped: {process.stderr.read()}"
        assert time.monotonic() < deadline, "the event never came"
        time.sleep(0.01)


def test_a_restart_makes_a_second_segment_and_the_video_joins_them(xserver, tmp_path):
    options = RecordOptions(tmp_path, video=True)
    recording = Recording.start(options, "walkthrough", ["test"], PROFILE)
    base = SessionOptions(display=xserver.display, headless=False, speed=400)
    with recording, open_session(PROFILE, with_files(base, recording.fuse_files())) as session:
        recording.record_fuse(session)
        env = recording.wrap(LogoEnv(session))
        env.observe()
        wait_emulated_frames(xserver.display, session.fuse.window_id, 50)
        env.note("restart", level=1, reason="a test")
        session.restart()
        wait_emulated_frames(xserver.display, session.fuse.window_id, 50)  # the new Fuse's
        env.observe()
    folder = recording.folder.path
    run = check_schemas(folder)
    assert [s["rzx"] for s in run["segments"]] == ["run.rzx", "run-2.rzx"]
    assert all(s["movie_frames"] >= 40 for s in run["segments"])
    info = check_video(folder, run)
    assert info["frames"] == sum(s["movie_frames"] for s in run["segments"])
    events = read_events(folder / "events.jsonl")
    assert {e["segment"] for e in events if e["segment"]} == {1, 2}
    assert (folder / "fuse-2.log").is_file() and os.path.getsize(folder / "run-2.rzx") > 0
