"""Ctrl-C, SIGTERM and SIGHUP: each a KeyboardInterrupt, deferred past critical stretches."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from bot.interrupts import Terminated, critical, on_signal


@pytest.mark.parametrize(
    ("signum", "kind", "message"),
    [
        (signal.SIGINT, KeyboardInterrupt, ""),
        (signal.SIGTERM, Terminated, "stopped by SIGTERM"),
        (signal.SIGHUP, Terminated, "stopped by SIGHUP"),
    ],
)
def test_each_signal_is_an_interrupt_naming_it(signum, kind, message):
    with pytest.raises(KeyboardInterrupt) as caught:
        on_signal(signum)
    assert type(caught.value) is kind and str(caught.value) == message


def test_a_signal_inside_a_critical_stretch_is_raised_at_its_end():
    reached = []
    with pytest.raises(Terminated, match="SIGTERM"), critical():
        with critical():
            on_signal(signal.SIGTERM)
            on_signal(signal.SIGHUP)  # the first one is the one raised
            reached.append("inner")
        reached.append("outer")
    assert reached == ["inner", "outer"]


def run_cli_python(code: str, nohup: bool = False) -> subprocess.CompletedProcess:
    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # like a shell's background job
        if nohup:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)

    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=ignore,
    )


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_logo_bot_takes_each_signal_from_its_start_even_in_the_background(name):
    """``logo-bot`` installs its handlers first: a signal sent while a command has just
    started (before any Fuse) ends it with exit 130, even with SIGINT ignored before."""
    result = run_cli_python(
        f"""
        import os, signal, sys
        import bot.commands.runs as runs
        from bot import cli
        runs.main = lambda argv: os.kill(os.getpid(), signal.{name}) or 0
        sys.exit(cli.main(["runs"]))
        """
    )
    assert result.returncode == 130, result.stderr
    how = "Ctrl-C" if name == "SIGINT" else name
    assert f"logo-bot runs: stopped by {how}" in result.stderr


def test_under_nohup_a_sighup_leaves_the_command_running():
    """``nohup logo-bot ...``: the person asked the run to outlive the terminal."""
    result = run_cli_python(
        """
        import os, signal, sys
        import bot.commands.runs as runs
        from bot import cli
        runs.main = lambda argv: os.kill(os.getpid(), signal.SIGHUP) or 0
        sys.exit(cli.main(["runs"]))
        """,
        nohup=True,
    )
    assert result.returncode == 0, result.stderr
    assert "stopped" not in result.stderr


def test_after_sighup_nothing_is_written_to_the_terminal_that_went(tmp_path):
    """SIGHUP: the terminal is gone, so standard output and error are sent nowhere (a write
    to a hung-up terminal would fail); a file or pipe is left as it is."""
    import pty

    leader, follower = pty.openpty()
    code = textwrap.dedent(
        """
        import os, signal, sys
        from bot.interrupts import on_signal
        try:
            on_signal(signal.SIGHUP)
        except KeyboardInterrupt:
            pass
        print("after", flush=True)
        sys.stderr.write("to the pipe\\n")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        stdout=follower,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    os.close(follower)
    os.set_blocking(leader, False)
    try:
        seen = os.read(leader, 1000)
    except (BlockingIOError, OSError):
        seen = b""
    os.close(leader)
    assert result.returncode == 0, result.stderr
    assert b"after" not in seen
    assert result.stderr == "to the pipe\n"


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_while_the_command_is_imported_waits_for_the_import(name):
    """A signal during the command's imports is taken when they are done: exit 130 and
    one line, where it could break an import (numpy turns the interrupt into an
    ImportError) and end with a traceback."""
    result = run_cli_python(
        f"""
        import importlib, os, signal, sys
        from bot import cli
        real = importlib.import_module

        def import_module(name, *args):
            if name == "bot.commands.runs":
                try:
                    os.kill(os.getpid(), signal.{name})
                except KeyboardInterrupt:  # as numpy's C extension does
                    raise ImportError("PyCapsule_Import could not import module") from None
            return real(name, *args)

        cli.importlib.import_module = import_module
        sys.exit(cli.main(["runs"]))
        """
    )
    how = "Ctrl-C" if name == "SIGINT" else name
    assert result.returncode == 130, result.stderr
    (line,) = result.stderr.strip().splitlines()  # no traceback
    assert line.startswith(f"logo-bot runs: stopped by {how}")
