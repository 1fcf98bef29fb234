"""The check behind the fuse mark: it sees a Fuse this process starts, and only its own."""

import subprocess
import sys

import pytest

from bot.fuse.emulator import Fuse, FuseConfig
from tests.fuse_marks import FuseWatch, verdict


def test_verdicts():
    assert verdict(True, True) is None and verdict(False, False) is None
    assert "take the mark off" in verdict(True, False)
    assert "add @pytest.mark.fuse" in verdict(False, True)


@pytest.mark.fuse
def test_a_fuse_started_here_is_seen(xserver):
    with FuseWatch() as watch:
        fuse = Fuse.start(FuseConfig(), xserver.display)
        pid = fuse.pid
        fuse.stop()
    assert pid in watch.seen


def test_other_processes_are_not_fuse():
    with FuseWatch() as watch:
        subprocess.run([sys.executable, "-c", "import time; time.sleep(0.1)"], check=True)
    assert watch.seen == set()
