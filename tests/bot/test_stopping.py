"""The stop's rules, one table each: what a request does, when a stop raises, the folder's
status, the exit status, the forced end's order and times, the words said."""

import signal

import pytest

from logo_bot.bot import stopping
from logo_bot.bot.errors import Exit, FocusLost, UsageError
from logo_bot.bot.stopping import Request

R = Request


@pytest.mark.parametrize(
    ("settled", "asked", "hangup", "armed", "does"),
    [
        (False, False, False, True, R.FIRST),
        (False, False, True, True, R.FIRST),  # a hang-up is a stop like any other
        (False, False, False, False, R.FIRST),  # unarmed: still a stop
        (False, True, False, True, R.FORCE),  # a second Ctrl-C ends it at once
        (False, True, False, False, R.AGAIN),  # no logo-bot armed: nothing to force
        (False, True, True, True, R.DROP),  # a closed terminal hangs up twice: one stop
        (True, False, False, True, R.DROP),  # the exit status is known
        (True, True, False, True, R.DROP),
    ],
)
def test_what_a_request_does(settled, asked, hangup, armed, does):
    assert stopping.decide_request(settled, asked, hangup, armed) is does


@pytest.mark.parametrize(
    ("signum", "hangup_ignored", "taken"),
    [
        (signal.SIGINT, False, True),
        (signal.SIGTERM, False, True),
        (signal.SIGHUP, False, True),
        (signal.SIGHUP, True, False),  # nohup: the run outlives its terminal
        (signal.SIGINT, True, True),
        (signal.SIGTERM, True, True),
        (signal.SIGUSR1, False, False),
    ],
)
def test_which_signals_are_taken(signum, hangup_ignored, taken):
    assert stopping.takes_signal(signum, hangup_ignored) is taken


def test_sigterm_and_sighup_end_the_run_from_outside():
    """Their kind, ``Terminated``; each signal's words are checked through the signal
    thread in test_interrupts."""
    outside = {signum for signum in stopping.SIGNALS if stopping.terminates(signum)}
    assert outside == {signal.SIGTERM, signal.SIGHUP}


@pytest.mark.parametrize(
    ("stop", "words"),
    [
        (KeyboardInterrupt(), "stopped by Ctrl-C"),  # Python's own, with no words
        (KeyboardInterrupt("stopped by SIGTERM"), "stopped by SIGTERM"),
        (KeyboardInterrupt(stopping.abort_message("Pause")), "stopped by the Pause key"),
    ],
)
def test_how_a_stop_is_said(stop, words):
    assert stopping.how(stop) == words


@pytest.mark.parametrize(
    ("finishing", "now", "finish_by", "raises"),
    [
        (False, 1.0, 5.0, True),  # playing: at once
        (True, 1.0, 5.0, False),  # writing the folder: not yet
        (True, 5.0, 5.0, True),  # its time is up
        (True, 6.0, 5.0, True),
    ],
)
def test_when_a_safe_point_raises(finishing, now, finish_by, raises):
    assert stopping.raises_now(finishing, now, finish_by) is raises


@pytest.mark.parametrize(
    ("ended", "report", "status", "said"),
    [
        (KeyboardInterrupt("stopped by SIGHUP"), "complete", "aborted", "stopped by SIGHUP"),
        (KeyboardInterrupt(), None, "aborted", "stopped by Ctrl-C"),
        (FocusLost("no focus"), "complete", "failed", "no focus"),
        (ValueError("bad"), None, "failed", "ValueError: bad"),
        (None, "complete", "complete", None),
        (None, "failed", "failed", None),
        (None, "running", "failed", None),  # never "running" after the run
        (None, None, "failed", None),
    ],
)
def test_the_folders_status_as_play_ends(ended, report, status, said):
    assert stopping.play_status(ended, report) == (status, said)


@pytest.mark.parametrize(
    ("played", "stop", "expected"),
    [
        (
            None,  # still playing
            KeyboardInterrupt("stopped by Ctrl-C"),
            (
                "aborted",
                "stopped by Ctrl-C, then ended at once: R",
                "stopped by Ctrl-C, then ended at once: R",
            ),
        ),
        (
            ("complete", None),  # the folder was being written: play's status stands
            KeyboardInterrupt("stopped by SIGTERM"),
            ("complete", None, "stopped by SIGTERM, then ended at once: R"),
        ),
        (
            ("failed", "a level"),
            None,  # forced with no request recorded
            ("failed", "a level", "stopped, then ended at once: R"),
        ),
    ],
)
def test_the_folders_status_at_a_forced_end(played, stop, expected):
    assert stopping.forced_folder(played, stop, "R") == expected


def test_a_video_cut_short_says_by_what():
    stop = KeyboardInterrupt("stopped by the F12 key")
    assert stopping.written_while(stop) == "stopped by the F12 key while it was written"


@pytest.mark.parametrize(
    ("stopped", "now", "finish_by", "fit"),
    [
        (False, 10.0, 0.0, True),  # no stop: always
        (True, 1.0, 2.0, True),
        (True, 1.5, 2.0, True),  # just in time
        (True, 1.6, 2.0, False),
    ],
)
def test_when_the_report_draws_its_plots(stopped, now, finish_by, fit):
    assert stopping.plots_fit(stopped, now, finish_by) is fit


@pytest.mark.parametrize(
    ("outcome", "status"),
    [
        (0, 0),
        (8, 8),
        (UsageError("x"), Exit.USAGE),
        (FocusLost("x"), Exit.FOCUS),
        (KeyboardInterrupt("stopped by SIGHUP"), 130),
        (SystemExit(0), 0),  # --help
        (SystemExit(2), 2),  # argparse's usage error
        (SystemExit(None), 0),
        (SystemExit("a message"), 1),
        (RuntimeError("x"), 1),  # Python's, with its traceback
    ],
)
def test_the_exit_status(outcome, status):
    assert stopping.exit_status(outcome) == status


@pytest.mark.parametrize(("settled", "status"), [(None, 130), (0, 0), (4, 4)])
def test_a_forced_end_keeps_a_known_exit_status(settled, status):
    assert stopping.forced_exit(settled) == status


@pytest.mark.parametrize(
    ("hooks", "first", "order"),
    [
        (["kill", "folder", "fuse", "keys"], ["kill"], ["kill", "keys", "fuse", "folder"]),
        (["folder", "kill", "keys"], ["kill"], ["kill", "keys", "folder"]),
        (["a", "b", "c"], [], ["c", "b", "a"]),
        (["a", "b", "c"], ["a", "c"], ["c", "a", "b"]),
    ],
)
def test_the_forced_ends_order(hooks, first, order):
    assert stopping.hook_order(hooks, first) == order


def test_the_forced_end_is_bounded():
    assert stopping.HOOK_S <= stopping.HOOKS_S
    assert stopping.FOLDER_WAIT_S < stopping.HOOK_S
    assert stopping.FINISH_S < stopping.FORCE_AFTER_S
    assert stopping.FORCE_AFTER_S + stopping.HOOKS_S == 9.5  # the README's bound: within 10 s


@pytest.mark.parametrize(
    ("reason", "line"),
    [
        (
            stopping.second_stop("stopped by SIGTERM"),
            "logo-bot: a second stop (stopped by SIGTERM): ending at once",
        ),
        (stopping.took_too_long(), "logo-bot: the stop took over 8 s: ending at once"),
    ],
)
def test_the_forced_ends_line(reason, line):
    assert stopping.ending_line(reason) == line


def test_a_failed_callback_is_said():
    line = stopping.callback_failed_line(OSError("gone"))
    assert line == "logo-bot: while ending at once: OSError: gone"


@pytest.mark.parametrize(
    ("left_running", "line"),
    [
        (False, "\nlogo-bot level: stopped by SIGHUP; every key released, Fuse stopped"),
        (True, "\nlogo-bot level: stopped by SIGHUP; every key released, your Fuse runs on"),
    ],
)
def test_the_stopped_line(left_running, line):
    stop = KeyboardInterrupt("stopped by SIGHUP")
    assert stopping.stopped_line("level", stop, left_running) == line


@pytest.mark.parametrize(("build", "how"), [("sdl", "SIGTERM"), ("gtk", "the close message")])
def test_how_fuse_is_asked_to_quit(build, how):
    assert stopping.fuse_quit_by(build) == how


def test_each_program_gets_a_death_signal_it_obeys():
    assert stopping.FUSE_DEATH_SIGNAL == signal.SIGHUP  # fuse-gtk ignores SIGTERM
    assert stopping.DEATH_SIGNAL == signal.SIGTERM  # Xvfb removes its lock and socket
    assert stopping.FMFCONV_DEATH_SIGNAL == signal.SIGKILL
