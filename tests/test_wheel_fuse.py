"""End-to-end: the wheel works outside the checkout. Built from a copy of the checkout's
files (so no build/ or egg-info is left here), installed into a fresh venv, then
``logo-bot doctor`` and a headless level run from a temporary folder, the run landing in
the user's data folder ($XDG_DATA_HOME). The wheel holds only what runs, under one import
name, ``logo_bot``: in a shared environment, beside distributions that own the top-level
``bot``, ``solvers``, ``game``, ``calibration`` and ``benchmarks``, installed in either
order, both work, and uninstalling either breaks neither.

Fast and offline: the wheel is built once for the module with the checkout's own
setuptools and skoolkit (no isolated build environment to download), each fresh venv takes
its dependencies from the checkout's venv through a .pth file (the logo-bot package itself
is only the wheel's), and the other distributions are small wheels the test writes.
"""

from __future__ import annotations

import base64
import hashlib
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
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check"]


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


def build_output() -> set[str]:
    """What a build in the checkout itself would leave there (git ignores it; others may
    be editing tracked files meanwhile, so git status cannot tell)."""
    names = (p.name for p in REPO.iterdir())
    return {n for n in names if n in ("build", "dist") or n.endswith(".egg-info")}


def copy_checkout(target: Path) -> None:
    """The files git would commit (tracked, and new ones it does not ignore), links as
    links (``logo_bot/bot`` -> ``../bot``)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = REPO / name
        if source.is_symlink() or source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            (target / name).symlink_to(source.readlink())
        elif source.is_file():
            (target / name).write_bytes(source.read_bytes())


def fresh_venv(venv: Path) -> Path:
    """A venv without pip whose dependencies are the checkout venv's; its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    site_packages = Path(
        subprocess.run(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # the dependencies: a plain path line, so the checkout venv's own .pth files (its
    # editable logo-bot among them) are not read
    (site_packages / "checkout-dependencies.pth").write_text(sysconfig.get_paths()["purelib"])
    return site_packages


def install(venv: Path, *wheels: Path) -> None:
    subprocess.run(
        [*PIP, "--python", venv / "bin" / "python", "install", "-q", "--no-deps", *wheels],
        check=True,
    )


def uninstall(venv: Path, *names: str) -> None:
    subprocess.run(
        [*PIP, "--python", venv / "bin" / "python", "uninstall", "-q", "-y", *names], check=True
    )


def venv_env(venv: Path, data: Path) -> dict[str, str]:
    """The environment of a person who runs the venv's programs: no display, no
    recordings folder of the tests', runs in ``data`` ($XDG_DATA_HOME)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LOGO_BOT_RECORDINGS", "DISPLAY")}
    env.update(XDG_DATA_HOME=str(data), PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}")
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    left = build_output()
    tmp = tmp_path_factory.mktemp("wheel")
    copy_checkout(tmp / "src")
    subprocess.run(
        [*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp / "dist", "."],
        cwd=tmp / "src",
        check=True,
    )
    (wheel,) = (tmp / "dist").glob("logo_bot-*.whl")
    venv = tmp / "venv"
    site_packages = fresh_venv(venv)
    install(venv, wheel)
    env = venv_env(venv, tmp / "data")
    (tmp / "elsewhere").mkdir()
    assert build_output() == left, "building the wheel left its output in the checkout"
    return Installed(wheel, venv, site_packages, env, tmp / "elsewhere", tmp / "data")


@pytest.mark.xserver  # doctor starts an Xvfb for a moment
def test_the_wheel_holds_the_game_and_doctor_runs_from_it_outside_the_checkout(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {
        "logo_bot/game/build/practice.z80",
        "logo_bot/calibration/practice/profile.toml",
        "logo_bot/calibration/practice/font.txt",
        "logo_bot/game/levels.txt",
        "logo_bot/py.typed",  # type checkers read the installed package's own types
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


@pytest.mark.slow  # builds a wheel and a venv: the whole suite's
def test_the_wheel_holds_only_what_runs_under_one_import_name(installed):
    """The bot, the solvers, the profiles and the built practice game as data: no tests,
    fault injection, benchmarks, game build tools or game sources."""
    wheel = zipfile.ZipFile(installed.wheel)
    names = wheel.namelist()
    info = f"logo_bot-{installed.wheel.name.split('-')[1]}.dist-info"
    assert {n.split("/")[0] for n in names} == {"logo_bot", info}
    assert wheel.read(f"{info}/top_level.txt").decode().split() == ["logo_bot"]
    parts = {n.split("/")[1] for n in names if n.startswith("logo_bot/") and n.count("/") > 1}
    assert parts == {"bot", "solvers", "calibration", "gym", "game"}
    game = sorted(n for n in names if n.startswith("logo_bot/game/"))
    assert game == [
        "logo_bot/game/build/practice.sym",
        "logo_bot/game/build/practice.tap",
        "logo_bot/game/build/practice.z80",
        "logo_bot/game/levels.txt",
    ], "the game's data, not its build tools (game/*.py) or sources (game/src)"
    for part in ("bot", "solvers", "calibration", "gym"):  # each module is the checkout's own
        shipped = {n.removeprefix("logo_bot/") for n in names if n.startswith(f"logo_bot/{part}/")}
        tracked = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", part],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        runs = {t for t in tracked if t.endswith((".py", ".toml", ".txt")) and (REPO / t).is_file()}
        assert shipped == runs, part


def fake_wheel(folder: Path, name: str, packages: tuple[str, ...]) -> Path:
    """A wheel of distribution ``name`` 1.0 that owns the top-level ``packages`` (each
    says whose it is) and a command ``name`` that prints every one of them."""
    dist = name.replace("-", "_")
    first = packages[0]
    files = {f"{p}/__init__.py": f"OWNER = {name!r}\n" for p in packages}
    files[f"{first}/cli.py"] = (
        f"import {', '.join(packages)}\n\n\ndef main():\n"
        f"    print(' '.join(m.__name__ + ':' + m.OWNER for m in ({', '.join(packages)},)))\n"
    )
    info = f"{dist}-1.0.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
    files[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{info}/entry_points.txt"] = f"[console_scripts]\n{name} = {first}.cli:main\n"
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    wheel = folder / f"{dist}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as out:
        for path, text in files.items():
            out.writestr(path, text)
    return wheel


@pytest.fixture(scope="module")
def others(tmp_path_factory) -> tuple[Path, Path]:
    """Two distributions with the generic names logo-bot once installed at the top."""
    folder = tmp_path_factory.mktemp("others")
    return (
        fake_wheel(folder, "bot-tools", ("bot", "game", "calibration")),
        fake_wheel(folder, "solver-kit", ("solvers", "benchmarks")),
    )


# Imports every module of the installed logo_bot: each from logo_bot's own folder, and
# none of the other distributions' top-level packages taken on the way.
IMPORT_ALL = """
import importlib, pkgutil, sys
from pathlib import Path
import logo_bot
home = Path(logo_bot.__file__).parent
names = [m.name for m in pkgutil.walk_packages(logo_bot.__path__, "logo_bot.")]
for name in names:
    importlib.import_module(name)
stray = [n for n, m in sys.modules.items() if n.startswith("logo_bot")
         and getattr(m, "__file__", None) and not Path(m.__file__).is_relative_to(home)]
others = {"bot", "solvers", "game", "calibration", "benchmarks"} & set(sys.modules)
print(len(names), stray, sorted(others))
"""


def logo_bot_works(venv: Path, env: dict[str, str], cwd: Path) -> None:
    def run(*argv: str | Path) -> str:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert run(venv / "bin" / "logo-bot", "--version").startswith("logo-bot 0.")
    count, stray, taken = run(venv / "bin" / "python", "-c", IMPORT_ALL).split(" ", 2)
    assert int(count) > 100 and (stray, taken.strip()) == ("[]", "[]")
    levels = Path(
        run(venv / "bin" / "python", "-c", "import logo_bot; print(logo_bot.__file__)").strip()
    )
    moves = run(venv / "bin" / "logo-solve", levels.parent / "game" / "levels.txt", "--level", "1")
    assert moves.splitlines()[:2] == ["2 5", "3 4"]


def others_work(venv: Path, env: dict[str, str], cwd: Path) -> None:
    for command, said in [
        ("bot-tools", "bot:bot-tools game:bot-tools calibration:bot-tools"),
        ("solver-kit", "solvers:solver-kit benchmarks:solver-kit"),
    ]:
        done = subprocess.run(
            [venv / "bin" / command], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.stdout.strip() == said, done.stdout + done.stderr


@pytest.mark.slow  # builds venvs and wheels: the whole suite's
@pytest.mark.parametrize("first", ["logo-bot", "the others"])
def test_beside_distributions_owning_bot_and_solvers_both_work_and_survive_an_uninstall(
    installed, others, tmp_path, first
):
    venv = tmp_path / "venv"
    fresh_venv(venv)
    env, cwd = venv_env(venv, tmp_path / "data"), installed.cwd
    order = [(installed.wheel,), others] if first == "logo-bot" else [others, (installed.wheel,)]
    for wheels in order:
        install(venv, *wheels)
    logo_bot_works(venv, env, cwd)
    others_work(venv, env, cwd)
    if first == "logo-bot":  # the others go: logo-bot keeps working
        uninstall(venv, "bot-tools", "solver-kit")
        logo_bot_works(venv, env, cwd)
    else:  # logo-bot goes: the others keep every file
        uninstall(venv, "logo-bot")
        others_work(venv, env, cwd)
