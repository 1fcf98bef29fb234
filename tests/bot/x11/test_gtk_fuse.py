"""End-to-end with fuse-gtk, the build with a menu bar and a status bar, under a window
manager: ``show`` finds its window and picture at 1x, 2x and 3x, a focus thief gets no
key (the sentinel tests of test_focus_fuse.py, run on fuse-gtk), and it stops with a
finished movie and input recording."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from Xlib import X
from Xlib.protocol import event

from faults.thief import FocusThief
from logo_bot.bot.cli import main
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.recording.movie import read_frames
from logo_bot.bot.recording.rzx import frame_count
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import open_grabber
from logo_bot.bot.x11.key_delivery import XTestDelivery
from logo_bot.bot.x11.key_guard import focus_id
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.window import is_within, window_title
from logo_bot.bot.x11.x11_keys import X11Keys
from logo_bot.solvers.levels import load_level_list
from tests.bot.desktop import desktop, window_manager
from tests.bot.x11.test_focus_fuse import (
    NAME,
    at_name_prompt,
    check_a_release_after_a_theft_reaches_no_other_window,
    check_the_bot_pauses_until_the_focus_returns,
    events_of,
    is_subsequence,
    name_typed,
    slow_repeat_xvfb,
    type_surely,
)
from tests.gtk_look import GTK_BARS

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")
LEVELS = {lv.number: lv.board for lv in load_level_list(PROFILE.resolve(PROFILE.game["levels"]))}


@pytest.fixture(scope="module")
def openbox():
    with desktop("openbox") as xserver:
        yield xserver


def gtk_options(xserver, **changes) -> SessionOptions:
    return SessionOptions(
        display=xserver.display, headless=False, speed=200, fuse_build="gtk", **changes
    )


def show_json(capsys, *argv: str) -> tuple[int, dict | str]:
    code = main(["show", "--json", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code in (0, 1) and out.strip() else err)


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_show_and_calibrate_read_a_level_from_a_fuse_gtk_window(openbox, capsys, tmp_path, scale):
    with open_session(PROFILE, gtk_options(openbox, scale=scale)) as session:
        walk = Walkthrough(session, LogoEnv(session), PROFILE, 1, 1)
        walk.enter(1)
        walk.player.wait_level()
        size = session.grabber.region
        assert (size.width, size.height) == (320 * scale, 240 * scale + GTK_BARS), size
        code, info = show_json(capsys, "--display", openbox.display)
        out = tmp_path / "check.png"
        calibrated = main(["calibrate", "--display", openbox.display, "--out", str(out)])
        printed = capsys.readouterr().out
    assert calibrated == 0 and "profile OK" in printed and out.is_file(), printed
    # the grab is the picture below GTK's menu bar, so calibrate takes it whole, as show
    assert f"the picture is the game window at {scale}x" in printed, printed
    assert code == 0, info
    assert info["scale"] == scale and info["level_shown"]
    assert info["target"] == str(LEVELS[1]).splitlines()
    assert info["cursor"] == [1, 1]


def placed(display: str, window_id: int) -> str:
    """``640x532 at (320, 246)``: a window's size and position, as the listing gives them
    (read here from the X server's geometry of the window)."""
    dpy = open_display(display)
    try:
        window = dpy.create_resource_object("window", window_id)
        geometry = window.get_geometry()
        pos = window.translate_coords(dpy.screen().root, 0, 0)
        return f"{geometry.width}x{geometry.height} at ({-pos.x}, {-pos.y})"
    finally:
        dpy.close()


def titled(display: str, window_id: int) -> str:
    dpy = open_display(display)
    try:
        return window_title(dpy.create_resource_object("window", window_id))
    finally:
        dpy.close()


def test_two_fuse_windows_are_listed_and_one_is_chosen_with_window(openbox, capsys):
    with open_session(PROFILE, gtk_options(openbox, scale=2)) as session:
        walk = Walkthrough(session, LogoEnv(session), PROFILE, 1, 1)
        walk.enter(1)
        walk.player.wait_level()
        with Fuse.start(FuseConfig(), openbox.display) as other:
            code, err = show_json(capsys, "--display", openbox.display)
            assert code != 0 and "2 Fuse windows" in err, err
            gtk, sdl = session.fuse.window_id, other.window_id
            places = {w: placed(openbox.display, w) for w in (gtk, sdl)}
            for window_id, place in places.items():
                assert f"{window_id:#x}" in err and place in err, (place, err)
            assert places[gtk].startswith(f"640x{480 + GTK_BARS} at ("), places
            assert "(fuse-gtk)" in err and "(fuse-sdl)" in err
            window = f"{gtk:#x}"
            code, info = show_json(capsys, "--display", openbox.display, "--window", window)
            assert code == 0 and info["target"] == str(LEVELS[1]).splitlines(), info
            # a title: part of one that both windows share lists them; the exact one picks
            title = titled(openbox.display, gtk)
            part = title[:3].lower()  # "fus": both are "Fuse..."
            assert part in titled(openbox.display, sdl).lower(), title
            code, err = show_json(capsys, "--display", openbox.display, "--window", part)
            assert code != 0 and f"2 Fuse windows matching --window {part!r}" in err, err
            for window_id, place in places.items():
                assert f"{window_id:#x}" in err and place in err, (place, err)
            code, info = show_json(capsys, "--display", openbox.display, "--window", title)
            assert code == 0 and info["target"] == str(LEVELS[1]).splitlines(), (title, info)
            assert info["scale"] == 2, info  # the fuse-gtk window, not the 1x fuse-sdl one
            code, err = show_json(capsys, "--display", openbox.display, "--window", "no such")
            assert code != 0 and "no Fuse windows matching --window 'no such'" in err


def test_a_focus_thief_gets_no_key_from_the_bot_playing_fuse_gtk(openbox, tmp_path):
    """The GTK variant of the sentinel test: fuse-gtk's focus sits on a 1x1 child of its
    window, which the guard accepts; three thefts in a burst are noticed and undone, and
    the sentinel (placed off Fuse) receives nothing."""
    options = gtk_options(openbox, focus_grace_s=0)
    with (
        open_session(PROFILE, options) as session,
        FocusThief(openbox.display, tmp_path / "keys.jsonl", at=(0, 0)) as thief,
    ):
        events = events_of(session.focus_policy)
        env = at_name_prompt(session)
        # keys slow enough (0.3 s each) that thefts 0.9 s apart land in different presses
        # even on a busy machine, each noticed on its own
        threads = [thief.steal_later(delay) for delay in (0.3, 1.2, 2.1)]
        began = time.monotonic()
        with session.timed(KeyTiming(150, 150, rollover=False)):
            session.keys.type_text(NAME)
        typed_s = time.monotonic() - began
        for thread in threads:
            thread.join()
        typed = name_typed(env)
        assert thief.keys_received() == 0, thief.events()
    assert [e for e, _ in events if e == "covered"] == [], "the sentinel was put over Fuse"
    # the window manager also gives the newly mapped sentinel the focus: one more theft
    lost = [e for e, _ in events if e == "lost"]
    thefts = [(round(t - began, 2), f"{w:#x}", took) for t, w, took in thief.thefts]
    told = f"typed in {typed_s:.2f} s; thefts (s, from, took): {thefts}; events: {events}"
    assert all(took for _, _, took in thief.thefts), told
    assert len(lost) >= 3, told
    assert [d["how"] for e, d in events if e == "regained"] == ["taken_back"] * len(lost)
    assert is_subsequence(typed, NAME) and len(typed) >= len(NAME) - 3, typed


def wm_focused_inner_window(display: str, window_id: int, timeout_s: float = 30) -> int:
    """Wait until the window manager has given fuse-gtk the focus, which GTK puts on a 1x1
    child of its window (not the window itself); that child's id."""
    dpy = open_display(display)
    try:
        deadline = time.monotonic() + timeout_s
        while (focus := focus_id(dpy)) in (None, window_id) or not is_within(dpy, focus, window_id):
            assert time.monotonic() < deadline, f"the window manager never focused Fuse ({focus})"
            time.sleep(0.02)
        return focus
    finally:
        dpy.close()


def activate(display: str, window_id: int) -> None:
    """Ask the window manager to activate ``window_id``, as a click on it or a taskbar
    does (_NET_ACTIVE_WINDOW from a pager)."""
    dpy = open_display(display)
    try:
        root = dpy.screen().root
        message = event.ClientMessage(
            window=dpy.create_resource_object("window", window_id),
            client_type=dpy.intern_atom("_NET_ACTIVE_WINDOW"),
            data=(32, [2, X.CurrentTime, 0, 0, 0]),
        )
        root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        dpy.sync()
    finally:
        dpy.close()


@pytest.mark.timeout(60)  # the bot waits for as long as the focus is not Fuse's
def test_without_taking_focus_the_bot_pauses_until_fuse_gtk_has_the_focus_again(openbox, tmp_path):
    """The GTK variant of the pause test: the focus comes back through the window manager
    (as when the person clicks Fuse), so it lands on fuse-gtk's 1x1 focus child, which
    the guard must take for Fuse's. The sentinel is mapped first, so that openbox gives
    the focus to the Fuse window mapped after it, not to the sentinel."""
    options = gtk_options(openbox, take_focus=False)
    with (
        FocusThief(openbox.display, tmp_path / "keys.jsonl", at=(0, 0)) as thief,
        open_session(PROFILE, options) as session,
    ):
        window = session.fuse.window_id
        check_the_bot_pauses_until_the_focus_returns(
            session, thief, give_back=lambda: activate(openbox.display, window)
        )
        assert wm_focused_inner_window(openbox.display, window, timeout_s=0) != window


def test_a_release_after_a_theft_reaches_no_other_window_from_fuse_gtk(tmp_path):
    """The GTK variant of the held-key test: openbox focuses the newly mapped fuse-gtk
    (its 1x1 focus child), the key is pressed without the bot touching the focus, the
    release after a theft is swallowed, fuse-gtk does not repeat it, and the sentinel
    (mapped first, off Fuse) gets nothing. On an X server with ``SLOW_REPEAT``."""
    with (
        slow_repeat_xvfb() as display,
        window_manager(display, "openbox"),
        FocusThief(display, tmp_path / "keys.jsonl", at=(0, 0)) as thief,
        Fuse.start(FuseConfig(build="gtk"), display) as fuse,
    ):
        check_a_release_after_a_theft_reaches_no_other_window(
            fuse, thief, focus=lambda: wm_focused_inner_window(fuse.display, fuse.window_id)
        )


def test_fuse_gtk_stops_on_wm_delete_window_with_a_finished_movie_and_rzx(openbox, tmp_path):
    """fuse-gtk ignores SIGTERM; the close message stops it by itself (exit 0, not killed)
    and both files are finished: the movie has every frame the RZX recorded."""
    snapshot = PROFILE.resolve(PROFILE.game["snapshot"])
    config = FuseConfig(
        snapshot=snapshot, build="gtk", record=tmp_path / "run.rzx", movie=tmp_path / "run.fmf"
    )
    with (
        Fuse.start(config, openbox.display) as fuse,
        open_grabber(fuse.display, fuse.window_id) as grab,
    ):
        deadline = time.monotonic() + 30
        while len(np.unique(grab.grab().reshape(-1, 3), axis=0)) < 3:  # the title is drawn
            assert time.monotonic() < deadline, "the game never showed"
            time.sleep(0.02)
    assert fuse.process.returncode == 0
    rzx = frame_count(tmp_path / "run.rzx")
    movie = sum(1 for _ in read_frames(tmp_path / "run.fmf"))
    assert rzx > 0 and abs(movie - rzx) <= 1, (movie, rzx)


def test_keys_go_to_fuse_gtk_when_the_window_manager_focused_its_inner_window(openbox):
    """openbox gives a new fuse-gtk window the focus on GTK's 1x1 focus child, not on the
    client: the guard must accept it (a policy that never takes the focus back raises
    FocusLost otherwise) and the key must reach the game (its menu shows)."""
    config = FuseConfig(snapshot=PROFILE.resolve(PROFILE.game["snapshot"]), build="gtk")
    screens = ScreenReader(PROFILE, 1)
    with (
        Fuse.start(config, openbox.display) as fuse,
        open_grabber(fuse.display, fuse.window_id) as grab,
    ):
        wm_focused_inner_window(fuse.display, fuse.window_id)
        deadline = time.monotonic() + 30
        keys = X11Keys(
            fuse.display, fuse.window_id, XTestDelivery, KeyTiming(25, 25), take_focus=False
        )
        try:
            while not screens.shows(grab.grab(), "title"):
                assert time.monotonic() < deadline, "the title never showed"
                time.sleep(0.02)
            assert keys.focused()
            keys.press("space")
            pressed = time.monotonic()
            while not screens.shows(grab.grab(), "menu"):
                assert time.monotonic() < deadline, "the key did not reach the game"
                # the title is drawn before the game empties its key queue (flush_keys in
                # game/src/menu.asm), so a busy Fuse may drop the first press; SPACE does
                # nothing on the menu, so pressing it again is no harm
                if time.monotonic() - pressed > 1.0:
                    keys.press("space")
                    pressed = time.monotonic()
                time.sleep(0.02)
        finally:
            keys.close()


def test_a_window_moved_during_a_level_is_followed(openbox):
    """The person drags fuse-gtk elsewhere in the middle of level 1: the grabber follows it
    and the level is finished."""
    with open_session(PROFILE, gtk_options(openbox, scale=1)) as session:
        env = LogoEnv(session)
        walk = Walkthrough(session, env, PROFILE, 1, 1)
        walk.enter(1)
        obs = walk.player.wait_level()
        before = session.grabber.region
        dpy = open_display(openbox.display)
        window = dpy.create_resource_object("window", session.fuse.window_id)
        window.configure(x=before.left // 3, y=before.top // 3)  # the WM moves its frame
        dpy.sync()
        deadline = time.monotonic() + 10
        while session.grabber.region == before:
            assert time.monotonic() < deadline, "the grabber never saw the move"
            session.frame()
            time.sleep(0.02)
        dpy.close()
        assert session.grabber.region.left < before.left
        assert env.observe().target == LEVELS[1]
        result = walk.player.play_level(obs)
        assert result.end_board == LEVELS[1]


@pytest.mark.timeout(60)  # the bot waits for as long as Fuse stays covered
def test_a_window_raised_over_fuse_gtk_is_noticed_and_fuse_raised_again(openbox, tmp_path):
    """A managed window opens over the picture (and openbox gives it the focus): no key
    goes anywhere while it covers Fuse; after the grace the bot asks the window manager to
    activate Fuse, which raises it, and typing goes on; the other window got no key."""
    options = gtk_options(openbox, focus_grace_s=0.2)
    with open_session(PROFILE, options) as session:
        env = at_name_prompt(session)
        picture = session.grabber.picture
        events = events_of(session.focus_policy)
        at = (picture.left + 50, picture.top + 50)
        with FocusThief(openbox.display, tmp_path / "keys.jsonl", at=at) as thief:
            deadline = time.monotonic() + 10
            while not session.cover.covered(fresh=True):
                assert time.monotonic() < deadline, "the window never covered Fuse"
                time.sleep(0.02)
            session.keys.type_text("XYZ")  # waits, raises Fuse, then drops the burst
            assert not session.cover.covered(fresh=True)
            type_surely(session, "XYZ")
            assert name_typed(env) == "XYZ"
            assert thief.keys_received() == 0, thief.events()
    assert events[0][0] == "covered"
    regained = [d for e, d in events if e == "regained"]
    # the window stays until the test closes it, so Fuse uncovered above is the bot's
    # raise; the label may still say "returned" when the window manager restacked only
    # after the pass that asked it to (the raise is asynchronous)
    assert regained[0]["reason"] == "covered" and regained[0]["how"] in ("taken_back", "returned")
    assert regained[0]["waited_s"] >= 0.2
