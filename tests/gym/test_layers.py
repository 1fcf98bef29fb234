"""The environment is a layer above the bot: it imports the bot and the solvers (through
``logo_bot``), and nothing of the bot or the solvers imports it or Gymnasium, an
optional extra."""

from __future__ import annotations

import ast
from pathlib import Path

from logo_bot.bot.installation import PACKAGES_ROOT as REPO

OPTIONAL = ("logo_bot.gym", "gymnasium")


def imports_in(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module if node.level == 0 else "." + node.module)
    return found


def test_nothing_in_the_bot_or_the_solvers_imports_the_environment_or_gymnasium():
    sources = [p for part in ("bot", "solvers") for p in (REPO / part).rglob("*.py")]
    assert len(sources) > 100
    wrong = [
        f"{path.relative_to(REPO)} imports {name}"
        for path in sources
        for name in imports_in(path)
        if name.startswith(OPTIONAL)
    ]
    assert wrong == []


def test_the_environment_imports_the_project_only_through_logo_bot():
    sources = sorted((REPO / "gym").rglob("*.py"))
    assert len(sources) >= 4
    wrong = [
        f"{path.relative_to(REPO)} imports {name}"
        for path in sources
        for name in imports_in(path)
        if name.split(".")[0] in ("bot", "solvers", "calibration", "gym") or name.startswith(".")
    ]
    assert wrong == []
