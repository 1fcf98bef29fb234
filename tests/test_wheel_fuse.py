"""End-to-end: the wheel works outside the checkout. Built from a copy of the checkout's
files (so no build/ or egg-info is left here), installed into a fresh venv, then
``logo-bot doctor`` and a headless level run from a temporary folder, the run landing in
the user's data folder ($XDG_DATA_HOME).

Fast and offline: the wheel is built with the checkout's own setuptools and skoolkit (no
isolated build environment to download), and the fresh venv takes its dependencies from
the checkout's venv through a .pth file; the logo-bot package itself is only the wheel's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    site_packages: Path
    env: dict[str, str]
    cwd: Path
    data: Path

    def run(self, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / "logo-bot"), *argv],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )


def git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout


def copy_checkout(target: Path) -> None:
    """The files git would commit (tracked, and new ones it does not ignore)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    status = git_status()
    tmp = tmp_path_factory.mktemp("wheel")
    copy_checkout(tmp / "src")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp / "dist", "."],
        cwd=tmp / "src",
        check=True,
    )
    (wheel,) = (tmp / "dist").glob("logo_bot-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([*pip, "--python", python, "install", "-q", "--no-deps", wheel], check=True)
    site_packages = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # the dependencies: a plain path line, so the checkout venv's own .pth files (its
    # editable logo-bot among them) are not read
    (site_packages / "checkout-dependencies.pth").write_text(sysconfig.get_paths()["purelib"])
    env = {k: v for k, v in os.environ.items() if k not in ("LOGO_BOT_RECORDINGS", "DISPLAY")}
    env.update(XDG_DATA_HOME=str(tmp / "data"), PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}")
    (tmp / "elsewhere").mkdir()
    assert git_status() == status, "building the wheel changed the checkout"
    return Installed(wheel, venv, site_packages, env, tmp / "elsewhere", tmp / "data")


@pytest.mark.xserver  # doctor starts an Xvfb for a moment
def test_the_wheel_holds_the_game_and_doctor_runs_from_it_outside_the_checkout(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {
        "logo_bot/game/build/practice.z80",
        "logo_bot/calibration/practice/profile.toml",
        "logo_bot/calibration/practice/font.txt",
        "logo_bot/game/levels.txt",
    } <= names
    assert not any(n.startswith(("tests/", "faults/", "game/build/gen/")) for n in names)
    built = zipfile.ZipFile(installed.wheel).read("logo_bot/game/build/practice.z80")
    assert built == (REPO / "game/build/practice.z80").read_bytes(), "the same bytes as setup.sh"
    done = installed.run("doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"(installed: {installed.site_packages / 'logo_bot'})" in done.stdout
    assert (
        f"practice game    {installed.site_packages / 'logo_bot/game/build/practice.z80'}"
        in done.stdout
    )
    assert "headless         yes" in done.stdout
    assert installed.run("--version").stdout.startswith("logo-bot 0.")


@pytest.mark.fuse
def test_a_headless_level_from_the_wheel_lands_in_the_users_data_folder(installed):
    done = installed.run(
        "walkthrough", "--levels", "1", "--headless", "--no-video", "--set", "timing.probe=false"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    root = installed.data / "logo-bot" / "recordings"
    (folder,) = root.iterdir()
    run = json.loads((folder / "run.json").read_text())
    assert run["status"] == "complete" and [e["level"] for e in run["levels"]] == [1]
    assert run["versions"]["game"]["path"] == str(
        installed.site_packages / "logo_bot/game/build/practice.z80"
    )
    listed = installed.run("runs")
    assert folder.name in listed.stdout and f"1 runs in {root}" in listed.stdout
