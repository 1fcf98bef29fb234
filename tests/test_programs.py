"""The check behind the marks: the shims log every watched program a test runs, with
the PID the program keeps, and the verdicts say which mark is missing or wrong."""

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.programs import (
    QUICK_EXPRESSION,
    ProgramLog,
    alive,
    needed_marks,
    verdict,
    write_shims,
)


def test_verdicts():
    assert verdict({"fuse"}, {"fuse-sdl", "Xvfb", "ffmpeg"}) is None
    assert verdict(set(), set()) is None
    assert verdict({"ffmpeg"}, {"ffprobe"}) is None
    assert verdict({"xserver"}, set(), uses_xserver=True) is None
    assert "add @pytest.mark.fuse" in verdict(set(), {"fuse-gtk"})
    assert "add @pytest.mark.fuse" in verdict({"xserver"}, {"fuse-sdl", "Xvfb"})
    assert "add @pytest.mark.ffmpeg" in verdict({"xserver"}, {"Xvfb", "fmfconv"})
    assert "add @pytest.mark.xserver" in verdict(set(), {"Xvfb"})
    assert "marked fuse, but it runs no fuse" in verdict({"fuse"}, {"Xvfb"})
    assert "marked ffmpeg" in verdict({"ffmpeg"}, set())
    assert "marked xserver" in verdict({"xserver"}, set())
    assert needed_marks({"Xvfb", "ffmpeg"}) == {"xserver", "ffmpeg"}


def shimmed(tmp_path, quick: bool) -> tuple[ProgramLog, dict[str, str]]:
    log = ProgramLog(tmp_path / "programs.log")
    real = tmp_path / "real"
    real.mkdir()
    fake = real / "fuse-sdl"  # stands for the real program: prints its own PID
    fake.write_text('#!/bin/sh\necho "$$ $*"\n')
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{real}{os.pathsep}/usr/bin:/bin"}
    saved = os.environ["PATH"]
    os.environ["PATH"] = env["PATH"]
    try:
        names = write_shims(tmp_path / "bin", log.path, quick=quick)
    finally:
        os.environ["PATH"] = saved
    assert "fuse-sdl" in names
    env["PATH"] = f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}"
    return log, env


def test_a_shim_logs_the_pid_the_real_program_keeps(tmp_path):
    log, env = shimmed(tmp_path, quick=False)
    offset = log.size()
    out = subprocess.run(
        ["fuse-sdl", "--speed", "200"], env=env, capture_output=True, text=True, check=True
    ).stdout
    pid, args = out.split(" ", 1)
    assert args.strip() == "--speed 200"
    assert log.since(offset) == [(int(pid), "fuse-sdl")]
    assert log.since(log.size()) == []


def test_in_the_quick_suite_a_shim_refuses_and_says_which_mark(tmp_path):
    log, env = shimmed(tmp_path, quick=True)
    done = subprocess.run(["fuse-sdl"], env=env, capture_output=True, text=True)
    assert done.returncode == 127 and done.stdout == ""
    assert "mark the test 'fuse'" in done.stderr
    assert [name for _, name in log.since(0)] == ["fuse-sdl"]


def test_other_processes_are_not_logged_and_alive_tells_the_end(tmp_path):
    log, env = shimmed(tmp_path, quick=False)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], env=env)
    try:
        assert log.since(0) == []
        name = os.path.basename(sys.executable)[:15]
        assert alive(sleeper.pid, name)
        assert not alive(sleeper.pid, "fuse-sdl"), "a PID that is another program"
        sleeper.kill()
        deadline = time.monotonic() + 5
        while alive(sleeper.pid, name) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not alive(sleeper.pid, name), "killed but not yet reaped: a zombie is not alive"
    finally:
        sleeper.kill()
        sleeper.wait()


def test_asking_a_version_is_not_running_the_program(tmp_path):
    log, env = shimmed(tmp_path, quick=False)
    subprocess.run(["fuse-sdl", "--version"], env=env, capture_output=True, check=True)
    assert log.since(0) == []


def test_the_quick_suite_selects_by_these_marks():
    script = (Path(__file__).resolve().parents[1] / "scripts" / "test.sh").read_text()
    assert f'-m "{QUICK_EXPRESSION}"' in script
