"""What ``logo-bot doctor`` checks on this machine, one function per item: the Python
packages, the programs the bot starts (with their versions), the ROM and the practice
game (the display, the keys and the Fuse windows: ``display_checks``). Each gives a
``Check``: OK, or what to install (the Debian package) or do. Nothing here changes the
machine; the headless check starts a private Xvfb for a moment and stops it.
``required`` asks the same checks before a run.

The bot's X modules (and python-xlib) are imported inside the checks that use them, so
that with python-xlib missing ``doctor`` still says so, and ``--version`` still works."""

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
from pathlib import Path

from logo_bot.bot.errors import BotError
from logo_bot.bot.installation import DISTRIBUTION, checkout_root, package_file

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
    from logo_bot.bot.fuse.builds import BUILDS

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


def import_names(distribution: str) -> list[str]:
    """The top-level modules and packages the installed ``distribution`` brings, from
    its top_level.txt, else from its list of files."""
    dist = importlib.metadata.distribution(distribution)
    listed = (dist.read_text("top_level.txt") or "").split()
    if listed:
        return listed
    found = set()
    for file in dist.files or ():
        if len(file.parts) == 1 and file.suffix == ".py":
            found.add(file.stem)
        elif len(file.parts) == 2 and file.parts[1] == "__init__.py":
            found.add(file.parts[0])
    return sorted(found)


def unimportable(distribution: str) -> str | None:
    """The first import name of the installed ``distribution`` that cannot be imported
    (its files gone, or an import blocked), else None."""
    for name in import_names(distribution):
        if name.startswith("_"):
            continue
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            return name
    return None


def python_packages(wanted: Iterable[str] | None = None) -> Check:
    """Every requirement installed at its ``>=`` floor and importable; python-xlib whole
    (pyautogui's python3-xlib installs over it without X-Resource)."""
    found, wrong, broken = [], [], []
    for requirement in requirements() if wanted is None else wanted:
        match = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(?:>=\s*([0-9.]+))?", requirement)
        if not match:
            continue
        name, floor = match.groups()
        given = requirement.split(";")[0].strip()
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            wrong.append(given)
            continue
        if floor and _numbers(version) < _numbers(floor):
            wrong.append(given)
        elif (module := unimportable(name)) is not None:
            broken.append((given, f"{module} ({name})"))
        else:
            found.append(f"{name} {version}")
    blocks = LAUNCHED | {ATTACHED}
    pip = f"{os.path.basename(sys.executable)} -m pip install"
    if wrong or broken:
        said = [f"missing or too old: {', '.join(wrong)}"] if wrong else []
        said += [f"cannot import {', '.join(b for _, b in broken)}"] if broken else []
        again = " --force-reinstall" if broken else ""
        listed = " ".join(f"'{w}'" for w in [*wrong, *(g for g, _ in broken)])
        fix = f"do: {pip}{again} {listed} (or reinstall logo-bot)"
        return Check("Python packages", False, "; ".join(said), fix, blocks)
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


def rom(path: Path | None = None) -> Check:
    """The free 48K ROM (OpenSE BASIC) a launched Fuse starts with (``path``: where it
    is looked for, Debian's place by default)."""
    from logo_bot.bot.fuse.builds import OPENSE_ROM, ROM_48K_BYTES

    path = path or OPENSE_ROM
    if path.is_file() and path.stat().st_size == ROM_48K_BYTES:
        return Check("48K ROM", True, f"OpenSE BASIC ({path})")
    return Check(
        "48K ROM",
        False,
        f"no {path}",
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


def xvfb_program() -> Check:
    """Xvfb on PATH: what a headless run needs before it starts."""
    return program("Xvfb", "xvfb", "the display of headless runs", {HEADLESS})


def xvfb() -> Check:
    """Xvfb, started for a moment to show that a headless run can have its display. Its
    XTEST serves ``--keys xtest`` only: the default keys are sent to Fuse's window."""
    from logo_bot.bot.x11.display import XServer, open_display

    found = xvfb_program()
    if not found.ok:
        return found
    try:
        with XServer.start() as server:
            dpy = open_display(server.display)
            has_xtest = dpy.has_extension("XTEST")
            dpy.close()
    except BotError as exc:
        return Check(
            "Xvfb", False, f"would not start: {exc}", "do: check its log", frozenset({HEADLESS})
        )
    if not has_xtest:
        return Check("Xvfb", True, f"starts, without XTEST: not --keys xtest ({found.detail})")
    return Check("Xvfb", True, f"starts, with XTEST ({found.detail})")


def importable(module: str) -> bool:
    """Whether the Python module ``module`` is installed (found, not imported)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def opencv() -> bool:
    """Whether OpenCV is installed: the bot writes its MP4 with it where ffmpeg is missing."""
    return importable("cv2")


def video_writer(versions: bool = True) -> Check:
    """ffmpeg, which writes a run's ``video.mp4`` (H.264, with chapters); where it is
    missing OpenCV writes it (MPEG-4 Part 2, no chapters), so ffmpeg is only a note then.
    ``versions``: ask ffmpeg its version (doctor), or only look for it (a run)."""
    flag = "-version" if versions else None
    found = program("ffmpeg", "ffmpeg", "the run's video.mp4", {VIDEO}, flag)
    if found.ok or not opencv():
        return found
    detail = "not found: OpenCV writes video.mp4 instead (MPEG-4 Part 2, no chapters)"
    return Check("ffmpeg", False, detail, found.fix)


def fmfconv(versions: bool = True) -> Check:
    """fmfconv, which decodes the movie a launched Fuse records (the video's frames)."""
    flag = "--version" if versions else None
    return program("fmfconv", "fuse-emulator-utils", "Fuse's movie into video", {VIDEO}, flag)


def video_programs() -> list[Check]:
    """What turns a run into ``video.mp4``: fmfconv (Fuse's movie) and ffmpeg; ffprobe
    only reads a video's chapters back (a run goes without it)."""
    return [
        video_writer(),
        program("ffprobe", "ffmpeg", "reads the video's chapters", (), "-version"),
        fmfconv(),
    ]


def pasmo() -> Check:
    """pasmo builds the practice game: needed to build it, not to play it."""
    return program("pasmo", "pasmo", "to build the practice game", (), "-v")
