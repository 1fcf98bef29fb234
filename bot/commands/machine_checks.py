"""What ``logo-bot doctor`` checks on this machine, one function per item: the Python
packages, the programs the bot starts (with their versions), the ROM and the practice
game, the display, how keys reach Fuse and an open Fuse window. Each gives a ``Check``:
OK, or what to install (the Debian package) or do. Nothing here changes the machine; the headless
check starts a private Xvfb for a moment and stops it."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field

from Xlib import X
from Xlib.display import Display

from logo_bot.bot.commands.fuse_window import wayland_fuses
from logo_bot.bot.errors import BotError
from logo_bot.bot.fuse.emulator import BUILDS, OPENSE_ROM, ROM_48K_BYTES
from logo_bot.bot.installation import DISTRIBUTION, checkout_root, package_file
from logo_bot.bot.x11.display import XServer, open_display, wayland_session
from logo_bot.bot.x11.window import build_of, fuse_windows
from logo_bot.bot.x11.xwayland import X_CLIENT_FUSE, DisplayType

# The kinds of run a check can stand in the way of.
HEADLESS, ON_DISPLAY, ATTACHED, VIDEO = "headless", "display", "attached", "video"
LAUNCHED = frozenset({HEADLESS, ON_DISPLAY})  # the bot starts Fuse itself
PRACTICE_GAME = "game/build/practice.z80"


@dataclass(frozen=True)
class Check:
    """One item: ``ok``, what was found (``detail``), and when not ok what to do (``fix``).
    ``blocks``: the kinds of run it stands in the way of when not ok (none: only a note)."""

    item: str
    ok: bool
    detail: str
    fix: str = ""
    blocks: frozenset[str] = field(default_factory=frozenset)


def apt(package: str) -> str:
    return f"install: sudo apt-get install {package}"


def program_version(path: str, flag: str = "--version") -> str:
    """What ``path flag`` says its version is (the word after "version", else its first
    line); empty when it says nothing."""
    try:
        out = subprocess.run(
            [path, flag], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = (out.stdout or out.stderr).strip().splitlines()
    if not lines:
        return ""
    found = re.search(r"\b(?:version|v\.)\s*(\d\S*?)\.?(?:\s|$)", lines[0], re.IGNORECASE)
    return found.group(1) if found else lines[0].strip()


def program(
    name: str, package: str, needed: str, blocks: Iterable[str] = (), flag: str | None = None
) -> Check:
    """``name`` on PATH (with its version when ``flag`` asks it), else the package to install."""
    path = shutil.which(name)
    if path is None:
        return Check(name, False, f"not found ({needed})", apt(package), frozenset(blocks))
    version = program_version(path, flag) if flag else ""
    return Check(name, True, f"{version} ({path})" if version else path, "", frozenset(blocks))


def fuse_builds() -> list[Check]:
    """fuse-sdl and fuse-gtk with their versions. Neither alone blocks a run (the other
    can play it); ``summary`` asks for one of them."""
    uses = {"sdl": "the default build", "gtk": "for --fuse gtk"}
    return [
        program(f"fuse-{build}", package, uses[build], flag="--version")
        for build, package in BUILDS.items()
    ]


def requirements() -> list[str]:
    """The bot's own Python requirements (no extras): installed metadata, else pyproject."""
    try:
        found = importlib.metadata.requires(DISTRIBUTION) or []
    except importlib.metadata.PackageNotFoundError:
        root = checkout_root()
        text = (root / "pyproject.toml").read_text(encoding="utf-8") if root else ""
        found = tomllib.loads(text).get("project", {}).get("dependencies", [])
    return [r for r in found if "extra ==" not in r]


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version.split("+")[0])[:3])


def python_packages(wanted: Iterable[str] | None = None) -> Check:
    """Every requirement installed at its ``>=`` floor; python-xlib whole (pyautogui's
    python3-xlib installs over it without X-Resource)."""
    found, wrong = [], []
    for requirement in requirements() if wanted is None else wanted:
        match = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(?:>=\s*([0-9.]+))?", requirement)
        if not match:
            continue
        name, floor = match.groups()
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            wrong.append(requirement.split(";")[0].strip())
            continue
        if floor and _numbers(version) < _numbers(floor):
            wrong.append(requirement.split(";")[0].strip())
        else:
            found.append(f"{name} {version}")
    blocks = LAUNCHED | {ATTACHED}
    pip = f"{os.path.basename(sys.executable)} -m pip install"
    if wrong:
        missing = " ".join(f"'{w}'" for w in wrong)
        return Check(
            "Python packages",
            False,
            f"missing or too old: {', '.join(wrong)}",
            f"do: {pip} {missing} (or reinstall logo-bot)",
            blocks,
        )
    if any(f.startswith("python-xlib ") for f in found) and not importlib.util.find_spec(
        "Xlib.ext.res"
    ):
        return Check(
            "Python packages",
            False,
            "python-xlib was replaced by python3-xlib",
            f"do: {pip} --force-reinstall --no-deps python-xlib",
            blocks,
        )
    return Check("Python packages", True, ", ".join(found))


def rom() -> Check:
    """The free 48K ROM (OpenSE BASIC) a launched Fuse starts with."""
    if OPENSE_ROM.is_file() and OPENSE_ROM.stat().st_size == ROM_48K_BYTES:
        return Check("48K ROM", True, f"OpenSE BASIC ({OPENSE_ROM})")
    return Check(
        "48K ROM",
        False,
        f"no {OPENSE_ROM}",
        apt("opense-basic") + " (or give --rom FILE)",
        LAUNCHED,
    )


def practice_game() -> Check:
    """The practice game, package data (built by setup.sh in a checkout, into the wheel)."""
    try:
        path = package_file(PRACTICE_GAME)
    except (FileNotFoundError, ModuleNotFoundError):
        path = None
    if path is not None and path.is_file():
        return Check("practice game", True, str(path))
    fix = (
        "do: ./scripts/setup.sh (or .venv/bin/python -m game.build; it needs pasmo)"
        if checkout_root()
        else "do: reinstall logo-bot from a wheel built with pasmo (pip install .)"
    )
    return Check("practice game", False, f"no {PRACTICE_GAME}", fix, LAUNCHED)


def xvfb() -> Check:
    """Xvfb, started for a moment to show that a headless run can have its display."""
    found = program("Xvfb", "xvfb", "the display of headless runs", {HEADLESS})
    if not found.ok:
        return found
    try:
        with XServer.start() as server:
            dpy = open_display(server.display)
            has_xtest = dpy.has_extension("XTEST")
            dpy.close()
    except BotError as exc:
        return Check("Xvfb", False, f"would not start: {exc}", "do: check its log", {HEADLESS})
    if not has_xtest:
        return Check("Xvfb", False, "runs, without XTEST", apt("xvfb"), {HEADLESS})
    return Check("Xvfb", True, f"starts, with XTEST ({found.detail})")


def video_programs() -> list[Check]:
    """What turns a run into ``video.mp4``: fmfconv (Fuse's movie) and ffmpeg/ffprobe."""
    return [
        program("ffmpeg", "ffmpeg", "the run's video.mp4", {VIDEO}, "-version"),
        program("ffprobe", "ffmpeg", "the video's chapters", {VIDEO}, "-version"),
        program("fmfconv", "fuse-emulator-utils", "Fuse's movie into video", {VIDEO}, "--version"),
    ]


def pasmo() -> Check:
    """pasmo builds the practice game: needed to build it, not to play it."""
    return program("pasmo", "pasmo", "to build the practice game", (), "-v")


@dataclass(frozen=True)
class DisplayState:
    """The display runs "on this display" and attached runs use."""

    name: str | None  # $DISPLAY
    kind: str  # "X11", "XWayland", "Wayland only" or "none"
    refused: str = ""  # why runs there are refused (XServer.existing's message), or ""


def display_kind(server: XServer | None = None) -> str:
    """X11, XWayland, Wayland only, or none: what the X server says it is when it opened
    (``server``, whose kind XServer.existing found from the XWAYLAND extension or its
    outputs), else what the session's environment says."""
    if server is not None:
        return "XWayland" if server.kind is DisplayType.XWAYLAND else "X11"
    if not os.environ.get("DISPLAY"):
        return "Wayland only" if wayland_session() else "none"
    return "XWayland" if wayland_session() else "X11"


def display_state() -> DisplayState:
    """``$DISPLAY`` opened once, as a run on it would (``XServer.existing``)."""
    name = os.environ.get("DISPLAY") or None
    if name is None:
        return DisplayState(None, display_kind(), "DISPLAY is empty")
    try:
        server = XServer.existing(name)
    except BotError as exc:
        return DisplayState(name, display_kind(), f"{exc}{f' ({exc.hint})' if exc.hint else ''}")
    return DisplayState(name, display_kind(server))


def window_manager(dpy: Display) -> str | None:
    """The name the running window manager gives itself (_NET_SUPPORTING_WM_CHECK), or None."""
    root = dpy.screen().root
    check = root.get_full_property(dpy.intern_atom("_NET_SUPPORTING_WM_CHECK"), X.AnyPropertyType)
    if not check or not check.value:
        return None
    window = dpy.create_resource_object("window", int(check.value[0]))
    name = window.get_full_property(dpy.intern_atom("_NET_WM_NAME"), X.AnyPropertyType)
    if not name or not name.value:
        return "unnamed"
    value = name.value
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def on_display(state: DisplayState) -> list[Check]:
    """The display, how keys reach Fuse there, and the Fuse windows open to attach to."""
    blocks = frozenset({ON_DISPLAY, ATTACHED})
    title = f"display {state.name}" if state.name else "display"
    if state.refused:
        fix = "do: run headless (--headless), or log in to an X11 desktop"
        return [Check(title, False, f"{state.kind}: {state.refused}", fix, blocks)]
    dpy = open_display(state.name or "")
    try:
        wm = window_manager(dpy)
        xtest = dpy.has_extension("XTEST")
        windows = [f"{w.id:#x} (fuse-{build_of(w)})" for w in fuse_windows(dpy)]
    finally:
        dpy.close()
    checks = [Check(title, True, f"{state.kind}, window manager: {wm or 'none'}")]
    # keys go to Fuse's window by default (core XSendEvent); XTEST serves --keys xtest only
    also = "also through XTest (--keys xtest)" if xtest else "no XTEST here: not --keys xtest"
    checks.append(Check("keys", True, f"sent to Fuse's window; {also}"))
    if not windows:
        checks.append(no_fuse_window(state.name or ""))
    elif len(windows) > 1:
        checks.append(Check("Fuse window", True, f"{', '.join(windows)}: --window ID picks one"))
    else:
        checks.append(Check("Fuse window", True, f"{windows[0]}: --attach takes it over"))
    return checks


def no_fuse_window(display: str) -> Check:
    """No Fuse window on ``display``: none open, or in a Wayland session one that is a
    native Wayland window (``--attach`` refuses it alike)."""
    attached = frozenset({ATTACHED})
    native = wayland_fuses(display)
    if native:
        fuse = native[0]
        detail = (
            f"none on {display}: {fuse.program} (pid {fuse.pid}) is a native Wayland window, "
            "which the bot can neither see nor press keys in"
        )
        fix = f"do: close it and start it as an X client: {X_CLIENT_FUSE}"
        return Check("Fuse window", False, detail, fix, attached)
    fix = "do: start your Fuse with the game on this display to use --attach"
    return Check("Fuse window", False, "none open", fix, attached)
