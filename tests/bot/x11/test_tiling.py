"""Floating Fuse under i3 and sway: their IPC protocol, spoken to a stand-in socket."""

from __future__ import annotations

import json
import socket
import struct
import threading
from pathlib import Path

import pytest

from logo_bot.bot.x11 import tiling


class FakeTiler:
    """A window manager's IPC socket that records the commands and answers as i3 does."""

    def __init__(
        self, path: Path, version: str = "i3 version 4.22", fail: bool = False, unknown: int = 0
    ):
        self.path = str(path)
        self.version = version
        self.fail = fail
        self.unknown = unknown  # commands answered "No matching node" before the window is
        self.commands: list[str] = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                head = conn.recv(14)
                length, kind = struct.unpack("<II", head[6:])
                body = conn.recv(length).decode() if length else ""
                if kind == tiling.RUN_COMMAND:
                    self.commands.append(body)
                    parts = body.split(", ")
                    known = len(self.commands) > self.unknown
                    error = "no" if known else "No matching node."
                    reply = [{"success": known and not self.fail, "error": error} for _ in parts]
                else:
                    reply = {"human_readable": self.version}
                data = json.dumps(reply).encode()
                conn.sendall(b"i3-ipc" + struct.pack("<II", len(data), kind) + data)

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def tiler(tmp_path):
    fake = FakeTiler(tmp_path / "ipc.sock")
    yield fake
    fake.close()


def test_a_command_is_sent_and_its_replies_read(tiler):
    assert tiling.run_command(tiler.path, "[id=7] floating enable")
    assert tiler.commands == ["[id=7] floating enable"]


def test_the_window_manager_is_named_by_its_version(tmp_path):
    sway = FakeTiler(tmp_path / "sway.sock", version="sway version 1.7")
    try:
        assert tiling.wm_name(sway.path) == "sway"
    finally:
        sway.close()


def test_a_refusal_is_said_not_raised(tmp_path, caplog):
    refusing = FakeTiler(tmp_path / "no.sock", fail=True)
    try:
        assert not tiling.run_command(refusing.path, "[id=7] floating enable")
    finally:
        refusing.close()
    assert "would not float Fuse" in caplog.text


def test_no_socket_is_an_ipc_error_said_as_a_warning(tmp_path, caplog):
    with pytest.raises(tiling.IpcError):
        tiling.ask(str(tmp_path / "none.sock"), tiling.GET_VERSION)
    assert not tiling.run_command(str(tmp_path / "none.sock"), "x")
    assert tiling.wm_name(str(tmp_path / "none.sock")) == "a tiling window manager"


def test_the_persons_tiler_is_asked_only_for_their_own_display():
    class NoRoot:  # a display whose root names no i3 socket
        def intern_atom(self, name, only_if_exists=False):
            return 0

    env = {"DISPLAY": ":5", "SWAYSOCK": "/run/sway.sock"}
    assert tiling.ipc_socket(NoRoot(), ":5", env) == "/run/sway.sock"
    assert tiling.ipc_socket(NoRoot(), ":9", env) is None  # the bot's own Xvfb


class Window:
    """A window whose geometry is the size last asked of the fake tiler."""

    def __init__(self, tiler: FakeTiler) -> None:
        self.tiler = tiler

    def get_geometry(self):
        asked = [c for c in self.tiler.commands if "resize set" in c]
        words = asked[-1].split() if asked else ["0"] * 8
        width, height = int(words[words.index("width") + 1]), int(words[words.index("height") + 1])
        return type("Geometry", (), {"width": width, "height": height})


class Display:
    def __init__(self, tiler: FakeTiler) -> None:
        self.tiler = tiler

    def create_resource_object(self, kind: str, window_id: int) -> Window:
        return Window(self.tiler)


def test_a_window_the_tiler_does_not_manage_yet_is_floated_once_it_does(tmp_path, caplog):
    """sway answers 'No matching node' for a window mapped a moment ago: the bot asks
    again, quietly, and floats it."""
    late = FakeTiler(tmp_path / "sway.sock", version="sway version 1.7", unknown=3)
    try:
        assert tiling.float_window(late.path, Display(late), 7, (640, 534))
    finally:
        late.close()
    assert late.commands[:4] == ["[id=7] floating enable"] * 4
    assert "resize set width 640 px height 534 px" in late.commands[4]
    assert "would not float" not in caplog.text
