"""A terminal that goes away: writes to it never fail, and SIGHUP leaves it at once.

Each test hangs up a real pty by closing its leader (the terminal window's side), as a
closed terminal window or ``tmux kill-window`` does."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import textwrap

import pytest

from logo_bot.bot.terminal import GuardedStream, guard_streams, is_terminal


@pytest.fixture
def hung_up():
    """The follower side of a pty whose leader is closed: every write fails with EIO."""
    leader, follower = pty.openpty()
    os.close(leader)
    yield follower
    os.close(follower)


def test_a_write_to_a_hung_up_terminal_fails_without_the_guard(hung_up):
    stream = open(os.dup(hung_up), "w", encoding="utf-8")  # noqa: SIM115
    with pytest.raises(OSError):
        stream.write("x\n")
        stream.flush()
    os.close(stream.fileno())  # (its buffer still holds the line: no close, no flush)


def test_a_guarded_stream_on_a_hung_up_terminal_is_lost_and_goes_to_devnull(hung_up):
    fd = os.dup(hung_up)
    guarded = GuardedStream(open(fd, "w", encoding="utf-8"))  # noqa: SIM115
    assert guarded.write("the first line\n") == len("the first line\n")
    guarded.flush()
    assert guarded.lost and not guarded.isatty()
    assert os.readlink(f"/proc/self/fd/{fd}") == os.devnull
    print("later", file=guarded, flush=True)  # nowhere, and no error
    guarded.stream.close()  # what it still held went to /dev/null


def test_a_pipe_whose_reader_has_gone_is_lost_too():
    read_end, write_end = os.pipe()
    os.close(read_end)
    guarded = GuardedStream(open(write_end, "w", encoding="utf-8"))  # noqa: SIM115
    guarded.write("x" * 100_000)  # more than the buffer: written now, EPIPE
    guarded.flush()
    assert guarded.lost
    guarded.stream.close()


def test_a_closed_stream_is_lost_and_its_old_number_left_alone():
    stream = io.StringIO()
    guarded = GuardedStream(stream)
    stream.close()
    guarded.write("x")
    assert guarded.lost


def test_a_working_stream_is_written_and_answers_as_itself():
    stream = io.StringIO()
    guarded = GuardedStream(stream)
    guarded.writelines(["a", "b\n"])
    guarded.flush()
    assert stream.getvalue() == "ab\n" and not guarded.lost
    assert guarded.getvalue() == "ab\n"  # anything else is the stream's


def test_a_terminal_is_told_also_once_it_has_hung_up(hung_up):
    leader, follower = pty.openpty()
    read_end, write_end = os.pipe()
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        assert is_terminal(follower)
        assert not os.isatty(hung_up) and is_terminal(hung_up)  # isatty: EIO, "no"
        assert not is_terminal(write_end) and not is_terminal(null)
        os.close(null)
        assert not is_terminal(null)  # closed
    finally:
        for fd in (leader, follower, read_end, write_end):
            os.close(fd)


def run_python(code: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], **popen)


@pytest.mark.parametrize("buffered", [True, False])
def test_writes_to_a_terminal_that_hung_up_fail_neither_the_program_nor_its_exit(buffered):
    """Unguarded, the print after the hang-up fails (exit 1), or Python's own flush at
    exit does, on the text it still holds (exit 120)."""
    code = """
        import os, sys
        from logo_bot.bot.terminal import guard_streams
        if sys.argv[2:] == ["guard"]:
            guard_streams()
        sys.stdout.write("held in the buffer, no newline")
        os.write(int(sys.argv[1]), b"written")
        sys.stdin.readline()  # the terminal is closed meanwhile
        print("after the hang-up", end="")
        """
    env = dict(os.environ)
    if buffered:
        env.pop("PYTHONUNBUFFERED", None)
    else:
        env["PYTHONUNBUFFERED"] = "1"
    results = {}
    for guard in (False, True):
        leader, follower = pty.openpty()
        ready_read, ready_write = os.pipe()
        process = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code), str(ready_write)]
            + (["guard"] if guard else []),
            stdin=subprocess.PIPE,
            stdout=follower,
            stderr=subprocess.PIPE,
            pass_fds=(ready_write,),
            env=env,
        )
        os.close(follower)
        os.close(ready_write)
        assert os.read(ready_read, 10) == b"written"
        os.close(ready_read)
        os.close(leader)  # the terminal window closes
        _, err = process.communicate(b"go\n", timeout=30)
        results[guard] = (process.returncode, err.decode())
    assert results[False][0] == (120 if buffered else 1), results  # what the guard is for
    assert results[True] == (0, ""), results


def test_leave_terminal_sends_a_hung_up_terminal_to_devnull_and_leaves_a_pipe():
    """SIGHUP comes when the terminal is already gone: standard input and output, a
    terminal, read and write /dev/null; standard error, a pipe, is kept."""
    code = """
        import os, sys
        from logo_bot.bot.terminal import leave_terminal
        os.read(int(sys.argv[1]), 1)  # the terminal is closed meanwhile
        leave_terminal()
        print(os.readlink("/proc/self/fd/0"), os.readlink("/proc/self/fd/1"), file=sys.stderr)
        print("to the terminal that went", flush=True)
        """
    leader, follower = pty.openpty()
    go_read, go_write = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), str(go_read)],
        stdin=follower,
        stdout=follower,
        stderr=subprocess.PIPE,
        pass_fds=(go_read,),
    )
    os.close(follower)
    os.close(leader)
    os.write(go_write, b"x")
    _, err = process.communicate(timeout=30)
    os.close(go_read)
    os.close(go_write)
    assert process.returncode == 0, err
    assert err.decode().split() == [os.devnull, os.devnull]


def test_guard_streams_wraps_each_stream_once(monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    guard_streams()
    guard_streams()
    assert isinstance(sys.stdout, GuardedStream) and sys.stdout.stream is out
    assert isinstance(sys.stderr, GuardedStream) and sys.stderr.stream is err
