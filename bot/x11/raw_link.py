"""An X connection taken over from python-xlib for a few requests sent as ready bytes.

python-xlib spends about 150 us of the bot's CPU on a round trip (it packs, queues,
locks and parses in Python), several times the X server's own work. A connection that
the bot uses for a handful of fixed requests (the picture watch: clear the damage, read
the window) is opened and set up with python-xlib, then ``RawLink`` writes its requests
to the socket itself and reads the 32-byte replies, errors and events back: a round trip
is then one write and one read. The X protocol numbers requests in order on a
connection (16 bits), so the link carries on python-xlib's count; after the takeover
python-xlib must not be used on that connection again, except to close it.
"""

from __future__ import annotations

import contextlib
import select
import struct
from collections.abc import Callable
from typing import Any

from Xlib.error import ConnectionClosedError

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.packed import GET_INPUT_FOCUS
from logo_bot.bot.x11.pending import quiet

_REPLY, _ERROR = 1, 0
_LENGTH = struct.Struct("=I")  # a reply's extra length in 4-byte words, at byte 4
_SEQUENCE = struct.Struct("=H")  # at byte 2 of every reply, error and event
READ_SIZE = 1 << 16  # bytes one read takes at most


class LinkError(Exception):
    """The X server answered a request of the link with an error."""

    def __init__(self, code: int, serial: int) -> None:
        super().__init__(f"X error {code} for request {serial}")
        self.code = code


class RawLink:
    """The connection of python-xlib display ``dpy``, from now on written and read here.

    ``send`` queues a request (returns its number), ``reply`` sends the queue and reads
    until that request's reply; events read on the way are kept, by code, in ``events``
    (``take_events`` empties it), and whole in ``packets`` where their code is
    ``keep_code`` (``take_packets``); ``poll`` reads what has arrived without waiting."""

    def __init__(self, dpy: Any) -> None:
        dpy.sync()  # python-xlib has sent everything and read every reply it waits for
        protocol = dpy.display
        self._dpy = dpy
        self.root: int = dpy.screen().root.id  # from the set-up: no request
        self._socket = protocol.socket  # a socket.socket, or a wrapper with its send/recv
        self._serial = protocol.request_serial  # the number of the next request
        self._in = bytes(protocol.data_recv or b"")
        self._out: list[bytes] = []
        self.events: list[int] = [e.type & 0x7F for e in protocol.event_queue]
        protocol.event_queue[:] = []
        self.errors = 0  # errors for requests nobody waited for
        self.keep_code: int | None = None  # events of this code are kept whole too
        self.packets: list[bytes] = []
        self._closed = False

    def fileno(self) -> int:
        return self._socket.fileno()

    def send(self, request: bytes) -> int:
        """Queue one request; its number (for ``reply``)."""
        serial = self._serial
        self._serial = (serial + 1) & 0xFFFF
        self._out.append(request)
        return serial

    def reply(self, serial: int) -> bytes:
        """Send what is queued and read until request ``serial`` is answered: its reply
        (32 bytes and its extra data); ``LinkError`` if it failed."""
        self._flush()
        while True:
            packet = self._packet()
            if packet is None:
                self._read()
                continue
            kind, number = packet[0], _SEQUENCE.unpack_from(packet, 2)[0]
            if number == serial and kind == _REPLY:
                return packet
            if number == serial and kind == _ERROR:
                raise LinkError(packet[1], serial)
            self._keep(packet)

    def sync(self) -> None:
        """Send what is queued and wait until the server has run it: one round trip (the
        cheapest request there is), which also brings in every event sent before it."""
        self.reply(self.send(GET_INPUT_FOCUS))

    def poll(self, readable: bool = False) -> bool:
        """Send what is queued and read whatever has arrived, without waiting; whether
        anything had. ``readable``: a ``select`` has just found the socket readable."""
        if self._out:
            self._flush()
        # one read takes all that has come (up to its size); what comes after it is the
        # next poll's, as it would be had it come a moment later
        arrived = False
        if readable or not quiet(self._socket.fileno()):  # a wait may have found nothing
            while readable or select.select([self._socket], [], [], 0)[0]:
                arrived, readable = True, False
                if self._read() < READ_SIZE:
                    break
        if self._in:  # whole packets read with a reply, or just now
            while (packet := self._packet()) is not None:
                self._keep(packet)
        return arrived

    def buffered(self) -> bool:
        """Events, or a whole packet, read already and not yet taken."""
        return bool(self.events) or len(self._in) >= 32

    def flush(self) -> None:
        """Send what is queued, reading nothing."""
        self._flush()

    def take_events(self) -> list[int]:
        events, self.events = self.events, []
        return events

    def take_packets(self) -> list[bytes]:
        packets, self.packets = self.packets, []
        return packets

    def _keep(self, packet: bytes) -> None:
        if packet[0] == _ERROR:
            self.errors += 1
        elif packet[0] != _REPLY:
            code = packet[0] & 0x7F
            self.events.append(code)
            if code == self.keep_code:
                self.packets.append(packet)

    def _packet(self) -> bytes | None:
        """The next whole packet read, taken off the input; None before one has come."""
        data = self._in
        if len(data) < 32:
            return None
        size = 32 + (4 * _LENGTH.unpack_from(data, 4)[0] if data[0] == _REPLY else 0)
        if len(data) < size:
            return None
        self._in = data[size:]
        return data[:size]

    def _flush(self) -> None:
        if self._out:
            data, self._out = b"".join(self._out), []
            self._send_all(data)

    def _send_all(self, data: bytes) -> None:
        """Only ``send`` and ``recv(count)``: the socket may be a wrapper of python-xlib's
        (the fault harness counts what each connection writes)."""
        try:
            while data:
                data = data[self._socket.send(data) :]
        except OSError as exc:
            raise ConnectionClosedError("server") from exc

    def _read(self) -> int:
        """Read what has come (waiting for something when nothing has); how many bytes."""
        try:
            data = self._socket.recv(READ_SIZE)
        except OSError as exc:
            raise ConnectionClosedError("server") from exc
        if not data:
            raise ConnectionClosedError("server")
        self._in += data
        return len(data)

    def close(self, last: bytes = b"") -> None:
        """Send what is queued and ``last`` (requests that need no answer), and close the
        connection."""
        if self._closed:
            return
        self._closed = True
        data, self._out = b"".join([*self._out, last]), []
        with contextlib.suppress(ConnectionClosedError):  # the display gone: nothing to tell
            self._send_all(data)
        self._dpy.display.close_internal("client")  # python-xlib's state, and the socket


def open_link(display: str, prepare: Callable[[Any], None] | None = None) -> RawLink:
    """A new connection to X display ``display``, set up on python-xlib by ``prepare``
    (the events it selects), then taken over; closed again if either fails."""
    dpy = open_display(display)
    try:
        if prepare is not None:
            prepare(dpy)
        return RawLink(dpy)
    except BaseException:
        dpy.close()
        raise
