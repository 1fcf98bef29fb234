"""Every run checks what it needs before it starts (bot/commands/required.py): a PATH
without ffmpeg, or without fmfconv, Fuse or Xvfb, is refused at once with the Debian
package and the option that does without, the part's exit status, no run folder and no
program started. The programs on PATH are fakes that leave a mark when they run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import machine_checks, required
from logo_bot.bot.x11.display import XServer

# Every program a headless walkthrough with its video may start.
PROGRAMS = ("fuse-sdl", "Xvfb", "ffmpeg", "ffprobe", "fmfconv")
WALK = ["walkthrough", "--levels", "1", "--headless", "--set", "timing.probe=false"]

# logo-bot with OpenCV hidden: the video is then ffmpeg's or none (the checkout's venv has
# OpenCV, the bot's fallback writer, which a plain install has not)
WITHOUT_OPENCV = """
import importlib.abc, sys

class NoOpenCV(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "cv2":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NoOpenCV())
from logo_bot.bot.cli import main
sys.exit(main(sys.argv[1:]))
"""


def fake_path(folder: Path, programs: tuple[str, ...]) -> Path:
    """A PATH folder of ``programs`` that each write ``ran-NAME`` beside it when run."""
    folder.mkdir(exist_ok=True)
    for name in programs:
        script = folder / name
        script.write_text(f'#!/bin/sh\ntouch "{folder}/ran-{name}"\nexit 1\n')
        script.chmod(0o755)
    return folder


def started(folder: Path) -> list[str]:
    return sorted(p.name.removeprefix("ran-") for p in folder.glob("ran-*"))


def logo_bot(argv: list[str], path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(path))
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_OPENCV, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
@pytest.mark.parametrize(
    ("missing", "said"),
    [
        ("ffmpeg", "video needs ffmpeg (sudo apt-get install ffmpeg); --no-video plays without it"),
        (
            "fmfconv",
            "video needs fmfconv (sudo apt-get install fuse-emulator-utils); "
            "--no-video plays without it",
        ),
    ],
)
def test_a_path_without_a_video_tool_is_refused_before_the_run(tmp_path, missing, said):
    bin_ = fake_path(tmp_path / "bin", tuple(p for p in PROGRAMS if p != missing))
    runs = tmp_path / "runs"
    done = logo_bot([*WALK, "--runs-dir", str(runs)], bin_)
    assert done.returncode == 5, done.stderr  # README: a tool Fuse's files need
    assert done.stderr == (
        f"logo-bot walkthrough: error: {said}\n"
        "  what to do: logo-bot doctor checks the whole machine\n"
    )
    assert not runs.exists(), "no run folder"
    assert started(bin_) == [], "no program started"
    # with --no-video the run goes on, to the checks of its options (then refused there)
    with_no_video = logo_bot([*WALK, "--no-video", "--max-attempts", "0"], bin_)
    assert "--max-attempts 0: give 1 or more" in with_no_video.stderr, with_no_video.stderr


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
def test_every_part_missing_is_named_the_first_one_refusing(tmp_path):
    bin_ = fake_path(tmp_path / "bin", ())
    done = logo_bot([*WALK, "--runs-dir", str(tmp_path / "runs")], bin_)
    assert done.returncode == 5, done.stderr
    assert "error: fuse-sdl is not installed (sudo apt-get install fuse-emulator-sdl)\n" in (
        done.stderr
    )
    assert "also missing: Xvfb, fmfconv, ffmpeg; logo-bot doctor" in done.stderr


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
def test_a_headless_run_without_xvfb_names_it_and_the_display_option(tmp_path):
    bin_ = fake_path(tmp_path / "bin", tuple(p for p in PROGRAMS if p != "Xvfb"))
    done = logo_bot([*WALK, "--no-video", "--runs-dir", str(tmp_path / "runs")], bin_)
    assert done.returncode == 4, done.stderr
    assert "a headless run needs Xvfb (sudo apt-get install xvfb); --display :N plays" in (
        done.stderr
    )
    assert started(bin_) == [] and not (tmp_path / "runs").exists()


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
@pytest.mark.parametrize("command", ["show", "calibrate"])
def test_a_launch_without_fuse_is_refused_before_anything_starts(tmp_path, command):
    bin_ = fake_path(tmp_path / "bin", ("Xvfb", "fuse-gtk"))
    done = logo_bot([command, "--launch", "--headless"], bin_)
    assert done.returncode == 5, done.stderr
    assert (
        "fuse-sdl is not installed (sudo apt-get install fuse-emulator-sdl); --fuse gtk plays "
        "with fuse-gtk, which is installed"
    ) in done.stderr
    assert started(bin_) == []


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
def test_annotate_needs_a_video_writer_and_says_how_to_go_without(tmp_path):
    bin_ = fake_path(tmp_path / "bin", tuple(p for p in PROGRAMS if p != "ffmpeg"))
    done = logo_bot([*WALK, "--no-video", "--annotate", "--runs-dir", str(tmp_path)], bin_)
    assert done.returncode == 5, done.stderr
    assert "--annotate needs ffmpeg (sudo apt-get install ffmpeg); leave out --annotate" in (
        done.stderr
    )


def test_opencv_writes_the_video_where_ffmpeg_is_missing_so_nothing_is_refused(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("PATH", str(fake_path(tmp_path / "bin", ("fmfconv",))))
    monkeypatch.setattr(machine_checks, "opencv", lambda: True)
    assert all(n.ok for n in required.video_needs(True, True, True, "--no-video"))
    monkeypatch.setattr(machine_checks, "opencv", lambda: False)
    assert [n.item for n in required.video_needs(True, True, True, "") if not n.ok] == [
        "ffmpeg",
        "ffmpeg",
    ]


def run_folder(root: Path, attached: bool) -> Path:
    folder = root / "20261127T120000Z-walkthrough"
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({"fuse": {"attached": attached}}))
    return folder


@pytest.mark.slow  # a logo-bot process or two: the whole suite's
def test_a_replay_without_fmfconv_or_ffplay_is_refused(tmp_path):
    bin_ = fake_path(tmp_path / "bin", ("fuse-sdl", "Xvfb", "ffmpeg"))
    launched = run_folder(tmp_path / "a", attached=False)
    done = logo_bot(["replay", str(launched), "--headless"], bin_)
    assert done.returncode == 5, done.stderr
    assert "a replay needs fmfconv (sudo apt-get install fuse-emulator-utils)\n" in done.stderr
    attached = run_folder(tmp_path / "b", attached=True)
    done = logo_bot(["replay", str(attached), "--display", ":986"], bin_)
    assert done.returncode == 5, done.stderr
    assert "playing the video needs ffplay (sudo apt-get install ffmpeg); --headless" in (
        done.stderr
    )
    assert started(bin_) == []


def test_runs_dir_naming_a_file_says_it_is_not_a_folder(tmp_path, capsys):
    runs = tmp_path / "runs.txt"
    runs.write_text("")
    for given, said in [
        (runs, "it is a file, not a folder"),
        (runs / "below", f"{runs} is a file, not a folder"),
    ]:
        assert main([*WALK, "--runs-dir", str(given)]) == 2
        err = capsys.readouterr().err
        assert f"cannot create a run folder in {given}: {said}\n" in err, err


@pytest.mark.xserver
def test_keys_through_xtest_need_xtest_on_the_display(tmp_path, monkeypatch, capsys):
    """The default keys need no XTEST; --keys xtest is refused where the display lacks it."""
    wrapper = tmp_path / "bin" / "Xvfb"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which("Xvfb")} "$@" -extension XTEST\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    with XServer.start() as server:
        display = ["--display", server.display, "--no-record"]
        assert required.display_needs(False, server.display, "window") == []
        assert main(["walkthrough", "--keys", "xtest", *display]) == 4
    err = capsys.readouterr().err
    assert f"--keys xtest needs the XTEST extension, which the X display {server.display}" in err
    assert "--keys window (the default) needs none" in err


def test_keys_through_pyautogui_need_it_installed(monkeypatch):
    assert required.keys_needs("window") == []
    (found,) = required.keys_needs("pyautogui")
    assert found.ok, "the checkout's venv has the extra"
    monkeypatch.setattr(machine_checks, "importable", lambda module: module != "pyautogui")
    (found,) = required.keys_needs("pyautogui")
    assert not found.ok and "(pip install pyautogui, then" in found.said
