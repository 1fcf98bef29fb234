"""End-to-end: Ctrl-C in an agent's loop (SIGINT to its Python) leaves nothing running:
neither the Fuse nor the Xvfb the environment started."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading

import pytest

from logo_bot.bot.installation import PACKAGES_ROOT as REPO_ROOT

pytestmark = pytest.mark.fuse

START_S = 120  # a Fuse and an Xvfb started, and level 2 loaded, at a load of 30
STOP_S = 30  # from the Ctrl-C to the agent's end

AGENT = """
import gymnasium
import logo_bot.gym

env = gymnasium.make("logo_bot.gym:Logo-v0", headless=True, speed=200, max_steps=10**9)
env.reset(options={"level": 2})
session = env.unwrapped.session
print(session.fuse.process.pid, session.xserver.process.pid, flush=True)
while True:  # a random agent, never done
    env.step(env.action_space.sample())
"""


def test_ctrl_c_in_an_agents_loop_leaves_nothing_running():
    agent = subprocess.Popen(
        [sys.executable, "-c", AGENT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Start-up may be slow on a busy machine; the stop itself is bounded on its own.
    watchdog = threading.Timer(START_S, agent.kill)
    watchdog.start()
    try:
        line = agent.stdout.readline()  # the agent plays once this is written
        watchdog.cancel()
        assert line, f"the agent never started to play within {START_S} s"
        fuse, xvfb = (int(pid) for pid in line.split())
        agent.send_signal(signal.SIGINT)
        try:
            _, err = agent.communicate(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the agent still ran {STOP_S} s after its Ctrl-C")
    finally:
        watchdog.cancel()
        if agent.poll() is None:
            agent.kill()
        agent.wait()
    # Python ends an uncaught KeyboardInterrupt by SIGINT, as a shell expects
    assert "KeyboardInterrupt" in err, (agent.returncode, err)
    assert agent.returncode == -signal.SIGINT, (agent.returncode, err)
    for pid in (fuse, xvfb):
        assert not running(pid), f"process {pid} still runs after the agent's Ctrl-C"


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: its parent, the agent, is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
