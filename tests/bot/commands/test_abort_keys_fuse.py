"""End-to-end: the abort key stops every command that presses keys (``show --launch``,
``calibrate --probe-keys``), and stopping an attached command leaves the person's Fuse
running and says so."""

from __future__ import annotations

import time

import pytest
from Xlib import XK, X
from Xlib.ext import xtest

from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import open_grabber
from logo_bot.bot.x11.window import fuse_windows
from tests.bot.bot_process import bot_process
from tests.bot.play.test_attach_fuse import Person

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")


def press_f12(display: str) -> None:
    dpy = open_display(display)
    try:
        f12 = dpy.keysym_to_keycode(XK.string_to_keysym("F12"))
        xtest.fake_input(dpy, X.KeyPress, f12)
        dpy.sync()
        xtest.fake_input(dpy, X.KeyRelease, f12)
        dpy.sync()
    finally:
        dpy.close()


def wait_level_shown(display: str, process) -> None:
    """Until the Fuse that ``process`` launched shows a level (it plays on from there)."""
    dpy = open_display(display)
    deadline = time.monotonic() + 60
    try:
        while not (windows := fuse_windows(dpy)):
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "show never started Fuse"
            time.sleep(0.01)
    finally:
        dpy.close()
    vision = Vision(PROFILE, 1)
    with open_grabber(display, windows[0].id) as grabber:
        while not vision.level_shown(grabber.grab()):
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "the launched game never showed level 1"
            time.sleep(0.01)


def test_the_abort_key_stops_show_launch(xserver):
    args = ["show", "--launch", "--level", "5", "--display", xserver.display]
    with bot_process([*args, "--abort-key", "F12"]) as process:
        wait_level_shown(xserver.display, process)  # levels 2-5 are still to be played
        press_f12(xserver.display)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip().endswith("stopped by the F12 key; every key released, Fuse stopped")


def test_the_abort_key_stops_a_probe_of_the_persons_fuse_and_leaves_it_running(xserver):
    person = Person(xserver.display)
    try:
        person.to_level_1()
        start = person.cursor()
        args = ["calibrate", "--probe-keys", "--display", xserver.display, "--abort-key", "F12"]
        with bot_process(args) as process:
            deadline = time.monotonic() + 60
            while person.cursor() == start:  # the probe moves the cursor: it is probing
                assert process.poll() is None, process.stderr.read()
                assert time.monotonic() < deadline, "the probe never moved the cursor"
                time.sleep(0.01)
            press_f12(xserver.display)
            _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        assert err.strip().splitlines()[-1] == (
            "logo-bot calibrate: stopped by the F12 key; every key released, your Fuse runs on"
        )
        assert person.fuse.alive()
    finally:
        person.close()
