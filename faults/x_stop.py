"""A stop signal delivered at the N-th X request of one of the bot's X connections.

Nothing in ``bot/`` knows of it. ``site_dir`` writes a ``sitecustomize.py`` into a
temporary folder; put on the ``PYTHONPATH`` of a ``logo-bot`` subprocess (``env``), it
makes Python call ``install`` at start-up, which wraps python-xlib's
``protocol.display.Display``:

- each connection is tagged by the bot module whose code opened it (``ROLES``: keys,
  grabber, cover, title, abort; "other" for the rest);
- ``send_request`` counts the requests of the chosen role, and at the N-th one (after
  it is queued, before it is sent or answered) the bot sends itself the signal, once;
  or, with ``at="send"``, the N-th write of that role's connections to their sockets
  (the request sent, its reply not yet read), with ``at="recv"`` the N-th read (the
  data read, not yet parsed): both inside python-xlib's ``send_and_recv``; with
  ``at="io"`` the N-th call of ``send_and_recv`` itself (every flush, reply, event
  read), as it begins: its caller holds the connection's lock then;
- counting starts when the arm file exists (``arm``: the caller creates it when it sees
  a phase begin), and with ``hold`` only requests made while a key is down count;
- a connection the bot took over from python-xlib (``bot/x11/raw_link.py``) writes to
  its socket itself: each such write counts as an I/O call and each request in it as a
  request (after it is sent);
- the bytes each connection writes to its socket are read as X requests, and every key
  event that reached the server (a core ``SendEvent`` of a key event, or an XTEST
  ``FakeInput``) is logged, so ``keys_left_down`` can tell what Fuse was left holding
  even for events sent to its window (``query_keymap`` never sees those).

The log is JSON lines: ``open`` (a connection), ``fire`` (the signal, with the time on
the monotonic clock, which every process shares), ``key`` (an event sent), ``request``
(with ``trace``: every request, to choose N).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import struct
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# which connection a bot module opens: the innermost bot frame at Display() names it
ROLES = {
    "x11/x11_keys.py": "keys",
    "x11/window_keys.py": "keys",
    "x11/key_link.py": "keys",
    "x11/keyboard_grab.py": "keys",
    "x11/grab.py": "grabber",
    "x11/shm.py": "grabber",
    "x11/cover.py": "cover",
    "x11/title_speed.py": "title",
    "x11/abort.py": "abort",
}
CONNECTIONS = ("keys", "grabber", "cover", "title", "abort")
# modules that open connections for others: the bot module that called them names it
OPENERS = ("/bot/x11/display.py", "/bot/x11/raw_link.py")
SEND_EVENT = 25  # the core request's opcode
KEY_PRESS, KEY_RELEASE = 2, 3
FAKE_INPUT = 2  # XTEST's minor opcode


@dataclass(frozen=True)
class XStop:
    """Where to stop: the ``nth`` request of ``connection`` (a role of ``CONNECTIONS``,
    or None to only log), counted once ``arm`` exists, only in key holds with ``hold``."""

    connection: str | None
    nth: int = 1
    signal: str = "SIGTERM"
    log: Path | None = None
    arm: Path | None = None
    hold: bool = False
    at: str = "request"  # or "send"/"recv": a write/read of the socket; "io": an I/O call
    trace: bool = False

    def env(self, site: Path, root: Path) -> dict[str, str]:
        """The environment additions for the bot's process (``site``: from ``site_dir``)."""
        out = {
            "XSTOP_CONNECTION": self.connection or "",
            "XSTOP_NTH": str(self.nth),
            "XSTOP_SIGNAL": self.signal,
            "XSTOP_LOG": str(self.log or ""),
            "XSTOP_ARM": str(self.arm or ""),
            "XSTOP_HOLD": "1" if self.hold else "",
            "XSTOP_AT": self.at,
            "XSTOP_TRACE": "1" if self.trace else "",
            "XSTOP_PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        }
        paths = [str(site), str(root), os.environ.get("PYTHONPATH", "")]
        out["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        return out


SITECUSTOMIZE = '''"""Written by faults/x_stop.py for one logo-bot process under test."""
try:
    from faults.x_stop import install_from_env

    install_from_env()
except KeyboardInterrupt:  # a Ctrl-C this early: die of it, as Python alone would
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
'''


def site_dir(parent: Path) -> Path:
    """A folder holding the ``sitecustomize.py`` that installs the injector."""
    folder = parent / "xstop-site"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return folder


def read_log(path: Path) -> list[dict[str, Any]]:
    """The injector's log lines (a line cut by a kill is left out)."""
    out = []
    try:
        text = path.read_text()
    except OSError:
        return out
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            out.append(json.loads(line))
    return out


def fired(log: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``fire`` line: when and where the signal was sent; None if it never was."""
    return next((e for e in log if e["what"] == "fire"), None)


def keys_left_down(log: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(window, keycode) of every key whose last event sent to the X server was a press
    (XTEST events have window 0: they go wherever the focus is)."""
    down: dict[tuple[int, int], bool] = {}
    for entry in log:
        if entry["what"] == "key":
            down[(entry["window"], entry["code"])] = entry["down"]
    return sorted(key for key, is_down in down.items() if is_down)


# -- inside the bot's process ------------------------------------------------------------
class _Injector:
    def __init__(self, env: dict[str, str]) -> None:
        self.connection = env.get("XSTOP_CONNECTION") or None
        self.nth = int(env.get("XSTOP_NTH") or 1)
        self.signum = getattr(signal, env.get("XSTOP_SIGNAL") or "SIGTERM")
        self.arm = env.get("XSTOP_ARM") or None
        self.hold = bool(env.get("XSTOP_HOLD"))
        self.at = env.get("XSTOP_AT") or "request"
        self.trace = bool(env.get("XSTOP_TRACE"))
        log = env.get("XSTOP_LOG")
        self.fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if log else None
        self.lock = threading.Lock()
        self.armed = self.arm is None
        self.count = 0
        self.done = False
        self.opened = 0
        self.queued_down: set[tuple[int, int]] = set()  # keys down, as requested

    def write(self, **entry: Any) -> None:
        if self.fd is not None:
            entry["t"] = time.monotonic()
            entry["thread"] = threading.current_thread().name
            os.write(self.fd, (json.dumps(entry) + "\n").encode())

    def opening(self, dpy: Any) -> None:
        with self.lock:
            self.opened += 1
            dpy._xstop_id = self.opened
        dpy._xstop_role = role_of(sys._getframe(2))
        self.write(what="open", conn=dpy._xstop_role, id=dpy._xstop_id)

    def request(self, dpy: Any, request: Any) -> None:
        """``request`` is queued on ``dpy``: count it, maybe signal."""
        self._note_key(key_event(dpy, bytes(request._binary)))
        self.step(dpy, "request", type(request).__name__)

    def _note_key(self, key: tuple[int, int, bool] | None) -> None:
        """A key event requested: the keys down, as requested, follow it."""
        if key is not None:
            with self.lock:
                (self.queued_down.add if key[2] else self.queued_down.discard)(key[:2])

    def step(self, dpy: Any, kind: str, name: str) -> None:
        """One request queued or one write to the socket (``kind``) on ``dpy``."""
        role = getattr(dpy, "_xstop_role", "setup")
        with self.lock:
            if not self.armed and self.arm is not None and os.path.exists(self.arm):
                self.armed = True
            counts = (
                kind == self.at
                and not self.done
                and self.armed
                and role == self.connection
                and (not self.hold or bool(self.queued_down))
            )
            if counts:
                self.count += 1
            fire = counts and self.count == self.nth
            if fire:
                self.done = True
        if self.trace:
            self.write(what=kind, conn=role, id=getattr(dpy, "_xstop_id", 0), name=name)
        if fire:
            self.write(what="fire", conn=role, n=self.nth, at=kind, name=name, signal=self.signum)
            os.kill(os.getpid(), self.signum)

    def sent(self, dpy: Any, data: bytes, raw: bool) -> None:
        """``data`` reached the server's socket: log the key events in it, then count the
        write (a signal there comes in the middle of a round trip). A ``raw`` write (the
        bot's own, on a connection it took over from python-xlib: ``raw_link``) is also
        an I/O call, and each request in it is counted as python-xlib's are."""
        requests = self._requests_sent(dpy, data)
        if raw:
            self.step(dpy, "io", "raw write")
            for request in requests:
                self._note_key(key_event(dpy, request))
                self.step(dpy, "request", f"raw request {request[0]}")
        self.step(dpy, "send", f"{len(data)} bytes")

    def _requests_sent(self, dpy: Any, data: bytes) -> list[bytes]:
        """The whole requests ``data`` completes (logging the key events among them)."""
        buffer, requests = getattr(dpy, "_xstop_out", b"") + data, []
        while len(buffer) >= 4:
            length = struct.unpack_from("=H", buffer, 2)[0] * 4
            if length == 0 or len(buffer) < length:
                break
            requests.append(buffer[:length])
            key = key_event(dpy, buffer[:length])
            if key is not None:
                window, code, down = key
                self.write(what="key", conn=dpy._xstop_role, window=window, code=code, down=down)
            buffer = buffer[length:]
        dpy._xstop_out = buffer
        return requests


def role_of(frame: Any) -> str:
    """The role of the connection opened under ``frame``: the innermost bot module's."""
    while frame is not None:
        path = frame.f_code.co_filename.replace(os.sep, "/")
        if "/bot/" in path and not path.endswith(OPENERS):
            tail = path.rsplit("/bot/", 1)[1]
            return ROLES.get(tail, "other")
        frame = frame.f_back
    return "other"


def key_event(dpy: Any, data: bytes) -> tuple[int, int, bool] | None:
    """(window, keycode, down) when the request ``data`` is a key event, else None."""
    if len(data) >= 44 and data[0] == SEND_EVENT and data[12] & 0x7F in (KEY_PRESS, KEY_RELEASE):
        window = struct.unpack_from("=I", data, 4 + 8 + 12)[0]  # the event's own window
        return window, data[13], data[12] & 0x7F == KEY_PRESS
    xtest = getattr(dpy, "extension_major_opcodes", {}).get("XTEST")
    fake = xtest and len(data) >= 8 and data[0] == xtest and data[1] == FAKE_INPUT
    if fake and data[4] in (KEY_PRESS, KEY_RELEASE):
        return 0, data[5], data[4] == KEY_PRESS
    return None


class _Socket:
    """The connection's socket, telling the injector what each ``send`` wrote."""

    def __init__(self, sock: Any, dpy: Any, injector: _Injector) -> None:
        self._sock, self._dpy, self._injector = sock, dpy, injector

    def send(self, data: bytes) -> int:
        sent = self._sock.send(data)
        raw = not getattr(self._dpy, "_xstop_io", False)  # python-xlib writes in its I/O
        self._injector.sent(self._dpy, bytes(data[:sent]), raw)
        return sent

    def recv(self, count: int) -> bytes:
        data = self._sock.recv(count)
        self._injector.step(self._dpy, "recv", f"{len(data)} bytes")
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def install(env: dict[str, str]) -> None:
    """Wrap python-xlib's Display for this process (see the module's docstring)."""
    from Xlib.protocol import display as protocol

    injector = _Injector(env)
    init, send_request = protocol.Display.__init__, protocol.Display.send_request
    send_and_recv = protocol.Display.send_and_recv

    def tagged_init(self: Any, *args: Any, **keys: Any) -> None:
        injector.opening(self)
        init(self, *args, **keys)
        self.socket = _Socket(self.socket, self, injector)

    def counted_send_request(self: Any, request: Any, wait_for_response: Any) -> None:
        send_request(self, request, wait_for_response)
        injector.request(self, request)

    def counted_send_and_recv(self: Any, *args: Any, **keys: Any) -> Any:
        injector.step(self, "io", ",".join(k for k, v in keys.items() if v))
        inside, self._xstop_io = getattr(self, "_xstop_io", False), True
        try:
            return send_and_recv(self, *args, **keys)
        finally:
            self._xstop_io = inside

    protocol.Display.__init__ = tagged_init
    protocol.Display.send_request = counted_send_request
    protocol.Display.send_and_recv = counted_send_and_recv


def install_from_env() -> None:
    """Install from ``XSTOP_*`` and hide them from the programs the bot starts."""
    env = dict(os.environ)
    if "XSTOP_NTH" not in env:
        return
    for name in [n for n in os.environ if n.startswith("XSTOP_")]:
        del os.environ[name]
    if env.get("XSTOP_PYTHONPATH"):
        os.environ["PYTHONPATH"] = env["XSTOP_PYTHONPATH"]
    else:
        os.environ.pop("PYTHONPATH", None)
    install(env)
