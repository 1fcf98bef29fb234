"""What ``run.json`` says about the software and the game: versions and file hashes."""

from __future__ import annotations

import hashlib
import platform
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from logo_bot.bot import processes

SCHEMA_VERSION = 1


def sha256(path: Path | None) -> str | None:
    if path is None or not Path(path).is_file():
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def fuse_version(log: Path | None) -> str | None:
    """Fuse's version from the banner it prints at start (in its log)."""
    try:
        text = Path(log).read_text(errors="replace") if log else ""
    except OSError:
        text = ""
    m = re.search(r"\(Fuse\) version (\S+?)\.?\s", text)
    return m.group(1) if m else None


_FOUND: dict[str, str | None] = {}  # each tool's version, asked once a process


def known_tool_version(binary: str) -> str | None:
    """What ``tool_version`` found for ``binary`` before, if it ran; never runs it (a
    forced end has no time to start a program)."""
    return _FOUND.get(binary)


def tool_version(binary: str) -> str | None:
    """The first line of ``binary -version`` (ffmpeg), or None when it is not installed;
    asked once a process."""
    if binary not in _FOUND:
        _FOUND[binary] = _ask_version(binary)
    return _FOUND[binary]


def _ask_version(binary: str) -> str | None:
    path = shutil.which(binary)
    if path is None:
        return None
    try:  # started as the bot's programs are: a forced end kills it too
        process = processes.start(
            [path, "-version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError:
        return None
    try:
        stdout, stderr = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
    if process.returncode != 0:  # a broken install has no version to report
        return None
    first = (stdout or stderr).decode(errors="replace").strip().splitlines()
    return first[0] if first else None


def versions(
    rom: Path | None, game: Path | None, fuse_log: Path | None, run_tools: bool = True
) -> dict[str, object]:
    """Versions of everything that decides how a run goes, and hashes of the game files;
    without ``run_tools`` (a forced end, a run with no video), ffmpeg's only if it was
    asked before."""
    return {
        "logo_bot": package_version("logo-bot"),
        "python": platform.python_version(),
        "fuse": fuse_version(fuse_log),
        "skoolkit": package_version("skoolkit"),
        "ffmpeg": tool_version("ffmpeg") if run_tools else known_tool_version("ffmpeg"),
        "rom": {"path": str(rom) if rom else None, "sha256": sha256(rom)},
        "game": {"path": str(game) if game else None, "sha256": sha256(game)},
    }
