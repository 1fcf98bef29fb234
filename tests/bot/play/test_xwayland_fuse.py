"""End-to-end on a Wayland desktop (weston with XWayland on a private Xvfb): the bot
plays Fuse there as an X client, launched or attached; it pauses while another window
has the focus, which only the person (here: a click through weston) gives back; and a
Fuse that is a native Wayland window is refused with the way to start it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import mss
import numpy as np
import pytest
from Xlib.error import XError

from faults.folder_check import check_folder
from faults.thief import FocusThief
from faults.wayland import WaylandDesktop
from logo_bot.bot import processes
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import fuse_window_of
from tests.bot.bot_process import bot_process
from tests.bot.play.test_attach_fuse import LEVELS, Person, assert_wrong_stone_taken_back

pytestmark = pytest.mark.fuse


def session_env(wayland: WaylandDesktop) -> dict[str, str]:
    """The bot's environment in the Wayland session (a person's terminal there)."""
    return {**os.environ, **wayland.env()}


def walkthrough(wayland: WaylandDesktop, root: Path, *args: str) -> tuple[int, str, dict]:
    argv = ["walkthrough", "--display", wayland.display, "--video-dir", str(root), *args]
    with bot_process(argv, watchdog_s=180, env=session_env(wayland)) as process:
        _, err = process.communicate(timeout=170)
    (folder,) = [p for p in root.iterdir() if p.is_dir()]
    run = json.loads((folder / "run.json").read_text())
    return process.returncode, err, run | {"_folder": str(folder)}


def assert_levels_done(run: dict, count: int) -> None:
    assert [lv["status"] for lv in run["levels"]] == ["done"] * count
    for entry in run["levels"]:
        assert entry["end_board"] == str(LEVELS[entry["level"]]).splitlines()
    assert run["session"]["display_type"] == "xwayland"
    picture = run["session"]["picture"]  # XWayland reports Fuse's drawing too
    assert picture["seen_by"] == "damage" and picture["why"] is None, picture


@pytest.mark.parametrize("build", ["sdl", "gtk"])
def test_launched_on_xwayland_it_plays_the_levels(wayland, tmp_path, build):
    extra = ["--fuse", build] if build == "gtk" else []
    args = ["--levels", "1-2", "--speed", "200", "--no-video", "--verbose", *extra]
    code, err, run = walkthrough(wayland, tmp_path, *args)
    assert code == 0, err
    assert f"playing on X display {wayland.display} (XWayland " in err
    assert_levels_done(run, 2)
    assert run["session"]["fuse_build"] == build


@pytest.mark.long
def test_attached_to_fuse_gtk_at_2x_on_xwayland_it_finishes_and_leaves_it_running(
    wayland, tmp_path
):
    person = Person(wayland.display, scale=2, build="gtk")
    try:
        person.to_level_1()
        person.place((4, 5), (1, 1), then=(6, 10))  # one stone of a plan, one wrong stone
        code, err, run = walkthrough(wayland, tmp_path, "--attach", "--levels", "1-3")
        assert code == 0, err
        assert_levels_done(run, 3)
        assert_wrong_stone_taken_back(run)
        assert run["session"]["scale"] == 2 and run["fuse"]["attached"]
        assert run["video"]["captured"]["frames"] > 0, "the picture captured off XWayland"
        assert person.fuse.alive(), "the person's Fuse is still running"
    finally:
        person.close()


def level_1_played(root: Path) -> bool:
    return any(
        e["event"] == "keys" and e.get("level") == 1
        for path in root.glob("*/events.jsonl")
        for e in read_events(path)
    )


def fuse_window(wayland: WaylandDesktop) -> int:
    dpy = open_display(wayland.display)
    try:
        window = fuse_window_of(dpy)
        assert window is not None, "no Fuse window on XWayland"
        return window.id
    finally:
        dpy.close()


def click_fuse(wayland: WaylandDesktop, process: subprocess.Popen) -> bool | None:
    """Click the Fuse window: True once it has the focus, False if it never gets it;
    None when the run finished first (the focus came back to Fuse without the click and
    the bot played on, then stopped Fuse), judged by the bot's exit status."""
    try:
        return wayland.click(fuse_window(wayland))
    except (XError, AssertionError):  # the window gone, or no longer found
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the Fuse window went away while the bot still ran") from None
        return None if process.returncode == 0 else False


def test_another_x_client_with_the_focus_pauses_the_bot_until_fuse_is_clicked(wayland, tmp_path):
    """A second X client's window appears mid-level (weston gives it the focus) and
    stays 3 s: the bot presses no key there, never takes the focus, and says to click
    Fuse; once the person has closed that window and clicked Fuse (weston gives the focus
    back) it finishes.

    weston 10 here sometimes ignores that click (faults.wayland; closing the other window
    first made it work in 2 of 3 runs, against rarely with the window still open): then
    the run must end at --focus-timeout, exit 6, having waited without pressing a key."""
    root = tmp_path / "runs"
    # two levels: the bot is still playing when the other window comes, however slowly a
    # busy machine starts it
    argv = ["walkthrough", "--levels", "1-2", "--display", wayland.display, "--speed", "200"]
    argv += ["--video-dir", str(root), "--no-video", "--focus-timeout", "8"]
    with bot_process(argv, watchdog_s=180, env=session_env(wayland)) as process:
        deadline = time.monotonic() + 120
        while not level_1_played(root):
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "level 1 was never played"
            time.sleep(0.01)
        with FocusThief(wayland.display, tmp_path / "keys.jsonl") as thief:
            time.sleep(3)  # the person looks at another window for 3 s
        received = thief.events()  # then closes it
        clicked = click_fuse(wayland, process)  # and clicks Fuse
        _, err = process.communicate(timeout=150)
    # no press ever reaches the other window (a lone release, which types nothing, did
    # once in about twenty runs: the bot's key was down as the focus moved)
    assert [e for e in received if e["type"] == "press"] == [], received
    assert "click the Fuse window to go on" in err
    (folder,) = list(root.iterdir())
    assert "click the Fuse window to go on" in (folder / "run.log").read_text()
    check = check_folder(folder, status="failed" if clicked is False else "complete")
    assert check.ok, check.problems
    paused = [e for e in check.events if e["event"] == "focus_paused"]
    regained = [e for e in check.events if e["event"] == "focus_regained"]
    assert paused and all(e["how"] == "returned" for e in regained), "never taken back"
    if clicked is not False:  # clicked, or the focus came back as the other window closed
        assert process.returncode == 0, err
        assert_levels_done(check.run, 2)
        assert regained
    else:
        assert process.returncode == 6, err
        assert "did not have the keyboard focus for 8 s" in err


def host_paper_pixels(wayland: WaylandDesktop) -> int:
    """Pixels of OpenSE's white paper on weston's screen (what the person sees)."""
    with mss.MSS(display=wayland.host) as shot:
        raw = shot.grab(shot.monitors[1])
    rgb = np.frombuffer(raw.raw, np.uint8).reshape(raw.height, raw.width, 4)[:, :, 2::-1]
    return int((rgb == 192).all(axis=-1).sum())


def bare_fuse(program: str, env: dict[str, str], folder) -> subprocess.Popen[bytes]:
    """A Fuse started by hand as a person would (``env`` decides where it shows)."""
    return processes.start(
        [program, "--machine", "48", "--rom-48", str(OPENSE_ROM), "--no-sound"],
        signal.SIGKILL,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=folder,
    )


def test_a_native_wayland_fuse_is_refused_with_how_to_start_it(wayland, tmp_path):
    assert host_paper_pixels(wayland) < 256 * 192 // 2
    env = session_env(wayland) | {"GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}
    env |= {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ".config")}
    fuse = bare_fuse("fuse-gtk", env, tmp_path)
    try:
        deadline = time.monotonic() + 30
        while host_paper_pixels(wayland) < 256 * 192:  # its picture is on the desktop
            assert fuse.poll() is None, f"fuse-gtk exited ({fuse.returncode})"
            assert time.monotonic() < deadline, "fuse-gtk never showed its picture"
            time.sleep(0.05)
        argv = ["walkthrough", "--attach", "--display", wayland.display, "--no-record"]
        with bot_process(argv, watchdog_s=60, env=session_env(wayland)) as process:
            _, err = process.communicate(timeout=50)
        assert process.returncode == 4, err
        assert f"Fuse is running (pid {fuse.pid}) but has no window on X display" in err
        assert "native Wayland window" in err and "GDK_BACKEND=x11 fuse-gtk" in err
        assert fuse.poll() is None, "the person's Fuse is left alone"
        # doctor names it too, rather than "none open"
        doctor = [sys.executable, "-m", "logo_bot.bot.cli", "doctor"]
        ran = subprocess.run(
            doctor, capture_output=True, text=True, env=session_env(wayland), timeout=60
        )
        out, err = ran.stdout, ran.stderr
        said = f"none on {wayland.display}: fuse-gtk (pid {fuse.pid}) is a native Wayland window"
        assert f"  NO  Fuse window      {said}" in out, out + err
        assert "-> do: close it and start it as an X client: GDK_BACKEND=x11" in out, out
        assert "attached         no   Fuse window: none on" in out, out
    finally:
        fuse.kill()
        fuse.wait()


def test_a_fuse_on_another_x_display_is_not_taken_for_a_native_wayland_one(
    wayland, xserver, tmp_path
):
    """A headless run's fuse-sdl, an X client of its own Xvfb, started from the session
    (so with WAYLAND_DISPLAY in its environment): ``--attach`` with no
    Fuse of the person's open says there is none, not that one is a Wayland window."""
    env = session_env(wayland) | {"DISPLAY": xserver.display, "SDL_VIDEODRIVER": "x11"}
    env |= {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ".config")}
    fuse = bare_fuse("fuse-sdl", env, tmp_path)
    try:
        dpy = open_display(xserver.display)
        try:
            deadline = time.monotonic() + 20
            while fuse_window_of(dpy, fuse.pid) is None:
                assert fuse.poll() is None, f"fuse-sdl exited ({fuse.returncode})"
                assert time.monotonic() < deadline, "fuse-sdl never showed its window"
                time.sleep(0.02)
        finally:
            dpy.close()
        argv = ["walkthrough", "--attach", "--display", wayland.display, "--no-record"]
        with bot_process(argv, watchdog_s=60, env=session_env(wayland)) as process:
            _, err = process.communicate(timeout=50)
        assert process.returncode == 4, err
        assert "no Fuse windows on this display" in err and "native Wayland" not in err
        assert fuse.poll() is None
    finally:
        fuse.kill()
        fuse.wait()
