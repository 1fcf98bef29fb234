"""The check behind the fuse mark: it sees a Fuse this process starts, and only its own."""

import subprocess
import sys
import time

import pytest

from bot.fuse.emulator import Fuse, FuseConfig
from tests.fuse_marks import FuseWatch, verdict


def test_verdicts():
    assert verdict(True, True) is None and verdict(False, False) is None
    assert "take the mark off" in verdict(True, False)
    assert "add @pytest.mark.fuse" in verdict(False, True)


@pytest.mark.fuse
def test_a_fuse_started_here_is_counted_and_one_below_is_seen(xserver):
    with FuseWatch() as watch:
        fuse = Fuse.start(FuseConfig(), xserver.display)
        deadline = time.monotonic() + 5
        while fuse.pid not in watch.seen and time.monotonic() < deadline:
            time.sleep(0.01)
        fuse.stop()
    assert watch.started == 1 and fuse.pid in watch.seen


@pytest.mark.fuse  # a program called fuse-sdl runs: the check itself counts it as Fuse
def test_a_fuse_that_dies_at_once_is_counted(tmp_path):
    fake = tmp_path / "fuse-sdl"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    with FuseWatch() as watch:
        subprocess.run([str(fake)], check=False)
    assert watch.started == 1 and watch.ran_fuse


def test_other_processes_are_not_fuse():
    with FuseWatch() as watch:
        subprocess.run([sys.executable, "-c", "import time; time.sleep(0.1)"], check=True)
    assert watch.seen == set() and not watch.ran_fuse
