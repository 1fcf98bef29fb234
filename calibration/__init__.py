"""Calibration profiles: one data folder per game (geometry, palette, keys, timings)."""

import importlib.resources
from pathlib import Path

# A folder on disk, in a checkout and in an installed wheel alike.
PROFILES_DIR = Path(str(importlib.resources.files(__name__)))


def profile_path(name: str) -> Path:
    """The ``profile.toml`` of the profile called ``name`` (a folder of this package)."""
    return PROFILES_DIR / name / "profile.toml"


def profile_names() -> list[str]:
    return sorted(p.parent.name for p in PROFILES_DIR.glob("*/profile.toml"))
