"""What the wheel holds: one import name, ``logo_bot``, with the checkout's ``bot/``,
``solvers/``, ``calibration/`` and ``gym/`` inside it (``logo_bot/`` links to them, so
the build and an editable install read them there), the type marker ``py.typed``, and
the practice game as data only:
``build_py`` assembles game/src with pasmo (``python -m game.build``) and adds
``logo_bot/game/build/practice.z80`` and ``.tap``, and the level list the profile reads.
The game's build tools, the benchmarks, the tests and the fault injection stay in the
repository. Everything else about the package is in pyproject.toml.

Its build requirements (pyproject.toml) are checked first: a build without isolation
that lacks one stops with one line that says which. An editable install (the
checkout's .venv) skips the game: ``./scripts/setup.sh`` builds the
game into the checkout's own ``game/build/``.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def missing_build_requirements() -> list[str]:
    """pyproject.toml's build requirements that this Python lacks or has below their
    floor, each with what it has: a build without isolation (``pip install
    --no-build-isolation .``) uses what is installed."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    missing = []
    for requirement in pyproject["build-system"]["requires"]:
        name, _, floor = (part.strip() for part in requirement.partition(">="))
        try:
            have = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(f"{requirement} (not installed)")
            continue
        if floor and _numbers(have) < _numbers(floor):
            missing.append(f"{requirement} (this Python has {have})")
    return missing


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version.split("+")[0])[:3])


if missing := missing_build_requirements():
    wanted = " ".join(f"'{r.partition(' (')[0]}'" for r in missing)
    sys.exit(
        f"error: building logo-bot needs {', '.join(missing)}: pip install {wanted} "
        "and build again, or build without --no-build-isolation"
    )

from setuptools import setup  # noqa: E402 (after the check: an old one may fail first)
from setuptools.command.build_py import build_py  # noqa: E402
from setuptools.errors import ExecError  # noqa: E402

# the symbol table: logo_bot.gym makes a level's start from the snapshot with it
GAME_FILES = ("practice.z80", "practice.tap", "practice.sym")
# The checkout's folders that run, each a subpackage of logo_bot in the wheel.
PARTS = ("bot", "solvers", "calibration", "gym")
PROFILE_FILES = ("*.toml", "*.txt")  # in each calibration/<profile>/ folder


def packages() -> list[str]:
    """logo_bot, every package under the folders of ``PARTS``, and the profile folders
    whose names Python could import (listed, so that setuptools keeps their data)."""
    found = ["logo_bot"]
    for part in PARTS:
        for init in sorted((ROOT / part).rglob("__init__.py")):
            found.append(".".join(("logo_bot", *init.parent.relative_to(ROOT).parts)))
    return found + [f"logo_bot.calibration.{p.name}" for p in profiles() if p.name.isidentifier()]


def profiles() -> list[Path]:
    return sorted(p for p in (ROOT / "calibration").iterdir() if (p / "profile.toml").is_file())


def package_data() -> dict[str, list[str]]:
    """Each profile's files: a folder named like a module as a package of its own, any
    other (``logo-part1``) through ``logo_bot.calibration``."""
    data: dict[str, list[str]] = {"logo_bot": ["py.typed"], "logo_bot.calibration": []}
    for profile in profiles():
        if profile.name.isidentifier():
            data[f"logo_bot.calibration.{profile.name}"] = list(PROFILE_FILES)
        else:
            data["logo_bot.calibration"] += [f"{profile.name}/{g}" for g in PROFILE_FILES]
    return data


class BuildPyWithGame(build_py):
    """``build_py``, then the practice game built into the wheel's ``game/build/``."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            self.build_game(Path(self.build_lib) / "logo_bot" / "game")

    def build_game(self, target: Path) -> None:
        if shutil.which("pasmo") is None:
            raise ExecError(
                "building logo-bot needs pasmo, the Z80 assembler that builds the practice "
                "game: install it (Debian: sudo apt-get install pasmo) and build again"
            )
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        with tempfile.TemporaryDirectory(prefix="logo-bot-game-") as out:
            result = subprocess.run(
                [sys.executable, "-m", "game.build", "--out", out],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if result.returncode != 0:
                raise ExecError(f"building the practice game failed:\n{result.stderr}")
            (target / "build").mkdir(parents=True, exist_ok=True)
            for name in GAME_FILES:
                shutil.copyfile(Path(out) / name, target / "build" / name)
            shutil.copyfile(ROOT / "game" / "levels.txt", target / "levels.txt")


setup(
    packages=packages(),
    package_data=package_data(),
    cmdclass={"build_py": BuildPyWithGame},
)
