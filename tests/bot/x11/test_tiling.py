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

    def __init__(self, path: Path, version: str = "i3 version 4.22", fail: bool = False):
        self.path = str(path)
        self.version = version
        self.fail = fail
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
                    reply = [{"success": not self.fail, "error": "no"} for _ in parts]
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
