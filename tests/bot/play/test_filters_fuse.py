"""End-to-end: a person's fuse-sdl drawing through one of its graphics filters.

TV 2x darkens every other row of the picture: the bot reads each block's own row and
plays levels 1-2 with no correction and the fewest keys (in its own Fuse too, when a
person picks TV 2x in Fuse's menu mid-level: tests/bot/play/test_fuse_menu_fuse.py).
HQ 2x blends every block with its neighbours: the bot says so at once, with the fix in
Fuse's menu, and presses nothing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.errors import Exit
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.x11.damage import watch_picture
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.picture import Box, find_picture
from logo_bot.bot.x11.pixels import window_image
from tests.bot.bot_process import bot_process
from tests.bot.play.test_attach_fuse import PROFILE
from tests.bot.play.test_desktop_fuse import FAST
from tests.bot.play.test_gtk_looks_fuse import assert_fewest_keys

pytestmark = pytest.mark.fuse


def filtered_fuse(display: str, name: str) -> Fuse:
    """A person's fuse-sdl on the practice game's title at 200 %, drawing through the
    graphics filter ``name`` (the last ``--graphics-filter`` given is Fuse's)."""
    snapshot = PROFILE.resolve(PROFILE.game["snapshot"])
    config = FuseConfig(snapshot=snapshot, speed=200, extra_args=("--graphics-filter", name))
    return Fuse.start(config, display)


def window_pixels(display: str, fuse: Fuse, size: tuple[int, int]) -> np.ndarray:
    """The whole window once Fuse has drawn a picture in it (the title), read as the
    bot reads a box of it."""
    dpy = open_display(display)
    watch = watch_picture(display, fuse.window_id)
    try:
        window = dpy.create_resource_object("window", fuse.window_id)
        deadline = time.monotonic() + 10
        while True:
            watch.wait(deadline)
            pixels = window_image(window, Box(0, 0, *size))
            if (pixels[48:-48, 64:-64] != pixels[0, 0]).any():
                return pixels
            assert time.monotonic() < deadline, "Fuse never drew its title"
    finally:
        watch.close()
        dpy.close()


def attached(display: str, root: Path, *extra: str) -> tuple[int, str, Path | None]:
    args = ["walkthrough", "--attach", "--display", display, "--video-dir", str(root)]
    with bot_process([*args, "--no-video", *FAST, *extra], watchdog_s=120) as process:
        _, err = process.communicate(timeout=110)
    folders = [p for p in root.iterdir() if p.is_dir()]
    return process.returncode, err, folders[0] if folders else None


def test_attached_to_a_tv_2x_fuse_it_plays_with_no_correction_and_the_fewest_keys(
    xserver, tmp_path
):
    fuse = filtered_fuse(xserver.display, "tv2x")
    try:
        pixels = window_pixels(xserver.display, fuse, (640, 480))
        assert find_picture(pixels) == Box(0, 0, 640, 480, filter="TV 2x"), "scanlines drawn"
        code, err, folder = attached(xserver.display, tmp_path, "--levels", "1-2")
        assert code == 0, err[-3000:]
        assert folder is not None and fuse.alive()
    finally:
        fuse.stop()
    run = json.loads((folder / "run.json").read_text())
    assert [e["status"] for e in run["levels"]] == ["done", "done"]
    assert all(not e["corrections"] for e in run["levels"]), run["levels"]
    assert run["session"]["scale"] == 2
    assert_fewest_keys(run, first=1, lessons=1)


def test_attached_to_a_hq_2x_fuse_it_says_the_filter_and_its_fix_and_presses_nothing(
    xserver, tmp_path
):
    fuse = filtered_fuse(xserver.display, "hq2x")
    try:
        window_pixels(xserver.display, fuse, (640, 480))
        code, err, folder = attached(xserver.display, tmp_path)
        assert fuse.alive()
    finally:
        fuse.stop()
    assert code == Exit.UNREADABLE, err[-3000:]
    assert "graphics filter that reshapes or blends its blocks" in err, err
    assert "F1" in err and "Options, Filter..." in err and "Normal" in err, err
    assert "--graphics-filter 2x" in err, err
    assert folder is not None
    kinds = [e["event"] for e in read_events(folder / "events.jsonl")]
    assert "keys" not in kinds and "level_shown" not in kinds, kinds
