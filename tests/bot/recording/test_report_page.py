"""report.html from run folders built here: what it shows, what it links, what it escapes."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.report_data import keys_over_time, load, moments
from logo_bot.bot.recording.report_page import write_compare, write_report
from logo_bot.bot.recording.report_plots import keys_plot, seconds_plot
from tests.bot.recording.run_folders import NASTY, TARGET, level, make_run


class Page(HTMLParser):
    """Every element's tag and attributes, and the page's text, in order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []
        self.raw = text
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.texts.append(data)

    def all(self, tag: str, cls: str | None = None) -> list[dict[str, str]]:
        return [
            attrs
            for t, attrs in self.elements
            if t == tag and (cls is None or cls in attrs.get("class", "").split())
        ]

    @property
    def text(self) -> str:
        return " ".join(self.texts)


def read(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


@pytest.fixture
def failed_run(tmp_path) -> Path:
    """Levels 1 and 2 done (2 with a correction and an unreadable frame), 3 failed."""
    levels = [
        level(1, segment=1, start_frame=76, end_frame=135),
        level(2, segment=1, start_frame=187, end_frame=326, corrections={"cursor": 1}),
        level(3, "failed", reason=NASTY, attempts=5, segment=1, start_frame=378, end_frame=450),
    ]
    events = [
        {"event": "level_shown", "frame": 80, "level": 1},
        {"event": "keys", "frame": 82, "level": 1, "keys": ["p", "p", "p"], "probe": True,
         "hold_ms": 30.0, "gap_ms": 30.0, "rollover": False},
        {"event": "keys", "frame": 85, "level": 1, "keys": ["p", "p"]},
        {"event": "level_done", "frame": 130, "level": 1},
        {"event": "level_shown", "frame": 190, "level": 2},
        {"event": "keys", "frame": 200, "level": 2, "keys": ["a"]},
        {"event": "correction", "frame": 210, "level": 2, "kind": "cursor",
         "picture": "failures/001-level002-correction-cursor.png"},
        {"event": "unreadable", "frame": 220, "level": 2, "what": "board", "picture": None},
        {"event": "level_done", "frame": 320, "level": 2},
        {"event": "level_shown", "frame": 380, "level": 3},
        {"event": "target", "frame": 380, "level": 3, "target": TARGET},
        {"event": "failure", "frame": 440, "level": 3, "kind": "time_up", "reason": NASTY,
         "picture": "failures/002-level003-failure-time_up.png"},
        {"event": "crash", "frame": 445, "level": 3, "exit": -9},
        {"event": "restart", "frame": 0, "segment": 2, "level": 3, "reason": "Fuse died"},
    ]  # fmt: skip
    return make_run(tmp_path, "20261123T000000Z-walkthrough", levels, events, "failed", NASTY,
                    segments={1: 460, 2: 40})  # fmt: skip


@pytest.mark.ffmpeg
def test_the_page_shows_the_run(failed_run):
    path = write_report(RunFolder(failed_run))
    assert path == failed_run / "report.html"
    page = read(path)
    text = page.text
    assert "failed" in page.all("span", "status")[0]["class"]
    assert "2 of 3" in text and "(levels 1-3)" in text
    assert "200 %" in text and "0:10" in text
    assert "keys" in text and "37 sent, fewest planned 34, lower bound 32" in text
    assert "time up 1" in text  # failures by kind
    assert "<dt>corrections</dt><dd>cursor 1</dd>" in page.raw  # by kind, from the totals
    assert "<dt>restarts of Fuse</dt><dd>1 (1 after a crash)</dd>" in page.raw
    assert "fuse 1.6.0" in text and "game practice.z80 aaaaaaaaaaaa" in text
    # the table: one row per level, with its target drawn and its numbers
    rows = page.all("tr", "level")
    assert [r["data-level"] for r in rows] == ["1", "2", "3"]
    assert len(page.all("svg", "target")) == 3
    assert "18 / 17 (16)" in text and "19 / 17 (16)" in text
    assert "5 attempts" in text


@pytest.mark.ffmpeg
def test_every_text_from_the_run_is_escaped(failed_run):
    page = read(write_report(RunFolder(failed_run)))
    assert "<script>alert" not in page.raw
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot;" in page.raw
    assert NASTY in page.text  # shown as text, where the run said it
    scripts = page.all("script")
    assert len(scripts) == 1 and "src" not in scripts[0]


@pytest.mark.ffmpeg
def test_the_video_and_its_level_list_seek_to_each_level_start(failed_run):
    page = read(write_report(RunFolder(failed_run)))
    (video,) = page.all("video")
    assert video["src"] == "video.mp4" and video["id"] == "video"
    seeks = [float(a["data-t"]) for a in page.all("a", "seek")]
    starts = [76 / 50.08, 187 / 50.08, 378 / 50.08]
    assert seeks == pytest.approx(starts * 2, abs=0.001)  # the list and the table


@pytest.mark.ffmpeg
def test_corrections_link_their_pictures_and_the_end_pictures_show(failed_run):
    page = read(write_report(RunFolder(failed_run)))
    links = [a["href"] for a in page.all("a") if a.get("href", "").startswith("failures/")]
    assert links == [
        "failures/001-level002-correction-cursor.png",
        "failures/002-level003-failure-time_up.png",
    ]
    assert all((failed_run / link).is_file() for link in links)
    assert "cursor ×1" in page.text and "time up ×1" in page.text  # by kind, counted
    assert "board ×1" in page.text  # the unreadable frame, without a picture
    ends = [img["src"] for img in page.all("img", "end")]
    assert ends == ["levels/001/end.png", "levels/002/end.png"]  # level 3 failed: none


@pytest.mark.ffmpeg
def test_plots_are_svg_files_next_to_the_page_and_nothing_comes_from_the_network(failed_run):
    page = read(write_report(RunFolder(failed_run)))
    plots = [img["src"] for img in page.all("img", "plot")]
    assert plots == ["report-keys.svg", "report-seconds.svg"]
    for name in plots:
        svg = (failed_run / name).read_text()
        assert "<svg" in svg and "</svg>" in svg
    for _, attrs in page.elements:
        for key in ("src", "href"):
            assert "://" not in attrs.get(key, ""), attrs


def test_a_run_without_video(tmp_path):
    folder = make_run(tmp_path, "20261123T000001Z-level", [level(1)], video=False)
    page = read(write_report(RunFolder(folder)))
    assert page.all("video") == [] and page.all("a", "seek") == []
    assert "No video: not recorded (--no-video)" in page.text
    assert "logo-bot replay 20261123T000001Z-level --headless" in page.text
    assert len(page.all("tr", "level")) == 1


def test_an_aborted_run_that_reached_no_level(tmp_path):
    folder = make_run(tmp_path, "20261123T000002Z-walkthrough", [], status="aborted",
                      error="stopped by Ctrl-C", video=False)  # fmt: skip
    (folder / "events.jsonl").unlink()
    page = read(write_report(RunFolder(folder)))
    assert "aborted" in page.all("span", "status")[0]["class"]
    assert "No level was reached." in page.text and "stopped by Ctrl-C" in page.text


@pytest.mark.ffmpeg
def test_two_runs_side_by_side(failed_run, tmp_path):
    other = make_run(tmp_path / "b", "20261124T000000Z-walkthrough",
                     [level(1, segment=1, start_frame=70, end_frame=130), level(2)])  # fmt: skip
    path = write_compare(RunFolder(failed_run), RunFolder(other))
    assert path == failed_run / "compare-20261124T000000Z-walkthrough.html"
    page = read(path)
    videos = page.all("video")
    assert [v["src"] for v in videos] == [
        "video.mp4",
        "../b/20261124T000000Z-walkthrough/video.mp4",
    ]
    assert [r["data-level"] for r in page.all("tr", "level")] == ["1", "2", "3"]
    assert "not played" in page.text  # level 3, in the second run
    assert "-0.5" in page.text or "+0.0" in page.text
    assert (failed_run / "compare-20261124T000000Z-walkthrough-seconds.svg").is_file()


@pytest.mark.ffmpeg
def test_the_report_and_runs_commands(failed_run, tmp_path, capsys, monkeypatch):
    root = failed_run.parent
    assert main(["report", "last", "--video-dir", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == f"report: {(failed_run / 'report.html').resolve().as_uri()}"
    assert main(["runs", "--video-dir", str(root)]) == 0
    assert str(failed_run / "report.html") in capsys.readouterr().out
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["runs", "--open", "--video-dir", str(root)]) == 2
    assert "no desktop browser to open file://" in capsys.readouterr().err
    assert main(["report", "--compare", "last", "last", "--video-dir", str(root)]) == 2
    assert "two different runs" in capsys.readouterr().err
    assert main(["report", "last", "--out", str(tmp_path / "x.txt"), "--video-dir", str(root)])
    assert ".html" in capsys.readouterr().err


@pytest.mark.ffmpeg
def test_the_report_command_compares_two_runs(failed_run, capsys):
    root = failed_run.parent
    other = make_run(root, "20261124T000000Z-walkthrough", [level(1), level(2)])
    argv = ["report", "--compare", failed_run.name, "last", "--video-dir", str(root)]
    assert main(argv) == 0
    page = failed_run / f"compare-{other.name}.html"
    assert capsys.readouterr().out.strip() == f"report: {page.resolve().as_uri()}"
    assert [r["data-level"] for r in read(page).all("tr", "level")] == ["1", "2", "3"]
    out = root / "both.html"
    assert main([*argv, "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"report: {out.resolve().as_uri()}"
    assert f"{failed_run.name} against {other.name}" in read(out).text


@pytest.mark.ffmpeg
def test_levels_missing_from_the_video_are_named(tmp_path):
    levels = [level(1), level(2, segment=2, start_frame=30, end_frame=90)]
    folder = make_run(tmp_path, "20261123T000003Z-walkthrough", levels, segments={1: 0, 2: 120})
    page = read(write_report(RunFolder(folder)))
    seeks = [float(a["data-t"]) for a in page.all("a", "seek")]
    assert seeks == pytest.approx([30 / 50.08] * 2, abs=0.001)
    assert "not in the video: level 1" in page.text


@pytest.mark.ffmpeg
def test_a_run_without_video_shows_the_replay_made_later(tmp_path):
    levels = [level(1, segment=1, start_frame=76, end_frame=135)]
    folder = make_run(tmp_path, "20261123T000004Z-walkthrough", levels, segments={1: 300})
    run = json.loads((folder / "run.json").read_text())
    run["video"].update(path=None, error="not recorded (--no-video)")
    run["segments"][0].update(movie_frames=None, rzx_frames=300)
    (folder / "run.json").write_text(json.dumps(run))
    (folder / "video.mp4").rename(folder / "replay.mp4")
    page = read(write_report(RunFolder(folder)))
    assert [v["src"] for v in page.all("video")] == ["replay.mp4"]
    assert float(page.all("a", "seek")[0]["data-t"]) == pytest.approx(76 / 50.08, abs=0.001)


@pytest.mark.ffmpeg
def test_keys_over_time_count_only_keys_the_levels_took(failed_run):
    data = load(RunFolder(failed_run))
    times, keys = keys_over_time(data)
    # ["p", "p"] in level 1, ["a"] in level 2; none outside levels, none of the key probe's
    assert keys == [2, 3]
    assert times == pytest.approx([85 / 50.08, 200 / 50.08], abs=0.01)
    assert moments(data, ("correction",)) == pytest.approx([210 / 50.08], abs=0.01)


@pytest.mark.ffmpeg
def test_the_plots_of_two_runs_name_both(failed_run, tmp_path):
    other = make_run(tmp_path / "b", "20261124T000000Z-walkthrough", [level(1), level(2)])
    runs = [load(RunFolder(failed_run)), load(RunFolder(other))]
    for plot in (keys_plot, seconds_plot):
        svg = plot(runs, tmp_path / f"{plot.__name__}.svg").read_text()
        assert svg.count("20261123T000000Z-walkthrough") >= 1
        assert svg.count("20261124T000000Z-walkthrough") >= 1
