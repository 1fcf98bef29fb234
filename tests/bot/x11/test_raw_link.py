"""The raw link's poll (``bot.x11.raw_link``) on a socket pair standing in for the X
server: one poll takes all that has come, however many reads it takes, and never waits."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest

from logo_bot.bot.x11 import raw_link
from logo_bot.bot.x11.raw_link import RawLink


def event(code: int) -> bytes:
    return bytes([code]) + bytes(31)  # an event: 32 bytes, its code first


@pytest.fixture
def ends():
    ours, server = socket.socketpair()
    ours.settimeout(2)  # a read that would wait fails the test instead of hanging it
    yield ours, server
    ours.close()
    server.close()


def link_on(sock: socket.socket) -> RawLink:
    protocol = SimpleNamespace(socket=sock, request_serial=1, data_recv=b"", event_queue=[])
    root = SimpleNamespace(id=1)
    dpy = SimpleNamespace(
        display=protocol, sync=lambda: None, screen=lambda: SimpleNamespace(root=root)
    )
    return RawLink(dpy)


@pytest.mark.parametrize("count", [1, 5, 9, 10])
def test_one_poll_takes_every_event_that_came_in_reads_of_any_size(ends, monkeypatch, count):
    """Reads of 3 events: 9 events fill three reads exactly, and the poll then asks
    whether more came rather than read (which would wait)."""
    monkeypatch.setattr(raw_link, "READ_SIZE", 96)
    ours, server = ends
    link = link_on(ours)
    server.sendall(b"".join(event(22 + i % 3) for i in range(count)))
    assert link.poll()
    assert link.take_events() == [22 + i % 3 for i in range(count)]
    assert not link.poll() and link.take_events() == []


def test_a_poll_told_the_socket_is_readable_reads_without_asking(ends, monkeypatch):
    ours, server = ends
    link = link_on(ours)
    server.sendall(event(22))
    asked = []
    monkeypatch.setattr(raw_link.select, "select", lambda *a: asked.append(a) or ([], [], []))
    assert link.poll(readable=True) and link.take_events() == [22]
    assert asked == []


def test_a_poll_of_a_socket_a_wait_just_found_quiet_asks_nothing(ends, monkeypatch):
    from logo_bot.bot.x11 import pending

    ours, server = ends
    link = link_on(ours)
    monkeypatch.setattr(pending, "QUIET_S", 3600.0)
    pending.heard([ours.fileno()], ())
    server.sendall(event(22))  # came after the wait looked: the next poll past QUIET_S
    asked = []
    with monkeypatch.context() as patched:
        patched.setattr(raw_link.select, "select", lambda *a: asked.append(a) or ([], [], []))
        assert not link.poll() and asked == []
    monkeypatch.setattr(pending, "QUIET_S", 0.0)
    assert link.poll() and link.take_events() == [22]
