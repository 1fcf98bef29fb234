"""Calibration profiles: one data folder per game (geometry, palette, keys, timings)."""

from pathlib import Path

PROFILES_DIR = Path(__file__).resolve().parent


def profile_path(name: str) -> Path:
    """The ``profile.toml`` of the profile called ``name`` (a folder next to this file)."""
    return PROFILES_DIR / name / "profile.toml"


def profile_names() -> list[str]:
    return sorted(p.parent.name for p in PROFILES_DIR.glob("*/profile.toml"))
