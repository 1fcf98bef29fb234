"""Where the bot's files are: package data through importlib.resources, the checkout it
runs from, the version, profile paths, and the folder runs go to by default."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import game
from logo_bot.bot import installation
from logo_bot.bot.installation import checkout_root, is_package_data, package_file, version
from logo_bot.bot.profile import load_profile, resolve_path
from logo_bot.bot.recording import folder
from logo_bot.bot.recording.folder import default_root

REPO = Path(__file__).resolve().parents[2]


def test_a_checkout_is_the_folder_with_pyproject_beside_the_packages():
    assert checkout_root() == REPO


def test_not_a_checkout_when_no_pyproject_is_beside_the_packages(monkeypatch, tmp_path):
    monkeypatch.setattr(installation, "PACKAGES_ROOT", tmp_path)
    assert checkout_root() is None


def test_package_data_is_named_by_its_package_first():
    assert is_package_data("game/build/practice.z80")
    assert is_package_data("calibration/practice/font.txt")
    assert not is_package_data("recordings/run.schema.json")
    assert not is_package_data("gamey/x.z80")


def test_package_files_are_found_in_their_package():
    assert package_file("game/levels.txt") == Path(game.__file__).parent / "levels.txt"
    assert package_file("calibration/practice/font.txt").is_file()


def test_the_version_is_the_projects():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert version() == pyproject["project"]["version"]


def test_profile_paths_resolve_to_package_data_the_checkout_or_absolute(monkeypatch, tmp_path):
    practice = load_profile("practice")
    assert practice.resolve(practice.game["snapshot"]) == package_file("game/build/practice.z80")
    assert practice.font == package_file("calibration/practice/font.txt")
    assert resolve_path(str(tmp_path / "a.tap")) == tmp_path / "a.tap"
    assert resolve_path("mine/a.tap") == REPO / "mine/a.tap"
    monkeypatch.setattr("logo_bot.bot.profile.checkout_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    assert resolve_path("mine/a.tap") == tmp_path / "mine/a.tap", "installed: the current folder"


def test_runs_go_to_the_variable_then_the_checkout_then_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("LOGO_BOT_RECORDINGS", str(tmp_path / "chosen"))
    assert default_root() == tmp_path / "chosen"
    monkeypatch.delenv("LOGO_BOT_RECORDINGS")
    assert default_root() == REPO / "recordings"
    monkeypatch.setattr(folder, "checkout_root", lambda: None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_root() == tmp_path / "data" / "logo-bot" / "recordings"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_root() == tmp_path / "home" / ".local/share/logo-bot/recordings"


@pytest.mark.parametrize("option", ["--runs-dir", "--video-dir"])
def test_runs_dir_and_its_old_name_video_dir(option, tmp_path):
    from logo_bot.bot.commands import runs, walkthrough
    from logo_bot.bot.commands.recording_options import record_options

    args = walkthrough.parser().parse_args([option, str(tmp_path)])
    assert record_options(args).root == tmp_path
    assert runs.parser().parse_args([option, str(tmp_path)]).runs_dir == tmp_path
