"""The boundary that turns a lost display's errors into ``DisplayLost``, without X: a
``sleep`` stands for the bot's own Xvfb, and a display number nothing listens on for
one that went away."""

from __future__ import annotations

import subprocess

import pytest
from Xlib.error import ConnectionClosedError

from logo_bot.bot.errors import DisplayLost, EmulatorError, Exit, Unreadable
from logo_bot.bot.x11.display import XServer, display_gone
from logo_bot.bot.x11.lost import LostDisplay, chain

NOBODY = ":59998"  # no X server listens there


@pytest.fixture
def own_server():
    """An "Xvfb" the bot started: a process that runs until it is stopped."""
    server = XServer(":59997", subprocess.Popen(["sleep", "60"]))
    yield server
    server.stop()


def raised_through(boundary: LostDisplay, error: BaseException) -> BaseException:
    with pytest.raises(BaseException) as caught, boundary:
        raise error
    return caught.value


def test_a_connection_closed_by_the_server_is_the_display_lost():
    lost = raised_through(LostDisplay(":7"), ConnectionClosedError("server"))
    assert isinstance(lost, DisplayLost) and lost.exit_code == Exit.DISPLAY
    assert str(lost).startswith("the X display :7 was lost: its X server ended")
    assert "\n" not in str(lost), "one line"


def test_an_error_raised_while_handling_a_closed_connection_is_the_display_lost():
    def fails_on_the_way_out() -> None:
        try:
            raise ConnectionClosedError("server")
        except ConnectionClosedError:
            raise EmulatorError("cannot read the Fuse window") from None

    with pytest.raises(DisplayLost), LostDisplay(":7"):
        fails_on_the_way_out()


def test_the_first_display_lost_is_kept_through_errors_on_the_way_out():
    first = DisplayLost(":7")
    with pytest.raises(DisplayLost) as caught, LostDisplay(":8"):
        try:
            raise first
        finally:
            raise RuntimeError("ungrabbing a key on a closed connection")
    assert caught.value is first


def test_a_stop_stays_a_stop_and_other_errors_stay_themselves(own_server):
    boundary = LostDisplay()
    boundary.watch(own_server)
    assert type(raised_through(boundary, KeyboardInterrupt())) is KeyboardInterrupt
    assert type(raised_through(boundary, Unreadable("no board"))) is Unreadable


def test_the_bots_own_server_that_ended_by_itself_is_the_display_lost(own_server):
    boundary = LostDisplay()
    boundary.watch(own_server)
    own_server.process.kill()
    own_server.process.wait()
    lost = raised_through(boundary, EmulatorError("Fuse has stopped"))
    assert isinstance(lost, DisplayLost) and lost.display == ":59997"
    own_server.stop()  # the session's end: it was gone before
    assert isinstance(raised_through(boundary, EmulatorError("x")), DisplayLost)


def test_the_bots_own_server_stopped_by_the_bot_is_not_lost(own_server):
    boundary = LostDisplay()
    boundary.watch(own_server)
    own_server.stop()
    assert type(raised_through(boundary, EmulatorError("Fuse has stopped"))) is EmulatorError


def test_a_display_that_no_longer_opens_is_lost_where_it_is_probed():
    assert display_gone(NOBODY)
    probed = raised_through(LostDisplay(NOBODY, probe=True), EmulatorError("Fuse has stopped"))
    assert isinstance(probed, DisplayLost)
    unprobed = raised_through(LostDisplay(NOBODY), EmulatorError("Fuse has stopped"))
    assert type(unprobed) is EmulatorError


def test_the_chain_holds_causes_and_contexts_once():
    inner = ValueError("inner")
    outer = RuntimeError("outer")
    outer.__context__ = inner
    inner.__context__ = outer  # a cycle
    assert list(chain(outer)) == [outer, inner]
