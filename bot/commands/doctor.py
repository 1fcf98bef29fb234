"""``logo-bot doctor``: check everything the bot needs on this machine, say for each item
OK or what to install or do, and which kinds of run can go (headless, on this display,
attached). Exits 0 when a walkthrough can run. The checks: ``machine_checks`` and
``display_checks``. With a Python package missing (python-xlib) it says so and which
programs are there; the checks that need the package wait for it."""

from __future__ import annotations

import argparse
import platform
import sys
import textwrap
from dataclasses import dataclass

from logo_bot.bot.commands import display_checks
from logo_bot.bot.commands import machine_checks as checks
from logo_bot.bot.commands.machine_checks import ATTACHED, HEADLESS, ON_DISPLAY, VIDEO, Check
from logo_bot.bot.errors import exit_codes_help
from logo_bot.bot.installation import PACKAGES_ROOT, checkout_root, version

KINDS = {
    HEADLESS: ("headless", "logo-bot walkthrough --headless"),
    ON_DISPLAY: ("on this display", "logo-bot walkthrough"),
    ATTACHED: ("attached", "logo-bot walkthrough --attach"),
}


def parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog="logo-bot doctor",
        description=textwrap.fill(
            "Check what the bot needs on this machine: the Python packages, fuse-sdl and "
            "fuse-gtk, the 48K ROM, the practice game, Xvfb (started for a moment), ffmpeg, "
            "ffprobe, fmfconv, pasmo, the display (X11 and its window manager, XWayland, "
            "Wayland only, or none), XTest, and a Fuse window to attach to. For each: OK, or "
            "the Debian package to install or what to do. Then which kinds of run can go: "
            "headless, on this display, attached. Exits 0 when a walkthrough can run.",
            79,
        ),
        epilog=exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def machine() -> list[Check]:
    """Every check, in the order they are printed."""
    packages = checks.python_packages()
    try:
        return [packages, *with_bot_modules()]
    except ImportError as exc:  # a Python package the bot's modules import
        return [packages, *without_bot_modules(exc.name or str(exc))]


def without_bot_modules(module: str) -> list[Check]:
    """What can be checked while the bot's modules cannot be imported (python-xlib
    missing): the programs alone, and one line for the rest."""
    rest = Check(
        "Fuse, ROM, display",
        False,
        f"not checked: the bot cannot import {module}",
        "do: install the Python packages above, then run logo-bot doctor again",
        checks.LAUNCHED | {ATTACHED},
    )
    return [checks.pasmo(), checks.xvfb_program(), *checks.video_programs(), rest]


def with_bot_modules() -> list[Check]:
    """Every check after the Python packages'."""
    found = checks.fuse_builds()
    if not any(c.ok for c in found):  # a launched run needs one Fuse build or the other
        found.append(
            Check(
                "Fuse",
                False,
                "neither build is installed",
                checks.apt("fuse-emulator-sdl"),
                checks.LAUNCHED,
            )
        )
    found += [checks.rom(), checks.practice_game(), checks.pasmo(), checks.xvfb()]
    found += checks.video_programs()
    found += display_checks.on_display(display_checks.display_state())
    return found


@dataclass(frozen=True)
class Readiness:
    """Whether a kind of run can go, and if not the first reason why."""

    kind: str
    can: bool
    why: str = ""


def readiness(found: list[Check]) -> list[Readiness]:
    """Each kind of run, and whether what was found lets it go."""
    result = []
    for kind in KINDS:
        stopping = [c for c in found if not c.ok and kind in c.blocks]
        why = f"{stopping[0].item}: {stopping[0].detail}" if stopping else ""
        result.append(Readiness(kind, not stopping, why))
    return result


def report(found: list[Check], kinds: list[Readiness]) -> str:
    width = max(len(c.item) for c in found)
    where = "checkout" if checkout_root() else "installed"
    lines = [f"logo-bot {version()} ({where}: {PACKAGES_ROOT}), Python {platform.python_version()}"]
    for c in found:
        status = "ok" if c.ok else ("NO" if c.blocks else "--")
        lines.append(f"  {status:<3} {c.item.ljust(width)}  {c.detail}")
        if c.fix:
            lines.append(f"      {' ' * width}  -> {c.fix}")
    no_video = [c.item for c in found if not c.ok and VIDEO in c.blocks]
    lines += ["", "Runs that can go:"]
    for v in kinds:
        name = KINDS[v.kind][0]
        said = command(v.kind, found) if v.can else v.why
        lines.append(f"  {name:<16} {'yes' if v.can else 'no '}  {said}")
    if no_video and any(v.can for v in kinds):
        lines.append(f"  only with --no-video (no video.mp4) until {', '.join(no_video)} is there")
    return "\n".join(lines)


def command(kind: str, found: list[Check]) -> str:
    """The command that runs ``kind`` on this machine as it is: with ``--fuse gtk`` where
    fuse-gtk is the only build (a run the bot starts), and ``--no-video`` where a tool
    the video needs is missing (an attached run's video needs no fmfconv)."""
    missing = {c.item for c in found if not c.ok}
    options = []
    if kind != ATTACHED and "fuse-sdl" in missing and "fuse-gtk" not in missing:
        options.append("--fuse gtk")
    video = [c.item for c in found if not c.ok and VIDEO in c.blocks]
    if [item for item in video if kind != ATTACHED or item != "fmfconv"]:
        options.append("--no-video")
    return " ".join([KINDS[kind][1], *options])


def can_walk(found: list[Check], kinds: list[Readiness]) -> bool:
    """A walkthrough can run as given (with its video) in at least one way."""
    return any(v.can for v in kinds) and not any(not c.ok and VIDEO in c.blocks for c in found)


def version_text() -> str:
    """``logo-bot --version``: the bot's version and the Fuse builds found."""
    lines = [f"logo-bot {version()}"]
    try:
        builds = checks.fuse_builds()
    except ImportError as exc:  # python-xlib missing: logo-bot doctor says what to do
        return f"{lines[0]}\nFuse builds not checked: no module {exc.name} (see logo-bot doctor)"
    for c in builds:
        lines.append(f"{c.item} {c.detail}" + (f"; {c.fix}" if c.fix else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser().parse_args(sys.argv[1:] if argv is None else argv)
    found = machine()
    kinds = readiness(found)
    print(report(found, kinds))
    return 0 if can_walk(found, kinds) else 1
