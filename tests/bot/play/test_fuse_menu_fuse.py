"""End-to-end: a person opens fuse-sdl's own menu (F1) while the bot plays and changes
Fuse's scale there (Options, Filter...), in a Fuse the bot started and in the person's
own, and to TV 2x in the bot's. fuse-sdl draws its menu inside the picture and pauses
the emulation: the bot presses no key and reads nothing while it shows, says so once,
and when it closes reads the picture at its new scale and plays on with the fewest
keys."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.recording.events import read_events
from logo_bot.bot.see.fuse_menu import fuse_menu_shows
from logo_bot.bot.x11.damage import watch_picture
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import open_grabber
from logo_bot.bot.x11.key_delivery import XTestDelivery
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.window import fuse_window_of
from logo_bot.bot.x11.x11_keys import X11Keys
from tests.bot.bot_process import bot_process
from tests.bot.play.test_attach_fuse import Person
from tests.bot.play.test_desktop_fuse import (
    FAST,
    events_file,
    finished_run,
    wait_for_event,
    walkthrough,
)
from tests.bot.play.test_gtk_looks_fuse import assert_fewest_keys

pytestmark = pytest.mark.fuse

FILTERS = {1: "a", 2: "b", 3: "c"}  # the letter of Normal, Double size, Triple size
TV_2X = "j"  # the letter of TV 2x (every other row darker: the bot reads the others)
SAID = "Fuse's own menu is open over the game"


class MenuHand:
    """A person who opens Fuse's menu with F1 and picks a filter in it with XTest key
    presses, each after Fuse has drawn what the last one did."""

    def __init__(self, display: str, window_id: int) -> None:
        self.display, self.window_id = display, window_id
        self.keys = X11Keys(display, window_id, XTestDelivery, KeyTiming(120, 120))
        self.keys.focus()
        self.grabber = open_grabber(display, window_id)
        self.watch = watch_picture(display, window_id)

    def look(self) -> np.ndarray:
        return self.watch.look(self.grabber.grab)

    def press_drawn(self, key: str) -> None:
        """Press ``key`` and wait for Fuse to draw in its window."""
        self.look()
        self.keys.press(key)
        assert self.watch.wait(time.monotonic() + 10), f"Fuse drew nothing after {key}"

    def choose_filter(self, scale: int, letter: str | None = None) -> None:
        """F1, Options, Filter..., the filter of ``scale`` (or the one of ``letter``, whose
        picture is at ``scale``), Return; back once the window has that scale's size."""
        self.press_drawn("F1")
        assert fuse_menu_shows(self.look()), "F1 opened Fuse's menu"
        for key in ("o", "f", letter or FILTERS[scale]):
            self.press_drawn(key)
        self.keys.press("Return")
        dpy = open_display(self.display)
        try:
            window = dpy.create_resource_object("window", self.window_id)
            deadline = time.monotonic() + 10
            while window.get_geometry().width != 320 * scale:
                assert time.monotonic() < deadline, "the window never took the new scale"
                self.watch.wait(deadline)
        finally:
            dpy.close()

    def close(self) -> None:
        self.watch.close()
        self.grabber.close()
        self.keys.close()


def choose_filter(display: str, window_id: int, scale: int, letter: str | None = None) -> None:
    """A person changes the scale (or the filter of ``letter``) of the Fuse whose window
    is ``window_id`` in its menu."""
    hand = MenuHand(display, window_id)
    try:
        hand.choose_filter(scale, letter)
    finally:
        hand.close()


def assert_followed(folder: Path, end: int, first: int, lessons: int) -> None:
    """The run read the new scale, said once that it waited for the menu, and played
    every level from ``first`` with the fewest keys (and ``lessons`` more), no level
    failed and nothing mended; but for the keys Fuse's menu took as it opened, pressed again."""
    log = (folder / "run.log").read_text()
    drawn = re.findall(r"Fuse now draws its picture at (\d)x", log)
    assert drawn and drawn[-1] == str(end), log
    assert log.count(SAID) == 1, log
    events = read_events(folder / "events.jsonl")
    kinds = [e["event"] for e in events]
    assert kinds.count("fuse_menu_open") == 1 and kinds.count("fuse_menu_closed") == 1, kinds
    assert "failure" not in kinds, [e for e in events if e["event"] == "failure"]
    run = json.loads((folder / "run.json").read_text())
    assert len(run["segments"]) == 1, "Fuse was never started again"
    assert [e["status"] for e in run["levels"]] == ["done", "done"]
    assert all(not e["corrections"] for e in run["levels"]), run["levels"]
    # a key that went down as the person pressed F1: Fuse paused the game before its menu
    # showed (on a busy machine some tens of ms later), and the key pressed again then
    lost = kinds.count("lost_to_fuse_menu")
    assert lost <= 2, [e for e in events if e["event"] == "lost_to_fuse_menu"]
    assert_fewest_keys(run, first=first, lessons=lessons + lost)


@pytest.mark.parametrize(("start", "end", "letter"), [(1, 2, None), (2, 1, None), (1, 2, TV_2X)])
def test_fuses_menu_in_the_bots_fuse_changes_its_scale_mid_level(
    start, end, letter, xserver, tmp_path
):
    argv = [*walkthrough(xserver.display, tmp_path, "--no-video", "--scale", str(start)), *FAST]
    with bot_process(argv) as bot:
        events = events_file(tmp_path, bot)
        wait_for_event(events, lambda e: e["event"] == "level_shown", bot)
        dpy = open_display(xserver.display)
        try:
            window_id = fuse_window_of(dpy).id
        finally:
            dpy.close()
        choose_filter(xserver.display, window_id, end, letter)
        folder, err = finished_run(bot, tmp_path)
    assert SAID in err, err
    assert_followed(folder, end, first=1, lessons=0)


@pytest.mark.parametrize(("start", "end"), [(1, 2), (2, 1)])
def test_fuses_menu_in_a_persons_fuse_changes_its_scale_mid_level(start, end, xserver, tmp_path):
    person = Person(xserver.display, scale=start)
    try:
        person.to_level_1()
        args = ["walkthrough", "--attach", "--display", xserver.display, "--levels", "1-2"]
        argv = [*args, "--video-dir", str(tmp_path), "--no-video", *FAST]
        with bot_process(argv, watchdog_s=180) as bot:
            events = events_file(tmp_path, bot)
            wait_for_event(events, lambda e: e["event"] == "take_over", bot)
            choose_filter(xserver.display, person.fuse.window_id, end)
            folder, _ = finished_run(bot, tmp_path)
        assert person.fuse.alive()
    finally:
        person.close()
    assert_followed(folder, end, first=1, lessons=1)
