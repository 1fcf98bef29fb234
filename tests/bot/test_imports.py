"""The bot's import graph: no cycles, each layer imports only the layers below it, and
nothing shipped imports the practice game, the fault injection or the tests."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

from logo_bot import bot

ROOT = Path(bot.__file__).resolve().parent
# Each folder (or top-level module) of bot/ and the bot packages it may import.
BASE = {"errors", "frames", "interrupts", "processes", "stopping"}  # below every layer
ALLOWED = {
    "errors": set(),
    "frames": set(),
    "stopping": {"errors"},
    "interrupts": {"stopping"},
    "reaper": set(),
    "processes": {"reaper", "stopping"},
    "installation": set(),
    "terminal": set(),
    "profile_toml": {"errors"},
    "profile": {"errors", "frames", "installation", "profile_toml"},
    "x11": {*BASE, "profile"},
    "see": {"errors", "frames", "profile"},
    "fuse": {*BASE, "profile", "x11", "see"},
    "play": {*BASE, "profile", "x11", "see", "fuse"},
    "recording": {*BASE, "installation", "profile", "x11", "see", "fuse", "play"},
    "commands": {*BASE, "installation", "profile", "x11", "see", "fuse", "play", "recording"},
    "cli": {
        "errors",
        "installation",
        "interrupts",
        "processes",
        "stopping",
        "terminal",
        "commands",
    },
}
FORBIDDEN_TOP = {"game", "faults", "tests", "benchmarks", "jsonschema"}


def module_name(path: Path) -> str:
    parts = ("logo_bot", *path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in ROOT.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """Every module ``name`` imports, at any depth of its code (also under TYPE_CHECKING)."""
    tree = ast.parse(MODULES[name].read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(
                f"{node.module}.{a.name}"
                for a in node.names
                if f"{node.module}.{a.name}" in MODULES
            )
    return found


GRAPH = {name: {m for m in imports_of(name) if m in MODULES} for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def layer(name: str) -> str:
    """``x11`` for ``logo_bot.bot.x11.keys``; "" for the bot package itself."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 else ""


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_the_bot():
    assert find_cycle(GRAPH) is None


def test_each_layer_imports_only_the_layers_below_it():
    wrong = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if layer(name) in ALLOWED
        for target in targets
        if layer(target) != layer(name)
        and target != "logo_bot.bot"
        and layer(target) not in ALLOWED[layer(name)]
    ]
    assert wrong == []
    assert set(ALLOWED) >= {layer(n) for n in MODULES if layer(n)}, "a folder with no rule"


def layers_named(docstring: str) -> set[str]:
    """The bot layers a package docstring says it may import: every ``bot.NAME`` before
    the word "never" (what follows "never" is what it must not import)."""
    return set(re.findall(r"\bbot\.(\w+)", docstring.split("never")[0]))


def test_each_folders_docstring_names_the_layers_it_may_import():
    assert layers_named("Imports ``bot.x11`` (and ``bot.errors``); never ``bot.play``.") == {
        "x11",
        "errors",
    }
    folders = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    assert {"recording", "commands"} <= set(folders)
    named = {
        folder: layers_named(
            ast.get_docstring(ast.parse(MODULES[f"logo_bot.bot.{folder}"].read_text())) or ""
        )
        for folder in folders
    }
    assert named == {folder: ALLOWED[folder] for folder in folders}


def test_nothing_shipped_imports_the_game_faults_or_tests():
    wrong = [
        f"{name} imports {target}"
        for name in MODULES
        for target in imports_of(name)
        if target.split(".")[0] in FORBIDDEN_TOP
    ]
    assert wrong == []


OLD_IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+(bot|solvers|calibration)\b", re.MULTILINE)


def test_the_projects_parts_are_imported_only_through_logo_bot():
    """In a checkout ``bot`` is also importable on its own: a module that did so would be
    a second copy of the one imported through logo_bot (and absent from the wheel)."""
    repo = ROOT.parent
    folders = [p for p in repo.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))]
    sources = [p for f in folders for p in f.rglob("*.py") if "build" not in p.parts]
    assert len(sources) > 300
    wrong = [
        f"{path.relative_to(repo)} imports {found.group(1)}"
        for path in sources
        for found in OLD_IMPORT.finditer(path.read_text())
    ]
    assert wrong == []
    assert OLD_IMPORT.search("x = 1\n    from bot.x11 import keys\n")
    assert not OLD_IMPORT.search("from logo_bot.bot.x11 import keys\nimport botany\n")


def test_the_bot_imports_numpy_with_no_blas_worker_thread_spinning():
    """OpenBLAS starts a worker per core at numpy's import (each spins about 0.1 s of CPU):
    a process that imports the bot, whose environment says nothing, has one thread only;
    one that says how many threads it wants keeps its own figure."""
    code = "import os, logo_bot.bot.see.vision; print(len(os.listdir('/proc/self/task')))"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for wanted, threads in ((None, 1), ("1", 1)):
        if wanted is not None:
            env["OPENBLAS_NUM_THREADS"] = wanted
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)  # fmt: skip
        assert int(out.stdout) == threads
    said = "import os, logo_bot.bot; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run([sys.executable, "-c", said], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "2"
