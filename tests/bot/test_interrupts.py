"""Ctrl-C, SIGTERM, SIGHUP and the abort key: requests honoured at safe points, bounded."""

import select
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from logo_bot.bot import interrupts
from logo_bot.bot.interrupts import Stopped, Terminated


@pytest.fixture(autouse=True)
def fresh_requests():
    interrupts.reset()
    yield
    interrupts.reset()


@pytest.mark.parametrize(
    ("signum", "kind", "message"),
    [
        (signal.SIGINT, Stopped, "stopped by Ctrl-C"),
        (signal.SIGTERM, Terminated, "stopped by SIGTERM"),
        (signal.SIGHUP, Terminated, "stopped by SIGHUP"),
    ],
)
def test_each_signal_is_a_request_raised_only_at_a_safe_point(signum, kind, message):
    interrupts.take_signal(signum)  # what the signal thread does: nothing is raised here
    assert str(interrupts.requested()) == message
    with pytest.raises(KeyboardInterrupt) as caught:
        interrupts.check()
    assert type(caught.value) is kind and str(caught.value) == message


def test_no_request_no_stop():
    assert interrupts.requested() is None
    interrupts.check()
    interrupts.sleep(0.001)


def test_the_first_request_is_the_one_raised():
    interrupts.request("stopped by the F12 key")
    interrupts.take_signal(signal.SIGTERM)  # not armed (no install): only noted
    with pytest.raises(Stopped, match="F12"):
        interrupts.check()


def test_a_request_from_another_thread_ends_a_long_sleep_at_once(monkeypatch):
    monkeypatch.setattr(interrupts, "SLICE_S", 60.0)  # no safe point but the first
    threading.Timer(0.05, interrupts.request, ("stopped by the Pause key",)).start()
    started = time.monotonic()
    with pytest.raises(Stopped, match="Pause"):
        interrupts.sleep(30)
    assert time.monotonic() - started < 10  # woken by the request, not the 30 s


def test_the_stop_pipe_is_readable_from_the_first_request_until_a_reset():
    (fd,) = interrupts.stop_fds()
    assert not select.select([fd], [], [], 0)[0]
    interrupts.request("stopped by Ctrl-C")
    interrupts.request("stopped by Ctrl-C")  # a second: no second byte needed
    assert select.select([fd], [], [], 0)[0]
    assert interrupts.stop_fds() == ()  # a wait now has the stop at its safe point
    interrupts.reset()
    assert interrupts.stop_fds() == (fd,)
    assert not select.select([fd], [], [], 0)[0]


def test_a_sleep_while_the_folder_is_written_after_a_stop_does_not_spin(monkeypatch):
    monkeypatch.setattr(interrupts, "SLICE_S", 0.05)
    calls = []
    real = select.select
    monkeypatch.setattr(select, "select", lambda *a: calls.append(a) or real(*a))
    (fd,) = interrupts.stop_fds()
    interrupts.request("stopped by Ctrl-C")
    with interrupts.finishing():
        interrupts.sleep(0.2)  # the stop pipe is readable, and not watched
    assert 1 <= len(calls) <= 10
    assert all(fd not in call[0] for call in calls)


def test_writing_the_folder_goes_on_until_its_deadline(monkeypatch):
    interrupts.request("stopped by Ctrl-C")
    with interrupts.finishing():
        interrupts.check()  # within FINISH_S of the stop: the writing goes on
        interrupts.sleep(0.001)
        monkeypatch.setattr(interrupts, "FINISH_S", 0.0)
        with pytest.raises(Stopped):
            interrupts.check()
    with pytest.raises(Stopped):
        interrupts.check()  # outside, at once


def test_a_force_hook_can_be_removed():
    ran = []
    remove = interrupts.on_force(ran.append)
    remove()
    remove()  # twice: nothing
    assert interrupts._state.hooks == []


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
        import logo_bot.bot.commands.runs as runs
        from logo_bot.bot import cli
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
        import logo_bot.bot.commands.runs as runs
        from logo_bot.bot import cli
        runs.main = lambda argv: os.kill(os.getpid(), signal.SIGHUP) or 0
        sys.exit(cli.main(["runs"]))
        """,
        nohup=True,
    )
    assert result.returncode == 0, result.stderr
    assert "stopped" not in result.stderr


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_while_the_command_is_imported_waits_for_the_import(name):
    """A signal during the command's imports is taken when they are done: exit 130 and
    one line (a signal raised inside an import could break it: numpy turned the
    interrupt into an ImportError)."""
    result = run_cli_python(
        f"""
        import importlib, os, signal, sys, time
        from logo_bot.bot import cli
        real = importlib.import_module

        def import_module(name, *args):
            if name == "logo_bot.bot.commands.runs":
                os.kill(os.getpid(), signal.{name})
                # the signal thread records it meanwhile (waited for: a busy machine)
                deadline = time.monotonic() + 30
                while cli.interrupts.requested() is None and time.monotonic() < deadline:
                    time.sleep(0.001)
            return real(name, *args)

        cli.importlib.import_module = import_module
        sys.exit(cli.main(["runs"]))
        """
    )
    how = "Ctrl-C" if name == "SIGINT" else name
    assert result.returncode == 130, result.stderr
    (line,) = result.stderr.strip().splitlines()  # no traceback
    assert line.startswith(f"logo-bot runs: stopped by {how}")


def run_armed(body: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``body`` in a Python whose stops are taken as logo-bot takes them (``install``)."""
    code = "import os, signal, sys, time\n"
    code += "from logo_bot.bot import interrupts\ninterrupts.install()\n"
    return subprocess.run(
        [sys.executable, "-c", code + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_never_raises_inside_the_code_it_lands_in(name):
    """Signals come while a stretch runs that must not be cut (an X request); the
    stretch ends whole and the stop is raised at the next safe point."""
    result = run_armed(
        f"""
        done = 0
        os.kill(os.getpid(), signal.{name})
        deadline = time.monotonic() + 30  # the signal thread records it meanwhile
        while interrupts.requested() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        done += 1
        print("stretch done", done, str(interrupts.requested()))
        try:
            interrupts.check()
        except interrupts.Stopped as stop:
            print("raised at the safe point:", stop)
        """
    )
    how = "Ctrl-C" if name == "SIGINT" else name
    assert result.returncode == 0, result.stderr
    assert f"stretch done 1 stopped by {how}" in result.stdout
    assert f"raised at the safe point: stopped by {how}" in result.stdout
    assert "Traceback" not in result.stderr


def test_a_safe_point_reads_the_pipe_only_once_a_signal_came_and_then_at_once():
    """The safe points are many (several a key): one that follows no signal makes no
    system call; one that follows a signal sees it at once, even before the signal
    thread has run (here it never does)."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(
            """
            import os, signal, threading
            from logo_bot.bot import interrupts
            threading.Thread.start = lambda self: None  # no signal thread
            interrupts.install()
            reads, real = [], os.read
            os.read = lambda fd, n: reads.append(fd) or real(fd, n)
            interrupts.check()
            print("reads with no signal:", len(reads))
            os.kill(os.getpid(), signal.SIGTERM)
            try:
                interrupts.check()
            except interrupts.Stopped as stop:
                print("raised at once:", stop, "reads:", len(reads))
            """
        )],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "reads with no signal: 0" in result.stdout
    assert "raised at once: stopped by SIGTERM reads: 1" in result.stdout


@pytest.mark.parametrize("gap_s", [0.0, 0.08])  # the Fuse test tries 5-200 ms
def test_a_second_signal_ends_the_process_at_once_with_the_hooks_run(gap_s, tmp_path):
    """Ctrl-C twice (or two SIGTERMs) while the orderly stop hangs: the force hooks run,
    exit 130, no traceback from any thread."""
    mark = tmp_path / "hook"
    result = run_armed(
        f"""
        interrupts.on_force(lambda why: open({str(mark)!r}, "w").write(why))
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep({gap_s})
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)  # an orderly stop that never ends
        print("not ended")
        """
    )
    assert result.returncode == 130, result.stdout + result.stderr
    assert "not ended" not in result.stdout
    assert "Traceback" not in result.stderr and "Exception in thread" not in result.stderr
    assert mark.read_text() == "a second stop (stopped by Ctrl-C)"


def test_a_stop_that_is_not_honoured_is_forced_by_the_watchdog(tmp_path):
    """One signal, and code that never reaches a safe point: the watchdog ends it with
    the hooks run (bounded), exit 130."""
    mark = tmp_path / "hook"
    result = run_armed(
        f"""
        interrupts.FORCE_AFTER_S = 0.5
        interrupts.on_force(lambda why: open({str(mark)!r}, "w").write(why))
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(30)
        print("not ended")
        """
    )
    assert result.returncode == 130, result.stdout + result.stderr
    assert mark.read_text() == "the stop took over 0.5 s"
    assert "ending at once" in result.stderr


def test_a_hook_that_hangs_does_not_hold_the_end():
    result = run_armed(
        """
        interrupts.HOOK_S = 0.2
        interrupts.on_force(lambda why: time.sleep(60))
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(30)
        """
    )
    assert result.returncode == 130


def test_a_terminal_that_hangs_up_twice_is_one_orderly_stop(tmp_path):
    """Closing a terminal sends SIGHUP from the shell and again from the kernel: no
    forced end (a second SIGTERM or Ctrl-C still forces one)."""
    result = run_armed(
        """
        interrupts.on_force(lambda why: print("forced", why, flush=True))
        os.kill(os.getpid(), signal.SIGHUP)
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.3)
        try:
            interrupts.check()
        except interrupts.Stopped as stop:
            print("orderly:", stop)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "orderly: stopped by SIGHUP" in result.stdout and "forced" not in result.stdout


def test_hooks_run_newest_first_and_those_asked_first_before_all(tmp_path):
    """The programs are killed first (no ffmpeg writes after the folder is marked)."""
    result = run_armed(
        """
        for name, first in (("folder", False), ("programs", True), ("keys", False)):
            interrupts.on_force(lambda why, n=name: print(n, flush=True), first=first)
        interrupts.request("one")
        interrupts.request("two")
        time.sleep(30)
        """
    )
    assert result.returncode == 130
    assert result.stdout.split() == ["programs", "keys", "folder"]


def test_two_hangups_taken_on_two_threads_at_once_are_one_orderly_stop():
    """A closed terminal hangs up twice, and the two signals may be read at once: one by
    the signal thread, one at a safe point, both past the hang-up action before either
    asks to stop (here both are held at the request until the other is there too). That
    is one stop, never a forced end."""
    result = run_armed(
        """
        import threading
        interrupts.install(on_hangup=lambda: None)
        interrupts.on_force(lambda why: print("forced", why, flush=True))
        both, real = threading.Barrier(2, timeout=10), interrupts.request
        def request(*args, **kwargs):
            both.wait()
            real(*args, **kwargs)
        interrupts.request = request
        readers = [
            threading.Thread(target=interrupts.take_signal, args=(signal.SIGHUP,))
            for _ in range(2)
        ]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        try:
            interrupts.check()
        except interrupts.Stopped as stop:
            print("orderly:", stop, interrupts._state.requests)
        """
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "orderly: stopped by SIGHUP 1" in result.stdout and "forced" not in result.stdout


@pytest.mark.parametrize("when", ["after main returned", "at exit", "last at exit"])
def test_signals_once_the_status_is_known_do_not_change_it(when):
    """``logo-bot`` has finished and has its status: a Ctrl-C, SIGTERM or SIGHUP then
    (after its last line, at the exit, after the exit's own handlers, where Python's
    shutdown follows) neither forces an end (130) nor kills the process (a parent would
    see death by signal)."""
    early = "atexit.register(signals)" if when == "last at exit" else ""
    late = {"after main returned": "signals()", "at exit": "atexit.register(signals)"}
    late = late.get(when, "")
    result = run_cli_python(
        f"""
        import atexit, os, signal, sys, time
        import logo_bot.bot.commands.runs as runs
        from logo_bot.bot import cli, interrupts
        runs.main = lambda argv: print("the command's last line", flush=True) or 3
        taken, take = [], interrupts.take_signal
        interrupts.take_signal = lambda signum: taken.append(signum) or take(signum)

        def signals():
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                os.kill(os.getpid(), getattr(signal, name))
            if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:  # read: wait for all three
                deadline = time.monotonic() + 30
                while len(taken) < 3 and time.monotonic() < deadline:
                    time.sleep(0.001)

        {early}
        status = cli.main(["runs"])
        {late}
        sys.exit(status)
        """
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert "ending at once" not in result.stderr


def test_a_forced_end_gives_all_its_hooks_one_deadline():
    """Hooks that all hang: the forced end waits ``HOOKS_S`` in all, not ``HOOK_S`` for
    each, so that it ends within the promised bound however many there are."""
    result = run_armed(
        """
        for _ in range(8):
            interrupts.on_force(lambda why: time.sleep(60))
        print(time.monotonic(), flush=True)
        interrupts.request("one")
        interrupts.request("two")
        time.sleep(60)
        """
    )
    ended = time.monotonic()
    assert result.returncode == 130, result.stderr
    forced_at = float(result.stdout.split()[0])
    assert ended - forced_at < interrupts.HOOKS_S + 2 < 8 * interrupts.HOOK_S


def test_a_full_stderr_pipe_does_not_hold_a_forced_end():
    """stderr is a pipe nobody reads, full: the forced end's line cannot be written,
    and the process ends all the same."""
    code = textwrap.dedent(
        """
        import os, time
        from logo_bot.bot import interrupts
        interrupts.install()
        os.set_blocking(2, False)
        try:
            while True:
                os.write(2, b"x" * 65536)
        except BlockingIOError:
            pass
        os.set_blocking(2, True)
        print("stderr full", flush=True)
        interrupts.request("one")
        interrupts.request("two")
        time.sleep(60)
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "stderr full\n"
        status = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
    assert status == 130
