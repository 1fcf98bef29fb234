"""End-to-end under i3, a tiling window manager: a Fuse the bot starts floats at the
scale asked, a resize in the middle of a run is followed, in the bot's fuse-gtk and in a
person's, and a person's Fuse is taken over mid-level: fuse-gtk tiled over the whole
screen (drawn at 3x there) or floated, fuse-sdl (which floats itself). A person's 3x
fuse-sdl that i3 floats partly beyond the screen is named, with the fix."""

from __future__ import annotations

import json
import re
import time

import pytest

from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.fuse_sizes import fuse_sizes
from logo_bot.bot.x11.grab import open_grabber
from logo_bot.bot.x11.tiling import float_window, ipc_socket
from logo_bot.bot.x11.window import fuse_window_of
from tests.bot.bot_process import bot_process
from tests.bot.desktop import desktop
from tests.bot.play.test_attach_fuse import (
    PROFILE,
    Person,
    assert_played,
    assert_wrong_stone_taken_back,
    run_attached,
)
from tests.bot.play.test_desktop_fuse import (
    FAST,
    assert_no_misread,
    events_file,
    finished_run,
    wait_for_event,
    walkthrough,
)
from tests.bot.play.test_gtk_looks_fuse import assert_fewest_keys
from tests.gtk_look import GTK_BARS

pytestmark = pytest.mark.fuse


def i3_socket(display: str) -> str:
    dpy = open_display(display)
    try:
        path = ipc_socket(dpy, display, env={})
    finally:
        dpy.close()
    assert path, "i3 names its socket on the root window"
    return path


@pytest.mark.parametrize(("build", "scale"), [("gtk", 2), ("gtk", 3), ("sdl", 3)])
def test_a_fuse_the_bot_starts_under_i3_floats_at_the_scale_asked(build, scale, tmp_path):
    """Tiled, fuse-gtk would fill the screen and draw at 3x whatever the scale asked;
    fuse-sdl floats by itself, but where i3 put its 1x window (a 3x one would reach
    beyond a 1280x1024 screen)."""
    with desktop("i3") as xserver:
        args = [*walkthrough(xserver.display, tmp_path, "--fuse", build, "--no-video"), *FAST]
        with bot_process([*args, "--scale", str(scale)]) as bot:
            folder, _ = finished_run(bot, tmp_path)
    log = (folder / "run.log").read_text()
    width, height = 320 * scale, 240 * scale + (GTK_BARS if build == "gtk" else 0)
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


def float_persons(display: str, person: Person, scale: int) -> None:
    """Float the person's Fuse at ``scale`` in the middle of the screen, as they would
    with i3's own keys, and let them read it there."""
    dpy = open_display(display)
    try:
        window = dpy.create_resource_object("window", person.fuse.window_id)
        size = fuse_sizes(window).at(scale)
        assert float_window(i3_socket(display), dpy, window.id, size, timeout_s=15), size
    finally:
        dpy.close()
    person.grabber.close()
    person.grabber = open_grabber(display, person.fuse.window_id)
    person.scale, person.vision = scale, Vision(PROFILE, scale)


@pytest.mark.parametrize(
    ("build", "scale", "floated"), [("gtk", 3, False), ("gtk", 2, True), ("sdl", 2, False)]
)
def test_a_persons_fuse_under_i3_is_taken_over_mid_level(build, scale, floated, tmp_path):
    """i3 tiles the person's fuse-gtk over the whole screen, where it draws at 3x, or
    the person floated it at 2x; their fuse-sdl floats by itself. The bot reads it as it
    is, takes back a wrong stone and plays on."""
    with desktop("i3") as server:
        person = Person(server.display, scale=scale, build=build)
        try:
            if floated:
                float_persons(server.display, person, scale)
            person.to_level_1()
            person.place((4, 5), (1, 1), then=(6, 10))  # a stone of a plan, and a wrong one
            code, err, run = run_attached(server, tmp_path, "--levels", "1-2", "--no-video", *FAST)
            assert person.fuse.alive()
        finally:
            person.close()
    assert_played(code, err, run, 2)
    assert_wrong_stone_taken_back(run, corrections=False)
    assert run["session"]["scale"] == scale, "read at the scale the window shows"
    assert_fewest_keys(run, first=2, lessons=1)


@pytest.mark.parametrize(("start", "end"), [(2, 3), (3, 2)])
def test_a_persons_fuse_gtk_resized_mid_level_is_followed(start, end, tmp_path):
    """The person floats their fuse-gtk at another size while the bot plays level 2;
    level 3 is played at that size (level 2 may end before i3 has done resizing)."""
    with desktop("i3") as server:
        person = Person(server.display, scale=start, build="gtk")
        try:
            float_persons(server.display, person, start)
            person.to_level_1()
            args = ["walkthrough", "--attach", "--display", server.display]
            argv = [*args, "--video-dir", str(tmp_path), "--levels", "1-3", "--no-video", *FAST]
            with bot_process(argv, watchdog_s=180) as bot:
                events = events_file(tmp_path, bot)
                shown = lambda e: e["event"] == "level_shown" and e.get("level") == 2  # noqa: E731
                wait_for_event(events, shown, bot)
                dpy = open_display(server.display)
                try:
                    window = dpy.create_resource_object("window", person.fuse.window_id)
                    size = fuse_sizes(window).at(end)
                    assert float_window(i3_socket(server.display), dpy, window.id, size, 15)
                finally:
                    dpy.close()
                folder, _ = finished_run(bot, tmp_path, last=3)
            assert person.fuse.alive()
        finally:
            person.close()
    log = (folder / "run.log").read_text()
    drawn = re.findall(r"Fuse now draws its picture at (\d)x", log)
    assert drawn and drawn[-1] == str(end), log
    run = json.loads((folder / "run.json").read_text())
    assert_no_misread(folder)
    assert_fewest_keys(run, first=2, lessons=1)


def test_a_persons_fuse_sdl_beyond_the_screen_is_named_with_the_fix(tmp_path):
    """i3 floats fuse-sdl where its 1x window was centred, and Fuse then grows to 3x from
    that corner: on a 1280x1024 screen its picture reaches beyond the edge, where the X
    server keeps no pixels. The bot says so and how to fix it, with no traceback."""
    with desktop("i3") as server:
        snapshot = PROFILE.resolve(PROFILE.game["snapshot"])
        fuse = Fuse.start(FuseConfig(snapshot=snapshot, speed=200, scale=3), server.display)
        try:
            dpy = open_display(server.display)
            try:  # SDL grows the window to 3x just after mapping it
                window = dpy.create_resource_object("window", fuse.window_id)
                deadline = time.monotonic() + 10
                while window.get_geometry().width != 960:
                    assert time.monotonic() < deadline, "fuse-sdl never grew to 3x"
                    time.sleep(0.02)
            finally:
                dpy.close()
            args = ["walkthrough", "--attach", "--display", server.display, "--no-record"]
            with bot_process([*args, "--levels", "1"], watchdog_s=60) as bot:
                _, err = bot.communicate(timeout=50)
            assert fuse.alive()
        finally:
            fuse.stop()
    assert bot.returncode == 7, err
    assert "reaches beyond the screen (1280x1024)" in err and "Traceback" not in err, err
    assert "move the Fuse window so that all of it shows on the screen" in err, err
