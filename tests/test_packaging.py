"""pyproject.toml declares what the code needs: the mss that takes ``display``, tomli-w,
pyautogui as an extra, and no test-only jsonschema in the core dependencies."""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

import mss

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
PROJECT = tomllib.loads(PYPROJECT.read_text())["project"]


def floors(requirements: list[str]) -> dict[str, tuple[int, ...] | None]:
    """Each requirement's distribution name and its ``>=`` floor (None without one)."""
    found: dict[str, tuple[int, ...] | None] = {}
    for requirement in requirements:
        match = re.match(r"\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*(?:>=\s*([0-9.]+))?", requirement)
        assert match, requirement
        name, floor = match.group(1).lower().replace("_", "-"), match.group(2)
        found[name] = tuple(int(p) for p in floor.split(".")) if floor else None
    return found


CORE = floors(PROJECT["dependencies"])


def test_the_floor_parser_reads_names_extras_and_floors():
    assert floors(["mss>=10.2", "logo-bot[bench]", "Tomli_W >= 1.0"]) == {
        "mss": (10, 2),
        "logo-bot": None,
        "tomli-w": (1, 0),
    }


def test_the_mss_floor_has_the_display_argument():
    assert CORE["mss"] is not None and CORE["mss"] >= (10, 2)
    assert "display" in inspect.signature(mss.MSS).parameters


def test_tomli_w_is_a_core_dependency_and_jsonschema_is_not():
    assert "tomli-w" in CORE
    assert "jsonschema" not in CORE


def test_the_pyautogui_key_backend_is_an_optional_extra():
    extras = PROJECT["optional-dependencies"]
    assert "pyautogui" in floors(extras["pyautogui"])


def test_the_build_has_what_setup_py_uses_and_the_tests_build_offline():
    """setup.py builds the practice game with skoolkit at build time; the wheel test
    builds without isolation, so dev has the build requirements too."""
    build = floors(tomllib.loads(PYPROJECT.read_text())["build-system"]["requires"])
    assert {"setuptools", "skoolkit"} <= set(build)
    dev = floors(PROJECT["optional-dependencies"]["dev"])
    assert dev["setuptools"] == build["setuptools"]


def test_platformdirs_is_a_core_dependency():
    assert "platformdirs" in CORE  # bot/recording/folder.py: the runs of an installed bot
