"""What the bot knows of Fuse before it runs one: its two builds and their Debian
packages, the OpenSE ROM's place, and a 48K ROM's size. No X here, so that ``doctor``,
``--version`` and the check before a run can name what is missing even without
python-xlib."""

from __future__ import annotations

from pathlib import Path

OPENSE_ROM = Path("/usr/share/spectrum-roms/opense.rom")
BUILDS = {"sdl": "fuse-emulator-sdl", "gtk": "fuse-emulator-gtk"}  # build -> Debian package
ROM_48K_BYTES = 16384
