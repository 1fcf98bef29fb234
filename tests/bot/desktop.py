"""Window managers for end-to-end tests: each test starts its own on its own Xvfb and
stops it by PID."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from Xlib import X
from Xlib.protocol import event

from logo_bot.bot.x11.display import XServer, open_display

WINDOW_MANAGERS = ("openbox", "icewm", "fluxbox", "i3")
I3_DEFAULT_CONFIG = Path("/etc/i3/config")


def wm_command(binary: str, name: str, home: str) -> list[str]:
    """The command that starts window manager ``name``. i3 gets Debian's default config
    without its first-run wizard (a dialog a person answers once)."""
    if name != "i3":
        return [binary]
    config = Path(home) / "i3.config"
    lines = I3_DEFAULT_CONFIG.read_text().splitlines()
    config.write_text("\n".join(x for x in lines if "i3-config-wizard" not in x) + "\n")
    return [binary, "-c", str(config)]


def wm_running(display: str) -> bool:
    """A window manager has announced itself on the root window (EWMH)."""
    dpy = open_display(display)
    try:
        atom = dpy.intern_atom("_NET_SUPPORTING_WM_CHECK")
        prop = dpy.screen().root.get_full_property(atom, 0)
        return prop is not None and bool(prop.value)
    finally:
        dpy.close()


@contextmanager
def window_manager(display: str, name: str, timeout_s: float = 20) -> Iterator[int]:
    """Run window manager ``name`` on ``display`` (with a private HOME) until the block ends;
    yields its PID once it has announced itself."""
    binary = shutil.which(name)
    assert binary, f"{name} is not installed (./scripts/setup.sh installs it)"
    home = tempfile.mkdtemp(prefix=f"logo-bot-{name}-home-")
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    env.update(DISPLAY=display, HOME=home, XDG_RUNTIME_DIR=home)  # i3's socket goes there
    process = subprocess.Popen(
        wm_command(binary, name, home),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=home,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + timeout_s
        while not wm_running(display):
            assert process.poll() is None, f"{name} exited (rc {process.returncode})"
            assert time.monotonic() < deadline, f"{name} did not start in {timeout_s} s"
            time.sleep(0.05)
        yield process.pid
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(home, ignore_errors=True)


@contextmanager
def desktop(name: str) -> Iterator[XServer]:
    """A private Xvfb with window manager ``name`` running on it."""
    with XServer.start() as xserver, window_manager(xserver.display, name):
        yield xserver


def maximise(display: str, window_id: int, timeout_s: float = 10) -> tuple[int, int]:
    """Ask the window manager to maximise the window (EWMH ``_NET_WM_STATE``, as its
    title bar's button does); the window's size once it has changed."""
    dpy = open_display(display)
    try:
        atom = dpy.intern_atom
        window = dpy.create_resource_object("window", window_id)
        before = window.get_geometry()
        size = (before.width, before.height)
        ask = [1, atom("_NET_WM_STATE_MAXIMIZED_VERT"), atom("_NET_WM_STATE_MAXIMIZED_HORZ"), 1, 0]
        message = event.ClientMessage(
            window=window, client_type=atom("_NET_WM_STATE"), data=(32, ask)
        )
        mask = X.SubstructureRedirectMask | X.SubstructureNotifyMask
        dpy.screen().root.send_event(message, event_mask=mask)
        dpy.sync()
        deadline = time.monotonic() + timeout_s
        while True:
            now = window.get_geometry()
            if (now.width, now.height) != size:
                return now.width, now.height
            assert time.monotonic() < deadline, "the window manager did not maximise it"
            time.sleep(0.05)  # a window manager's turn: nothing in the game to wait for
    finally:
        dpy.close()
