"""``pip install --no-build-isolation .`` where the build's own requirements are missing
or too old (a fresh venv: pip's bundled setuptools, no skoolkit) ends in one line that
names each and how to install them, not a traceback. Built from a copy of the checkout's
files, so nothing is left here."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.test_wheel_fuse import REPO, copy_checkout


@pytest.mark.slow  # a venv with pip, and pip: about 10 s
def test_a_build_without_its_requirements_says_which_in_one_line(tmp_path: Path):
    copy_checkout(tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
    python = venv / "bin" / "python"
    version = "import importlib.metadata as m; print(m.version('setuptools'))"
    setuptools = subprocess.run([python, "-c", version], capture_output=True, text=True)
    floor = next(
        r for r in tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
        if r.startswith("setuptools")
    )  # fmt: skip
    command = [python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index"]
    done = subprocess.run([*command, tmp_path / "src"], capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Traceback" not in out, out
    (line,) = [x.strip() for x in out.splitlines() if "building logo-bot needs" in x]
    assert "skoolkit>=9.0 (not installed)" in line, "a fresh venv has no skoolkit"
    have = setuptools.stdout.strip()
    too_old = tuple(int(n) for n in have.split(".")[:2]) < (77, 0)
    assert (f"{floor} (this Python has {have})" in line) is too_old, line
    assert line.endswith("and build again, or build without --no-build-isolation")
    assert "pip install " in line and "'skoolkit>=9.0'" in line
