"""Parse once in ``show``, ``calibrate`` and ``replay``: the frozen options each builds
from its command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from logo_bot.bot.commands import calibrate, replay, show
from logo_bot.bot.profile import load_profile

PRACTICE = load_profile("practice")


def test_the_three_sources_of_a_screen():
    def source(*argv: str) -> show.Source:
        return show.source_from(show.parser().parse_args(list(argv)), PRACTICE)

    assert source("--screenshot", "a.png") == show.Screenshot(Path("a.png"))
    assert source("--window", "Fuse", "--display", ":4") == show.LiveWindow(":4", "Fuse")
    assert source() == show.LiveWindow(None, None)
    launch = source("--launch", "--level", "3", "--speed", "200", "--name", "ZED")
    assert isinstance(launch, show.Launch)
    assert (launch.level, launch.player, launch.session.speed) == (3, "ZED", 200)
    assert launch.abort_key == "Pause", "the profile's abort key: --launch presses keys"
    assert source("--launch", "--abort-key", "F12").abort_key == "F12"
    assert source("--launch", "--abort-key", "none").abort_key is None
    assert source("--screenshot", "a.png", "--speed", "1") == show.Screenshot(Path("a.png"))


def test_calibrate_checks_a_picture_or_probes_the_keys():
    def options(*argv: str) -> calibrate.ProfileCheck | calibrate.KeyProbeOptions:
        return calibrate.options_from(calibrate.parser().parse_args(list(argv)), PRACTICE)

    check = options("--screenshot", "a.png")
    assert check == calibrate.ProfileCheck(
        PRACTICE, show.Screenshot(Path("a.png")), Path("calibrate-practice.png")
    )
    probe = options("--save-profile", "mine.toml", "--window", "0x40")
    assert isinstance(probe, calibrate.KeyProbeOptions)
    assert (probe.launch, probe.window, probe.save_profile) == (False, "0x40", Path("mine.toml"))


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "run.json").write_text("{}")
    return folder


def test_a_replay_without_a_display_is_headless_fast_and_makes_a_video(monkeypatch, run_folder):
    monkeypatch.delenv("DISPLAY", raising=False)
    options = replay.options_from(replay.parser().parse_args([str(run_folder)]))
    assert options.folder.path == run_folder
    assert (options.headless, options.speed, options.video, options.want_video) == (
        True,
        1000,
        None,
        True,
    )


def test_a_replay_on_the_display_is_real_time(monkeypatch, run_folder):
    monkeypatch.setenv("DISPLAY", ":3")
    options = replay.options_from(replay.parser().parse_args([str(run_folder)]))
    assert (options.headless, options.speed, options.want_video) == (False, 100, False)
    argv = [str(run_folder), "--video", "--level", "2"]
    options = replay.options_from(replay.parser().parse_args(argv))
    assert (options.video, options.want_video, options.level) == ("", True, 2)
