"""End-to-end under i3, a tiling window manager: a fuse-gtk the bot starts floats at the
scale asked, a resize in the middle of a run is followed, and a person's fuse-gtk tiled
over the whole screen (drawn at 3x there) is taken over mid-level."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.tiling import float_window, ipc_socket
from logo_bot.bot.x11.window import fuse_window_of
from tests.bot.bot_process import bot_process
from tests.bot.desktop import desktop
from tests.bot.play.test_attach_fuse import (
    LEVELS,
    Person,
    assert_wrong_stone_taken_back,
    run_attached,
)
from tests.bot.play.test_desktop_fuse import finished_run, wait_for_event, walkthrough
from tests.gtk_look import GTK_BARS

pytestmark = pytest.mark.fuse
FAST = ("--set", "timing.probe=false")  # the key timing is not what these tests are about


def i3_socket(display: str) -> str:
    dpy = open_display(display)
    try:
        path = ipc_socket(dpy, display, env={})
    finally:
        dpy.close()
    assert path, "i3 names its socket on the root window"
    return path


@pytest.mark.parametrize("scale", [2, 3])
def test_a_fuse_gtk_the_bot_starts_under_i3_floats_at_the_scale_asked(scale, tmp_path):
    """Tiled, fuse-gtk would fill the screen and draw at 3x whatever the scale asked."""
    with desktop("i3") as xserver:
        args = [*walkthrough(xserver.display, tmp_path, "--fuse", "gtk", "--no-video"), *FAST]
        with bot_process([*args, "--scale", str(scale)]) as bot:
            folder, _ = finished_run(bot, tmp_path)
    log = (folder / "run.log").read_text()
    width, height = 320 * scale, 240 * scale + GTK_BARS
    assert f"i3 tiles windows: the Fuse window floats at {width}x{height}" in log
    assert "now draws its picture" not in log, "read at the scale asked from the start"


@pytest.mark.parametrize(("start", "end"), [(2, 3), (3, 2)])
def test_a_fuse_window_resized_in_the_middle_of_a_run_is_followed(start, end, tmp_path):
    with desktop("i3") as xserver:
        args = [*walkthrough(xserver.display, tmp_path, "--fuse", "gtk", "--no-video"), *FAST]
        with bot_process([*args, "--scale", str(start)]) as bot:
            events = events_file(tmp_path, bot)
            wait_for_event(events, lambda e: e["event"] == "level_shown", bot)
            dpy = open_display(xserver.display)
            try:  # as a person would drag it: until the window has the size (hints allowing)
                window = fuse_window_of(dpy)
                size = (320 * end, 240 * end + GTK_BARS)
                assert float_window(i3_socket(xserver.display), dpy, window.id, size)
            finally:
                dpy.close()
            folder, _ = finished_run(bot, tmp_path)
    log = (folder / "run.log").read_text()
    # (a window shrunk by i3 may pass a size that shows another scale on the way)
    drawn = re.findall(r"Fuse now draws its picture at (\d)x", log)
    assert drawn and drawn[-1] == str(end), log
    assert "corrections none" in log and "corrections " not in log.replace("corrections none", "")


def events_file(root: Path, process, timeout_s: float = 60) -> Path:
    """The run's events.jsonl, once the bot has made its folder."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = list(root.glob("*/events.jsonl"))
        if found:
            return found[0]
        assert process.poll() is None, "the bot stopped early"
        time.sleep(0.01)
    raise AssertionError(f"no run folder in {root}")


def test_a_persons_fuse_gtk_tiled_over_the_screen_is_taken_over_mid_level(tmp_path):
    """i3 tiles the person's fuse-gtk over the whole screen, where it draws at 3x; the
    bot reads it there, takes back a wrong stone and plays on."""
    with desktop("i3") as server:
        person = Person(server.display, scale=3, build="gtk")
        try:
            person.to_level_1()
            person.place((4, 5), (1, 1), then=(6, 10))  # a stone of a plan, and a wrong one
            code, err, run = run_attached(server, tmp_path, "--levels", "1-2", "--no-video", *FAST)
            assert person.fuse.alive()
        finally:
            person.close()
    assert code == 0, err
    assert [lv["status"] for lv in run["levels"]] == ["done"] * 2
    for entry in run["levels"]:
        assert entry["end_board"] == str(LEVELS[entry["level"]]).splitlines()
    assert_wrong_stone_taken_back(run, corrections=False)
    assert run["session"]["scale"] == 3, "read at the scale the tiled window shows"
