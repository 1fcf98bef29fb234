"""Waiting for Fuse's own menu to close, on real screenshots: nothing is done for a
picture of the game; over a menu, keys are let go, the listeners told, and the first
picture without it returned; a menu left open past the bound is a clear error."""

from __future__ import annotations

import pytest

from logo_bot.bot.errors import Exit, FuseMenuOpen
from logo_bot.bot.fuse.menu_wait import wait_menu_closed
from tests.bot.see.test_fuse_menu import picture

GAME = picture("play_1x_a.png")
MENU = picture("fuse_menu_1x.png")


class Calls:
    def __init__(self, looks: list) -> None:
        self.looks = looks
        self.said: list[tuple[str, dict]] = []
        self.released = 0
        self.waits = 0

    def look(self):
        return self.looks.pop(0)

    def wait_drawn(self, until: float) -> bool:
        self.waits += 1
        return True

    def release(self) -> None:
        self.released += 1

    def emit(self, event: str, **data) -> None:
        self.said.append((event, data))


def run(first, calls: Calls, wait_s: float = 600.0):
    return wait_menu_closed(first, calls.look, calls.wait_drawn, calls.release, calls.emit, wait_s)


def test_a_picture_of_the_game_is_returned_at_once():
    calls = Calls([])
    frame, waited = run(GAME, calls)
    assert frame is GAME and waited == 0.0
    assert (calls.released, calls.said, calls.waits) == (0, [], 0)


def test_over_fuses_menu_keys_are_let_go_and_the_picture_after_it_returned(caplog):
    calls = Calls([MENU, MENU, GAME])
    frame, waited = run(MENU, calls)
    assert frame is GAME and waited >= 0.0
    assert calls.released == 1 and calls.waits == 3 and calls.looks == []
    assert [event for event, _ in calls.said] == ["fuse_menu", "regained"]
    assert calls.said[1][1]["reason"] == "fuse_menu"
    said = [r.getMessage() for r in caplog.records if "no key is pressed" in r.getMessage()]
    assert len(said) == 1, said


def test_a_menu_left_open_past_the_bound_is_a_clear_error():
    calls = Calls([MENU] * 5)
    with pytest.raises(FuseMenuOpen) as raised:
        run(MENU, calls, wait_s=0.0)
    assert raised.value.exit_code == Exit.FOCUS
    assert "Escape" in str(raised.value) and calls.released == 1
