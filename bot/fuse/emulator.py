"""Starting and stopping the Fuse emulator (``fuse-sdl`` or ``fuse-gtk``) on an X display."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from logo_bot.bot import interrupts, processes, stopping
from logo_bot.bot.errors import EmulatorError, InputError, installed
from logo_bot.bot.fuse.builds import BUILDS, OPENSE_ROM, ROM_48K_BYTES
from logo_bot.bot.fuse.homes import HOME_PREFIX, sweep_homes
from logo_bot.bot.fuse.log_tail import log_tail
from logo_bot.bot.fuse.spectrum_files import CUT, snapshot_problem, tape_problem
from logo_bot.bot.x11.display import check_display, open_display
from logo_bot.bot.x11.window import ask_to_close, fuse_window_of

FILTERS = {1: "normal", 2: "2x", 3: "3x"}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FuseConfig:
    """Everything that decides how Fuse is started."""

    rom: Path = OPENSE_ROM
    snapshot: Path | None = None
    tape: Path | None = None
    scale: int = 1
    speed: int = 100
    record: Path | None = None  # --record: an RZX input recording
    playback: Path | None = None  # --playback: an RZX to play
    movie: Path | None = None  # --movie-start: an FMF movie
    statusbar: bool = False
    extra_args: tuple[str, ...] = ()
    build: str = "sdl"  # "sdl" (fuse-sdl) or "gtk" (fuse-gtk, with a menu bar)
    # fuse-gtk's GDK_SCALE: 1 draws the picture at the scale asked, in whole blocks; None
    # leaves the desktop's (a HiDPI desktop's draws it larger again, smoothly)
    gtk_scale: int | None = 1

    @property
    def binary_name(self) -> str:
        if self.build not in BUILDS:
            raise EmulatorError(f"unknown Fuse build {self.build!r}: sdl or gtk")
        return f"fuse-{self.build}"

    def command(self, binary: str | None = None) -> list[str]:
        binary = binary or self.binary_name
        if self.scale not in FILTERS:
            raise EmulatorError(f"scale must be 1, 2 or 3, not {self.scale}")
        cmd = [
            binary,
            "--machine",
            "48",
            "--rom-48",
            _absolute(self.rom),
            "--no-sound",
            "--no-confirm-actions",
            "--no-autosave-settings",
            "--graphics-filter",
            FILTERS[self.scale],
            "--speed",
            str(self.speed),
            "--statusbar" if self.statusbar else "--no-statusbar",
        ]
        for flag, path in (
            ("--snapshot", self.snapshot),
            ("--tape", self.tape),
            ("--record", self.record),
            ("--playback", self.playback),
            ("--movie-start", self.movie),
        ):
            if path is not None:
                cmd += [flag, _absolute(path)]
        if self.record is not None:
            cmd.append("--no-rzx-autosaves")  # one snapshot at the start is enough
        return cmd + list(self.extra_args)

    def program(self) -> str:
        """The Fuse build's path, or ``EmulatorError`` saying how to install it."""
        return installed(self.binary_name, BUILDS[self.build], EmulatorError)

    def check_files(self) -> None:
        """Raise ``InputError`` naming any input file that is missing."""
        for what, path in (
            ("ROM", self.rom),
            ("snapshot", self.snapshot),
            ("tape", self.tape),
            ("RZX recording", self.playback),
        ):
            if path is not None and not Path(path).is_file():
                if path == OPENSE_ROM:
                    hint = "install it: sudo apt-get install opense-basic"
                elif what == "snapshot":
                    hint = (
                        "check the path (the practice game is built by ./scripts/setup.sh "
                        "in a checkout, and is in the installed package otherwise: "
                        "logo-bot doctor checks it)"
                    )
                else:
                    hint = "check the path"
                raise InputError(f"the {what} file {path} does not exist", hint=hint)
        size = Path(self.rom).stat().st_size
        if size != ROM_48K_BYTES:
            raise InputError(
                f"the ROM file {self.rom} is {size} bytes, not a 48K Spectrum ROM "
                f"({ROM_48K_BYTES} bytes)",
                hint="give a 48K ROM with --rom, or leave --rom out to use OpenSE BASIC",
            )
        for path, check in ((self.snapshot, snapshot_problem), (self.tape, tape_problem)):
            if path is not None and (problem := check(Path(path))):
                hint = (
                    "copy the whole file again (the practice game: ./scripts/setup.sh "
                    "rebuilds it in a checkout; reinstall logo-bot otherwise)"
                    if problem.endswith(CUT)
                    else "give a .z80, .szx or .sna snapshot, or a .tap or .tzx tape"
                )
                raise InputError(f"{path} cannot be loaded: {problem}", hint=hint)


@dataclass
class Fuse:
    """A running Fuse we started: its process, display and top-level window id."""

    config: FuseConfig
    display: str
    process: subprocess.Popen[bytes]
    window_id: int
    home: Path
    log_path: Path
    started_at: float  # when its window appeared: the run's clock of its frames starts here
    killed: bool = False  # stop() had to SIGKILL it: its movie and RZX may be cut short
    _stopped: bool = field(default=False, repr=False)
    _unforce: Callable[[], None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._unforce = interrupts.on_force(self._end_at_once)

    def _end_at_once(self, reason: str) -> None:
        """A forced end: SIGKILL and the private HOME removed (its files are lost)."""
        _kill(self.process)
        _remove_home(self.home)

    @classmethod
    def start(
        cls,
        config: FuseConfig,
        display: str,
        log_path: Path | None = None,
        timeout: float = 10.0,
    ) -> Fuse:
        """Start Fuse on ``display`` with a private HOME and wait for its window."""
        binary = config.program()
        config.check_files()
        check_display(display)
        sweep_homes()
        home: Path | None = None
        process: subprocess.Popen[bytes] | None = None
        dpy = None
        try:  # from the first step: an interrupt anywhere in start-up leaves nothing behind
            home = Path(tempfile.mkdtemp(prefix=f"{HOME_PREFIX}{os.getpid()}-"))
            processes.remove_if_killed(home)  # a bot killed outright cannot remove it
            log_path = log_path or home / "fuse.log"
            # no SDL_ setting of the bot's, no Wayland session: an X client of display only
            env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "WAYLAND_"))}
            env.update(DISPLAY=display, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
            env["SDL_VIDEODRIVER"] = "x11"  # never fall back to an ASCII-art terminal driver
            env["GDK_BACKEND"] = "x11"  # fuse-gtk: the X display, never Wayland
            env["NO_AT_BRIDGE"] = "1"  # fuse-gtk: no accessibility bus to wait for
            # fuse-gtk: the picture at the scale asked, in whole blocks: a HiDPI desktop's
            # scale (GDK_SCALE, or its settings daemon's) would smooth it larger
            if config.gtk_scale is not None:
                env["GDK_SCALE"] = str(config.gtk_scale)
            with open(log_path, "wb") as log:
                process = processes.start(
                    config.command(binary),
                    stopping.FUSE_DEATH_SIGNAL,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=home,
                )
            started = time.monotonic()
            dpy = open_display(display)
            while True:
                window = fuse_window_of(dpy, process.pid)
                if window is not None:
                    shown = time.monotonic()  # its first frame follows; loading came before
                    dpy.close()  # here, where an interrupt still stops this Fuse
                    dpy = None
                    return cls(config, display, process, window.id, home, log_path, shown)
                if process.poll() is not None:
                    raise EmulatorError(
                        f"Fuse exited during start-up (exit {process.returncode}): "
                        f"{log_tail(log_path)}",
                        hint="check the ROM, snapshot or tape it was given",
                    )
                if time.monotonic() - started > timeout:
                    raise EmulatorError(
                        f"Fuse did not show its window within {timeout:.0f} s: {log_tail(log_path)}"
                    )
                interrupts.sleep(0.01)
        except BaseException:  # an error, or Ctrl-C/SIGTERM during start-up
            if process is not None:
                _kill(process)
            if home is not None:
                _remove_home(home)
            raise
        finally:
            if dpy is not None:
                dpy.close()

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = stopping.FUSE_QUIT_S) -> int | None:
        """Ask Fuse to quit so that it finishes its movie and RZX files
        (``stopping.fuse_quit_by``: SIGTERM, or a WM_DELETE_WINDOW message); SIGKILL if
        it hangs, which ``killed`` records (and a warning says)."""
        if not self._stopped:
            self._stopped = True
            try:
                if self.alive():
                    self._ask_to_quit()
                    try:
                        self.process.wait(timeout)
                    except subprocess.TimeoutExpired:
                        self.killed = True
                        how = stopping.fuse_quit_by(self.config.build)
                        log.warning(
                            "Fuse (pid %d) did not quit within %.0f s of %s, so it was killed "
                            "(SIGKILL): its movie and RZX recording may be cut short",
                            self.pid,
                            timeout,
                            how,
                        )
            finally:  # SIGKILL after the timeout, and when an interrupt cuts the wait short
                _kill(self.process)
                _remove_home(self.home)
                if self._unforce is not None:
                    self._unforce()
        return self.process.returncode

    def _ask_to_quit(self) -> None:
        if stopping.fuse_quit_by(self.config.build) == "SIGTERM":
            self.process.send_signal(signal.SIGTERM)
            return
        try:
            dpy = open_display(self.display)
        except Exception:  # the display is gone: SIGKILL after the timeout
            return
        try:
            ask_to_close(dpy, self.window_id)
        except Exception:  # the window is gone already; Fuse is exiting
            pass
        finally:
            dpy.close()

    def kill(self) -> None:
        """SIGKILL, as a crash would (the end of a movie is lost)."""
        _kill(self.process)

    def __enter__(self) -> Fuse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


def _remove_home(home: Path) -> None:
    shutil.rmtree(home, ignore_errors=True)
    processes.removed(home)


def _absolute(path: Path) -> str:
    """Fuse runs in its private HOME, so every file it is given is made absolute here."""
    return str(Path(path).expanduser().resolve())
