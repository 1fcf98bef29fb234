"""Keys sent to Fuse's window (``WindowDelivery``) reach the client that made it and no other:
not the window with the focus, not a client grabbing the keyboard. A plain window on a
private Xvfb stands for Fuse; its connection reads what it was sent."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from Xlib import X
from Xlib import display as xdisplay

from logo_bot.bot.errors import FocusLost
from logo_bot.bot.x11 import key_guard
from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.window_keys import WindowDelivery
from logo_bot.bot.x11.x11_keys import X11Keys

pytestmark = pytest.mark.xserver


@dataclass
class Desk:
    """Fuse's stand-in (``game``, made by ``owner``) and another client's window."""

    display: str
    owner: xdisplay.Display
    game: object
    other_client: xdisplay.Display
    other: object
    keys: X11Keys

    def received(self, dpy: xdisplay.Display) -> list[tuple[str, int, int]]:
        """The key events ``dpy`` has been sent: (press or release, keycode, state)."""
        dpy.sync()
        seen = []
        while dpy.pending_events():
            event = dpy.next_event()
            if event.type in (X.KeyPress, X.KeyRelease):
                kind = "press" if event.type == X.KeyPress else "release"
                seen.append((kind, event.detail, event.state))
        return seen

    def focus_elsewhere(self) -> None:
        """The other client takes the focus (as a person clicking another window)."""
        self.other.set_input_focus(X.RevertToParent, X.CurrentTime)  # type: ignore[attr-defined]
        self.other_client.sync()


@pytest.fixture
def desk() -> Iterator[Desk]:
    with XServer.start() as server:
        owner = open_display(server.display)
        game = owner.screen().root.create_window(0, 0, 200, 200, 0, X.CopyFromParent)
        game.map()
        other_client = open_display(server.display)
        other = other_client.screen().root.create_window(
            300, 0, 100, 100, 0, X.CopyFromParent, event_mask=X.KeyPressMask | X.KeyReleaseMask
        )
        other.map()
        other_client.sync()
        game.set_input_focus(X.RevertToParent, X.CurrentTime)
        owner.sync()
        policy = FocusPolicy(take_back=False, wait=False)
        keys = X11Keys(
            server.display, game.id, WindowDelivery, KeyTiming(2, 2, True), policy=policy
        )
        try:
            yield Desk(server.display, owner, game, other_client, other, keys)
        finally:
            keys.close()
            other_client.close()
            owner.close()


def test_each_key_goes_to_the_window_in_order(desk):
    desk.keys.burst(["p", "o"])
    p, o = desk.keys.keycode("p"), desk.keys.keycode("o")
    assert desk.received(desk.owner) == [
        ("press", p, 0),
        ("release", p, 0),
        ("press", o, 0),
        ("release", o, 0),
    ]
    assert desk.received(desk.other_client) == []


def test_a_key_under_a_held_modifier_carries_its_state(desk):
    desk.keys.chord("symbol", ["p"])
    ctrl, p = desk.keys.keycode("symbol"), desk.keys.keycode("p")
    assert desk.received(desk.owner) == [
        ("press", ctrl, 0),  # a modifier's own press: not yet down
        ("press", p, X.ControlMask),
        ("release", p, X.ControlMask),
        ("release", ctrl, X.ControlMask),
    ]


def test_no_press_while_another_window_has_the_focus(desk):
    desk.focus_elsewhere()
    with pytest.raises(FocusLost):
        desk.keys.burst(["p"])
    assert desk.received(desk.owner) == []
    assert desk.received(desk.other_client) == []


def test_a_key_held_when_the_focus_goes_is_released_in_the_game_only(desk):
    p = desk.keys.keycode("p")

    def seen(_: int) -> bool:
        desk.focus_elsewhere()  # another window takes the focus while p is down
        return False

    taps = desk.keys.taps_until(["p"], seen, longest_ms=2000)
    assert taps.seen == 0
    assert desk.received(desk.owner) == [("press", p, 0), ("release", p, 0)]
    assert desk.received(desk.other_client) == []
    assert desk.keys.held() == frozenset()


def test_a_client_grabbing_the_keyboard_gets_no_key(desk):
    p = desk.keys.keycode("p")
    desk.keys.hold_check_s = 0.0

    def seen(_: int) -> bool:
        status = desk.other.grab_keyboard(  # type: ignore[attr-defined]
            False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime
        )
        desk.other_client.sync()
        assert status == X.GrabSuccess
        return False

    desk.keys.taps_until(["p"], seen, longest_ms=2000)
    with pytest.raises(FocusLost):  # held: no press is sent
        desk.keys.burst(["o"])
    assert desk.received(desk.owner) == [("press", p, 0), ("release", p, 0)]
    assert desk.received(desk.other_client) == []


def test_the_abort_thread_releases_held_keys_from_its_own_connection(desk):
    p = desk.keys.keycode("p")
    desk.keys._key_down("p")
    thread_dpy = open_display(desk.display)
    try:
        worker = threading.Thread(target=desk.keys.release_on, args=(thread_dpy, [p]))
        worker.start()
        worker.join(timeout=10)
    finally:
        thread_dpy.close()
    assert desk.received(desk.owner) == [("press", p, 0), ("release", p, 0)]
    desk.keys._down.clear()  # released above; the driver's own close sends nothing more


def test_a_key_to_a_window_that_has_gone_is_dropped_quietly(desk, capfd):
    """Fuse just ended (killed, crashed): the release of a held key names a window that no
    longer exists. The X error is the bot's to ignore (python-xlib would print it); the
    bot finds Fuse gone by its window and process."""
    p = desk.keys.keycode("p")
    desk.game.destroy()  # type: ignore[attr-defined]
    desk.owner.sync()
    desk.keys._deliver("p", p, False)
    desk.keys._dpy.sync()
    assert "BadWindow" not in capfd.readouterr().err


def test_the_focus_is_asked_again_only_after_an_event_which_then_stops_the_press(desk, monkeypatch):
    """The check before a press stands while no event comes in (no round trip per key);
    another window taking the focus sends Fuse's window an event, and the next press is
    checked afresh and refused."""
    asked: list[int | None] = []

    def counted(dpy):
        asked.append(real(dpy))
        return asked[-1]

    real = key_guard.focus_id
    monkeypatch.setattr(key_guard, "focus_id", counted)
    desk.keys.burst(["p", "o", "p", "o"])
    assert len(asked) == 1, "the focus was asked for before every press"
    assert len(desk.received(desk.owner)) == 8
    desk.focus_elsewhere()
    with pytest.raises(FocusLost):
        desk.keys.burst(["p"])
    assert len(asked) >= 2
    assert desk.received(desk.owner) == []
    assert desk.received(desk.other_client) == []


def test_a_pause_wakes_when_the_focus_comes_back_not_by_polling(desk):
    """While another window has the focus the paused bot sleeps until Fuse's window hears
    of a change: the focus is asked for a few times, not every ``poll_s``."""
    desk.keys.policy = FocusPolicy(take_back=False, wait=True, poll_s=0.001, watch_s=60.0)
    desk.keys.cut_after_s = 60.0  # the burst goes on after the pause
    asked: list[int] = []
    focused = desk.keys.focused

    def counted() -> bool:
        asked.append(1)
        return focused()

    desk.keys.focused = counted  # type: ignore[method-assign]
    desk.focus_elsewhere()
    paused = threading.Event()
    desk.keys.policy.listeners.append(lambda event, data: event == "paused" and paused.set())

    def give_back() -> None:
        paused.wait(30)
        time.sleep(0.3)  # paused a while: a poll every ms would have asked ~300 times
        desk.game.set_input_focus(X.RevertToParent, X.CurrentTime)  # type: ignore[attr-defined]
        desk.owner.sync()

    person = threading.Thread(target=give_back)
    person.start()
    desk.keys.burst(["p"])
    person.join()
    p = desk.keys.keycode("p")
    assert desk.received(desk.owner) == [("press", p, 0), ("release", p, 0)]
    assert len(asked) <= 5, f"the focus was asked for {len(asked)} times while paused"
