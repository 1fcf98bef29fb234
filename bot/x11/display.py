"""X displays: use the user's, or start a private ``Xvfb -noreset`` on a free number."""

from __future__ import annotations

import os
import select
import struct
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from Xlib import display as xdisplay
from Xlib.error import DisplayError as XlibDisplayError
from Xlib.error import XauthError

from bot import processes
from bot.errors import DisplayError, installed

XVFB_SCREEN = "1280x1024x24"


def wayland_session() -> bool:
    """True when the desktop session is Wayland (X keyboard injection will not reach it)."""
    return os.environ.get("XDG_SESSION_TYPE") == "wayland" or (
        bool(os.environ.get("WAYLAND_DISPLAY")) and not os.environ.get("DISPLAY")
    )


def runs_headless(asked: bool | None, display: str | None) -> bool:
    """The one rule for where Fuse runs: on a private Xvfb when ``asked`` (``--headless``)
    says so, or when it says nothing and there is no display (no ``--display``, no
    ``$DISPLAY``); else on that display."""
    if asked is not None:
        return asked
    return display is None and not os.environ.get("DISPLAY")


def _ensure_xauthority() -> None:
    """python-xlib refuses to connect when ~/.Xauthority is missing (a fresh machine, CI);
    point it at a file of our own whose one entry matches no display, which means "no
    cookie" (a private Xvfb asks for none) and keeps python-xlib from printing warnings."""
    if os.environ.get("XAUTHORITY") or Path.home().joinpath(".Xauthority").exists():
        return
    path = Path(tempfile.gettempdir()) / f"logo-bot-{os.getuid()}.Xauthority"
    fields = [b"logo-bot-no-such-host", b"", b"", b""]  # address, display, name, data
    entry = struct.pack(">H", 256) + b"".join(struct.pack(">H", len(f)) + f for f in fields)
    if not path.exists() or path.read_bytes() != entry:
        path.write_bytes(entry)
    os.environ["XAUTHORITY"] = str(path)


def open_display(name: str) -> xdisplay.Display:
    """A python-xlib connection to ``name``; ``DisplayError`` when it cannot be opened."""
    _ensure_xauthority()
    try:
        return xdisplay.Display(name)
    except (XlibDisplayError, XauthError, OSError) as exc:
        raise DisplayError(
            f"cannot open X display {name!r}: {exc}",
            hint="check DISPLAY, or run headless with --headless (a private Xvfb is started)",
        ) from None


def check_display(name: str) -> None:
    """Raise ``DisplayError`` unless the X display ``name`` can be opened."""
    open_display(name).close()


def xvfb_program() -> str:
    """Xvfb's path, or ``DisplayError`` saying how to install it."""
    why = ", so there is no virtual display to run Fuse on"
    return installed("Xvfb", "xvfb", DisplayError, why)


@dataclass
class XServer:
    """An X display the bot works on; ``process`` is set when we started it (Xvfb)."""

    display: str
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    _stopped: bool = field(default=False, repr=False)

    @classmethod
    def existing(cls, display: str | None = None) -> XServer:
        """The user's display (``$DISPLAY`` by default), checked to open."""
        name = display or os.environ.get("DISPLAY")
        if not name:
            if wayland_session():
                raise DisplayError(
                    "this is a Wayland session without an X display",
                    hint="log in to an X11 session, or run headless with --headless",
                )
            raise DisplayError("no X display is set (DISPLAY is empty)", hint="use --headless")
        if wayland_session():
            raise DisplayError(
                f"this is a Wayland session: keys sent through {name} (XWayland) "
                "may not reach Fuse",
                hint="log in to an X11 session, or run headless with --headless",
            )
        check_display(name)
        return cls(name)

    @classmethod
    def start(
        cls, screen: str = XVFB_SCREEN, log_path: Path | None = None, timeout: float = 10.0
    ) -> XServer:
        """Start ``Xvfb -noreset`` on a display number it picks itself (``-displayfd``)."""
        xvfb = xvfb_program()
        read_fd, write_fd = os.pipe()
        log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            process = processes.start(
                [
                    xvfb,
                    "-displayfd",
                    str(write_fd),
                    "-noreset",
                    "-nolisten",
                    "tcp",
                    "-screen",
                    "0",
                    screen,
                ],
                pass_fds=(write_fd,),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        finally:
            os.close(write_fd)
            if log is not subprocess.DEVNULL:
                log.close()
        number = b""
        deadline = time.monotonic() + timeout
        try:
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                ready, _, _ = select.select([read_fd], [], [], max(left, 0))
                chunk = os.read(read_fd, 16) if ready else b""
                if not chunk:
                    process.kill()
                    process.wait()
                    raise DisplayError(
                        f"Xvfb did not start (exit {process.returncode})",
                        hint=f"see its log {log_path}" if log_path else "run Xvfb to see why",
                    )
                number += chunk
        finally:
            os.close(read_fd)
        server = cls(f":{number.decode().strip()}", process, log_path)
        try:
            check_display(server.display)
        except BaseException:
            server.stop()
            raise
        return server

    @property
    def owned(self) -> bool:
        return self.process is not None

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the Xvfb we started (by PID); a user's display is left alone."""
        if self.process is None or self._stopped:
            return
        self._stopped = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> XServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
