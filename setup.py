"""Puts the practice game into the wheel: ``build_py`` also assembles game/src with pasmo
(``python -m game.build``) and adds ``game/build/practice.z80`` and ``.tap`` as package
data. Everything else about the package is in pyproject.toml.

An editable install (the checkout's .venv) skips this: ``./scripts/setup.sh`` builds the
game into the checkout's own ``game/build/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import ExecError

ROOT = Path(__file__).resolve().parent
GAME_FILES = ("practice.z80", "practice.tap")


class BuildPyWithGame(build_py):
    """``build_py``, then the practice game built into the wheel's ``game/build/``."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            self.build_game(Path(self.build_lib) / "game" / "build")

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
            target.mkdir(parents=True, exist_ok=True)
            for name in GAME_FILES:
                shutil.copyfile(Path(out) / name, target / name)


setup(cmdclass={"build_py": BuildPyWithGame})
