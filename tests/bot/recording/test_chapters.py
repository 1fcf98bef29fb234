"""Chapters of a run's video: where they fall, and that they reach a real MP4."""

from __future__ import annotations

import pytest

from logo_bot.bot.frames import FRAME_MS
from logo_bot.bot.recording.chapters import (
    Chapter,
    Piece,
    Timeline,
    chapters,
    ffmetadata,
    read_chapters,
    write_chapters,
)
from logo_bot.bot.recording.video import open_video, probe
from tests.bot.recording.run_folders import level

ENTER = {"event": "enter", "segment": 1, "frame": 33, "level": 1, "code": None}


def titles(items: list[Chapter]) -> list[tuple[int, str]]:
    return [(c.start, c.title) for c in items]


def test_levels_start_at_their_exact_movie_frames_and_gaps_are_named():
    levels = [
        level(1, segment=1, start_frame=76, end_frame=135),
        level(2, segment=1, start_frame=187, end_frame=326),
    ]
    events = [
        ENTER,
        {"event": "level_shown", "segment": 1, "frame": 82, "level": 1},  # estimated: late
        {"event": "correction", "segment": 1, "frame": 100, "level": 1, "kind": "cursor"},
        {"event": "skip_screen", "segment": 1, "frame": 150, "screen": "code", "level": 1},
    ]
    items = chapters(Timeline.of_segments({1: 400}), levels, events)
    assert titles(items) == [
        (0, "Menus"),
        (76, "Level 1"),
        (135, "Between levels"),
        (150, "Code screen"),
        (187, "Level 2"),
        (326, "End"),
    ]
    assert [c.end for c in items] == [76, 135, 150, 187, 326, 400]
    assert items[1].start_s == pytest.approx(76 * 0.019968)


def test_a_level_estimated_a_second_late_is_still_one_chapter_at_its_exact_frame():
    """A busy machine's wall clock put level 1's events 51 frames after its exact start:
    still the same attempt, not an earlier one with a chapter of its own."""
    levels = [level(1, segment=1, start_frame=107, end_frame=300)]
    events = [
        ENTER,
        {"event": "level_shown", "segment": 1, "frame": 158, "level": 1},
        {"event": "level_done", "segment": 1, "frame": 340, "level": 1},
    ]
    items = chapters(Timeline.of_segments({1: 400}), levels, events)
    assert titles(items) == [(0, "Menus"), (107, "Level 1"), (300, "End")]


def test_a_failure_and_a_restart_of_fuse_make_recovery_chapters():
    levels = [  # run.json places the last attempt of a level
        level(1, segment=1, start_frame=76, end_frame=135),
        level(2, attempts=2, segment=2, start_frame=60, end_frame=150),
    ]
    events = [
        ENTER,
        # estimated a few frames early, inside level 2's first attempt: after it, then
        {"event": "level_shown", "segment": 1, "frame": 187, "level": 2},
        {"event": "failure", "segment": 1, "frame": 296, "level": 2, "kind": "time_up"},
        {"event": "level_shown", "segment": 2, "frame": 66, "level": 2},
        {"event": "restart", "segment": 1, "frame": 320, "level": 2, "reason": "time up"},
        {"event": "enter", "segment": 2, "frame": 20, "level": 2, "code": "WORD"},
    ]
    items = chapters(Timeline.of_segments({1: 340, 2: 200}), levels, events)
    assert titles(items) == [
        (0, "Menus"),
        (76, "Level 1"),
        (135, "Between levels"),
        (187, "Level 2"),
        (296, "Recovery (time up)"),
        (340, "Recovery: Fuse restarted"),
        (360, "Menus (code WORD for level 2)"),
        (400, "Level 2"),
        (490, "End"),
    ]


def test_without_movie_frames_the_levels_come_from_the_events():
    events = [
        {"event": "level_shown", "segment": 1, "frame": 80, "level": 1},
        {"event": "level_done", "segment": 1, "frame": 140, "level": 1},
    ]
    items = chapters(Timeline.of_segments({1: 200}), [level(1)], events)
    assert titles(items) == [(0, "Menus"), (80, "Level 1"), (140, "End")]


def test_a_replay_of_one_level_starts_where_its_cut_starts():
    levels = [
        level(1, segment=1, start_frame=76, end_frame=135),
        level(2, segment=1, start_frame=187, end_frame=326),
    ]
    timeline = Timeline([Piece(1, 165, 128)])  # frames 128..292 of segment 1
    assert timeline.at(1, 127) is None and timeline.at(1, 128) == 0
    items = chapters(timeline, levels, [ENTER])
    assert titles(items) == [(0, "Before the level"), (59, "Level 2")]
    assert items[-1].end == 165


def test_no_video_no_chapters():
    assert chapters(Timeline.of_segments({}), [level(1)], []) == []


def test_titles_are_escaped_for_ffmetadata():
    text = ffmetadata([Chapter(0, 50, "a=b;c#d\\e")])
    assert text.startswith(";FFMETADATA1\n")
    assert "title=a\\=b\\;c\\#d\\\\e" in text
    assert f"END={round(50 * FRAME_MS)}" in text


@pytest.mark.ffmpeg
def test_chapters_reach_a_real_mp4_and_ffprobe_reads_them_back(tmp_path):
    video = tmp_path / "video.mp4"
    with open_video(video, (32, 24)) as writer:
        for _ in range(300):
            writer.write(__import__("numpy").zeros((24, 32, 3), dtype="uint8"))
    items = [Chapter(0, 76, "Menus"), Chapter(76, 250, "Level 1"), Chapter(250, 300, "End")]
    assert write_chapters(video, items) is None
    read = read_chapters(video)
    assert [title for _, _, title in read] == ["Menus", "Level 1", "End"]
    for (start, end, _), chapter in zip(read, items, strict=True):
        assert start == pytest.approx(chapter.start / 50.08, abs=0.001)
        assert end == pytest.approx(chapter.end / 50.08, abs=0.001)
    assert probe(video)["frames"] == 300  # the picture is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["video.mp4"]  # no leftovers


def test_without_ffmpeg_the_video_stays_as_it_was(tmp_path, monkeypatch):
    video = tmp_path / "video.mp4"
    video.write_bytes(b"not touched")
    monkeypatch.setenv("PATH", str(tmp_path))  # no ffmpeg to be found
    assert write_chapters(video, [Chapter(0, 10, "Menus")]) == "ffmpeg is not installed"
    assert video.read_bytes() == b"not touched"
