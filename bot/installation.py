"""Where the bot's own files are, installed or in a checkout: its package data (profiles,
fonts, the practice game), the checkout it runs from if any, and its version.

A wheel puts ``bot``, ``calibration``, ``game`` (the built practice game, data only) and
``solvers`` side by side in one package, ``logo_bot``; a checkout (or an editable install
of one) has them at the repository root, beside ``pyproject.toml``. Imports nothing of
the bot.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

DISTRIBUTION = "logo-bot"
# The folder that holds the bot's parts: the checkout's root, or the installed logo_bot.
PACKAGES_ROOT = Path(__file__).resolve().parents[1]
# Packages whose data a profile names by a path that starts with the package's name.
DATA_PACKAGES = ("calibration", "game")


def checkout_root() -> Path | None:
    """The repository the bot runs from (its packages beside ``pyproject.toml``), or None
    when it is installed."""
    return PACKAGES_ROOT if (PACKAGES_ROOT / "pyproject.toml").is_file() else None


def is_package_data(relative: str) -> bool:
    """Whether ``relative`` (like ``game/build/practice.z80``) names a packaged data file."""
    return Path(relative).parts[:1] in [(p,) for p in DATA_PACKAGES]


def package_file(relative: str) -> Path:
    """The file ``relative`` names, its first part the folder (``game/build/practice.z80``):
    a path on disk, which Fuse can open too."""
    return PACKAGES_ROOT / relative


def version() -> str:
    """The installed version; in a checkout that was never installed, pyproject's."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        root = checkout_root()
        text = (root / "pyproject.toml").read_text(encoding="utf-8") if root else ""
        found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
        return found.group(1) if found else "unknown"
