"""X displays: use the user's, or start a private ``Xvfb -noreset`` on a free number; and
what kind of X server a display is (``display_type``: a plain one, or a Wayland
desktop's XWayland, ``bot.x11.xwayland``)."""

from __future__ import annotations

import os
import select
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from Xlib import display as xdisplay
from Xlib import error as xerror
from Xlib.error import DisplayError as XlibDisplayError
from Xlib.error import XauthError
from Xlib.protocol import event as xevent

from logo_bot.bot import processes
from logo_bot.bot.errors import DisplayError, installed
from logo_bot.bot.x11.framebuffer import Framebuffer, map_screen, remove, screen_folder
from logo_bot.bot.x11.xwayland import (
    NO_X_DISPLAY_HINT,
    DisplayType,
    is_xwayland,
    wayland_session,
    xwayland_version,
)

XVFB_SCREEN = "1280x1024x24"


def display_type(name: str | None = None) -> DisplayType:
    """The kind of the X display ``name`` (``$DISPLAY`` when None): ``NONE`` when there is
    none or it does not open."""
    name = name or os.environ.get("DISPLAY")
    if not name:
        return DisplayType.NONE
    try:
        dpy = open_display(name)
    except DisplayError:
        return DisplayType.NONE
    try:
        return DisplayType.XWAYLAND if is_xwayland(dpy) else DisplayType.X11
    finally:
        dpy.close()


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


def _tables_per_connection() -> None:
    """python-xlib 0.33 keeps each connection's extension opcodes, events and errors in
    tables shared by every connection of the process, so a second X server whose
    extensions are numbered otherwise (XWayland beside Xvfb) breaks the first, or fails
    to open (``TypeError`` in RANDR's set-up). Give every connection its own tables."""
    init = xdisplay._BaseDisplay.__init__
    if getattr(init, "own_tables", False):
        return

    def own_tables(self, *args, **keys) -> None:
        self.extension_major_opcodes = {}
        self.error_classes = xerror.xerror_class.copy()
        self.event_classes = xevent.event_class.copy()
        init(self, *args, **keys)

    own_tables.own_tables = True  # type: ignore[attr-defined]
    xdisplay._BaseDisplay.__init__ = own_tables  # type: ignore[method-assign]  # on purpose


_tables_per_connection()


def open_display(name: str) -> xdisplay.Display:
    """A python-xlib connection to ``name``; ``DisplayError`` when it cannot be opened."""
    _ensure_xauthority()
    try:
        return xdisplay.Display(name)
    except (XlibDisplayError, XauthError, OSError, OverflowError) as exc:  # :59999: no port
        raise DisplayError(
            f"cannot open X display {name!r}: {exc}",
            hint="check DISPLAY, or run headless with --headless (a private Xvfb is started)",
        ) from None


PROBE_S = 2.0  # a server that has not answered by then is frozen, not gone


def display_gone(name: str, timeout: float = PROBE_S) -> bool:
    """Whether the X display ``name`` no longer opens. The attempt runs on a thread of
    its own, so a frozen server (which counts as there) costs ``timeout`` at most."""
    verdict: list[bool] = []

    def attempt() -> None:
        try:
            open_display(name).close()
        except Exception:  # DisplayError, or ConnectionClosedError while closing
            verdict.append(True)
        else:
            verdict.append(False)

    worker = threading.Thread(target=attempt, name="display-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    return bool(verdict and verdict[0])


def check_display(name: str) -> None:
    """Raise ``DisplayError`` unless the X display ``name`` can be opened."""
    open_display(name).close()


def xvfb_program() -> str:
    """Xvfb's path, or ``DisplayError`` saying how to install it."""
    why = ", so there is no virtual display to run Fuse on"
    return installed("Xvfb", "xvfb", DisplayError, why)


@dataclass
class XServer:
    """An X display the bot works on; ``process`` is set when we started it (Xvfb);
    ``kind`` says whether it is XWayland (``version``: XWayland's)."""

    display: str
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    kind: DisplayType = DisplayType.X11
    version: tuple[int, int, int] | None = None  # XWayland's
    framebuffer: Framebuffer | None = None  # the screen of the Xvfb we started, mapped
    _stopped: bool = field(default=False, repr=False)
    _ended_first: bool = field(default=False, repr=False)  # before ``stop`` was called

    @classmethod
    def existing(cls, display: str | None = None) -> XServer:
        """The user's display (``$DISPLAY`` by default), checked to open, with its kind."""
        name = display or os.environ.get("DISPLAY")
        if not name:
            if wayland_session():
                raise DisplayError(
                    "this is a Wayland session without an X display: the bot plays Fuse "
                    "as an X client, on XWayland",
                    hint=NO_X_DISPLAY_HINT,
                )
            raise DisplayError("no X display is set (DISPLAY is empty)", hint="use --headless")
        try:
            dpy = open_display(name)
        except DisplayError as exc:
            if wayland_session():
                raise DisplayError(exc.message, hint=NO_X_DISPLAY_HINT) from None
            raise
        try:
            if not is_xwayland(dpy):
                return cls(name)
            return cls(name, kind=DisplayType.XWAYLAND, version=xwayland_version(dpy))
        finally:
            dpy.close()

    def describe(self) -> str:
        """``:2 (XWayland 22.1.9)`` or ``:0 (X11)``: for --verbose and run.json."""
        if self.kind is DisplayType.XWAYLAND:
            return f"{self.display} (XWayland {'.'.join(map(str, self.version or ()))})"
        return f"{self.display} (X11)"

    @classmethod
    def start(
        cls, screen: str = XVFB_SCREEN, log_path: Path | None = None, timeout: float = 10.0
    ) -> XServer:
        """Start ``Xvfb -noreset`` on a display number it picks itself (``-displayfd``),
        with its screen in a file the bot maps (``-fbdir``, ``bot.x11.framebuffer``); the
        file's name is removed before this returns, however it returns."""
        xvfb = xvfb_program()
        screen_dir = screen_folder()
        if screen_dir:
            processes.remove_if_killed(screen_dir)  # by the bot's reaper, if it dies first
        try:
            return cls._start(xvfb, screen, log_path, timeout, screen_dir)
        finally:
            if screen_dir:
                remove(screen_dir)  # mapped (or not to be): the name is not needed
                processes.removed(screen_dir)

    @classmethod
    def _start(
        cls, xvfb: str, screen: str, log_path: Path | None, timeout: float, screen_dir: Path | None
    ) -> XServer:
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
                    *(["-fbdir", str(screen_dir)] if screen_dir else []),
                ],
                pass_fds=(write_fd,),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        finally:
            os.close(write_fd)
            if not isinstance(log, int):  # a file, not DEVNULL
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
            if screen_dir:
                server.framebuffer = map_screen(screen_dir)
        except BaseException:
            server.stop()
            raise
        return server

    def gone(self) -> bool:
        """Whether the display went away by itself: the Xvfb we started ended before we
        stopped it, or the person's display no longer opens."""
        if self.process is None:
            return display_gone(self.display)
        return self._ended_first if self._stopped else self.process.poll() is not None

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the Xvfb we started (by PID); a user's display is left alone."""
        if self.process is None or self._stopped:
            return
        self._stopped = True
        if self.framebuffer is not None:
            self.framebuffer.close()
        self._ended_first = self.process.poll() is not None
        if not self._ended_first:
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
