"""bot/README.md's reading path is the one a run takes: the modules on the call stack
when a walkthrough sends its first key event, in the order the README lists them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from logo_bot import bot

README = Path(bot.__file__).resolve().parent / "README.md"
REPO = README.parents[1]


def listed_path(text: str) -> list[str]:
    """The modules of the README's numbered reading path, in order."""
    section = text.split("## Reading one walkthrough", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"(?m)^\d+\. `([\w/]+\.py)`", section)


def test_the_reading_path_is_read_from_the_numbered_list():
    text = "## Reading one walkthrough\n1. `cli.py`: x\n2. `play/env.py`: y\n## Layers\n3. `z.py`"
    assert listed_path(text) == ["cli.py", "play/env.py"]


@pytest.mark.fuse
def test_the_readme_lists_the_modules_a_run_passes_to_its_first_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.bot.first_key_stack", str(tmp_path / "runs")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    said = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    modules = [x["modules"] for x in said if "modules" in x]
    ended = [x["exit"] for x in said if "exit" in x]
    assert len(modules) == 1, (done.stdout, done.stderr)
    # the tracer stops the run once it has the stack: an orderly stop (130), or on a very
    # busy machine a stop over its time, which ends the process itself at once (130)
    if ended:
        assert done.returncode == 0 and ended == [130], (done.stdout, done.stderr)
    else:
        assert done.returncode == 130 and "the stop took over" in done.stderr, done.stderr
    assert listed_path(README.read_text()) == modules[0]
