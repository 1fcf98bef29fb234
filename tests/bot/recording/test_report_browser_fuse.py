"""End-to-end: a real walkthrough leaves report.html and a video with chapters, and the page
works in a real browser (headless Chromium from file://, no network)."""

from __future__ import annotations

import json

import pytest

from logo_bot.bot.frames import FPS  # Fuse's frame rate, which the video keeps
from logo_bot.bot.recording.chapters import read_chapters
from logo_bot.bot.recording.folder import list_runs
from tests.bot.bot_process import bot_process
from tests.bot.recording.chromium import Chromium, find_chromium

pytestmark = pytest.mark.fuse

# Waits for the video's metadata, then clicks the last level in the list beside the
# video and waits until the video has seeked there.
CHECK = """(async () => {
  const video = document.getElementById('video');
  if (video.readyState < 1) {
    await new Promise((ok, fail) => {
      video.addEventListener('loadedmetadata', ok, {once: true});
      video.addEventListener('error', () => fail(new Error('video error ' +
        (video.error && video.error.code))), {once: true});
    });
  }
  const links = Array.from(document.querySelectorAll('ol.chapters a.seek'));
  const link = links[links.length - 1];
  const seeked = new Promise(ok => video.addEventListener('seeked', ok, {once: true}));
  link.click();
  await seeked;
  return {rows: document.querySelectorAll('#levels tbody tr.level').length,
          links: links.length, duration: video.duration,
          wanted: parseFloat(link.dataset.t), now: video.currentTime,
          plots: Array.from(document.querySelectorAll('img.plot'))
                      .map(img => img.complete && img.naturalWidth > 0)};
})()"""


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    """``logo-bot walkthrough --levels 1-2 --speed 200 --headless`` into a tmp folder."""
    root = tmp_path_factory.mktemp("runs")
    args = ["walkthrough", "--levels", "1-2", "--speed", "200", "--headless"]
    with bot_process([*args, "--video-dir", str(root)]) as process:
        _, err = process.communicate()
    assert process.returncode == 0, err
    (folder,) = list_runs(root)
    assert f"report: {(folder.path / 'report.html').resolve().as_uri()}" in err
    return folder.path


def test_the_video_has_a_chapter_per_level_at_its_start_frame(walked):
    run = json.loads((walked / "run.json").read_text())
    chapters = read_chapters(walked / "video.mp4")
    assert run["video"]["chapters"] == len(chapters) >= 4
    assert chapters[0][0] == 0 and chapters[-1][1] == pytest.approx(run["frames"]["movie"] / FPS,
                                                                   abs=0.002)  # fmt: skip
    levels = {title: start for start, _, title in chapters if title.startswith("Level ")}
    assert list(levels) == ["Level 1", "Level 2"]
    for entry in run["levels"]:  # one segment: the video's frame is the movie's frame
        assert levels[f"Level {entry['level']}"] == pytest.approx(
            entry["start_frame"] / FPS, abs=0.001
        )
    assert chapters[0][2] == "Menus"


def test_the_report_works_in_a_real_browser(walked, tmp_path):
    assert find_chromium(), "chromium is missing: ./scripts/setup.sh installs it"
    run = json.loads((walked / "run.json").read_text())
    with Chromium(tmp_path / "profile") as browser:
        browser.open((walked / "report.html").as_uri())
        seen = browser.evaluate(CHECK, timeout_s=30)
        shot = browser.screenshot(tmp_path / "report.png")
    assert seen["rows"] == seen["links"] == len(run["levels"]) == 2
    assert seen["duration"] == pytest.approx(run["frames"]["movie"] / FPS, abs=0.05)
    last = run["levels"][-1]
    assert seen["wanted"] == pytest.approx(last["start_frame"] / FPS, abs=0.001)
    assert seen["now"] == pytest.approx(seen["wanted"], abs=0.05)
    assert seen["plots"] == [True, True]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
