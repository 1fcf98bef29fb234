"""The stop's rules, in the order a stop goes through them: read this to learn the whole stop.

A person stops ``logo-bot`` with Ctrl-C (twice, to end it at once), by closing its terminal
(SIGHUP), with SIGTERM, with the abort key (a key grabbed on X), or by logging out. Every
decision a stop takes is here, as data or a small pure function; the mechanisms that carry
them out stay in their layers and call these rules.

0. Before any stop (``logo-bot`` starts, ``interrupts.install``). SIGINT, SIGTERM and SIGHUP
   (``SIGNALS``) become requests; a signal never raises inside the bot. A SIGHUP ignored
   already stays ignored (``takes_signal``: ``nohup logo-bot ...`` outlives its terminal).
   Each program the bot starts runs in a session of its own (a Ctrl-C at the terminal
   reaches the bot alone) and gets those signals back at their default
   (``processes.DEFAULT_SIGNALS``). Its death signal, sent by the kernel or the reaper
   when the bot dies: ``FUSE_DEATH_SIGNAL`` for Fuse, ``FMFCONV_DEATH_SIGNAL`` for the
   movie's decoder, ``DEATH_SIGNAL`` for the others.
   A gym environment installs nothing: in an agent's loop Ctrl-C is Python's own
   ``KeyboardInterrupt``, and the environment's finaliser closes Fuse and Xvfb at exit.

1. Asked: the first request (``decide_request`` says ``FIRST``). Its words are
   ``MESSAGES[signal]``, or ``abort_message(key)`` for the abort key (whose thread first
   releases every held key on its own connection, and stops even when that fails). A
   SIGHUP first leaves the terminal (standard streams to /dev/null). SIGTERM and SIGHUP
   are ``Terminated``, Ctrl-C and the abort key ``Stopped`` (``terminates``). Every wait
   of the bot wakes at once (``interrupts.stop_fds``); a wait that watches no pipe looks
   every ``SLICE_S``. A hang-up once a stop is asked is that same stop (a closed terminal
   hangs up twice); a request once the exit status is known changes nothing.

2. The orderly stop. ``Stopped`` is raised only at the bot's safe points (before a key,
   in every wait, between levels, in the encoders; also before a command starts and once
   it has returned), never half-way through an X request; every ``finally`` on the way
   out releases the keys and closes the session: its X parts, then Fuse, asked to quit
   (``fuse_quit_by``) and killed after ``FUSE_QUIT_S``, then the Xvfb the bot started.
   The person's own Fuse (``--attach``) is never stopped. The run's folder takes play's
   end (``play_status``: a stop while playing is ``aborted``), and writing it after play
   (the video, the report) may go on for ``FINISH_S`` from the request (``raises_now``);
   a stop that cuts it short leaves play's status and marks the video unfinished
   (``written_while``); the report drops its plots when they would not fit
   (``plots_fit``). ``logo-bot`` then exits ``EXIT_STOPPED`` with one line on stderr
   (``stopped_line``), also written to run.log.

3. The forced end: a second request (``FORCE``), or ``FORCE_AFTER_S`` after the first
   (``took_too_long``). Once the exit status is known it is that status at once
   (``forced_exit``). Else one line on stderr (waited for at most ``SAY_S``), then the
   forced-end callbacks in ``hook_order``: the programs killed first (every program the
   bot started, waited for ``PROGRAMS_WAIT_S``), then the others newest first, which in
   a run is: the keys released on a fresh connection, Fuse killed and its home removed,
   the folder marked (``forced_folder``: ``aborted`` only while playing, else play's
   status and the video unfinished; the report without plots; every thread's stack into
   run.log, after the folder's own writer has had ``FOLDER_WAIT_S``). Each has at most
   ``HOOK_S``, all of them ``HOOKS_S``; then exit ``EXIT_STOPPED``. Meanwhile no other
   thread writes the folder or the terminal (``interrupts.hold_if_forcing``). The process
   is gone within ``FORCE_AFTER_S + HOOKS_S`` of the first request.

4. Settled: ``logo-bot`` has its exit status (``exit_status``; the first one settled
   stands); from then on a stop signal or request is read and dropped, and at the exit
   the stop signals are ignored, so Python's shutdown cannot turn the status into a
   death by signal.

5. Killed outright (SIGKILL, a crash): no code of the bot runs. The kernel sends each
   program its death signal; the reaper (``reaper.py``, a program of its own that needs
   nothing of the bot) sends it too, SIGKILL after its ``GRACE_S``, and removes the
   temporary files. The folder, without its final run.json, reads ``killed``
   (``recording/unfinished.py``). A logout ends the X server: that is no stop but the
   error ``DisplayLost`` (its own exit status), or SIGHUP with the terminal.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from enum import Enum
from typing import TypeVar

from logo_bot.bot.errors import BotError, Exit

# -- 0. before any stop -----------------------------------------------------------------------
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
DEATH_SIGNAL = signal.SIGTERM  # Xvfb, ffmpeg, ffprobe: Xvfb removes its lock and socket
FUSE_DEATH_SIGNAL = signal.SIGHUP  # obeyed by both builds (fuse-gtk ignores SIGTERM)
FMFCONV_DEATH_SIGNAL = signal.SIGKILL  # it only reads Fuse's movie: nothing to finish


def takes_signal(signum: int, hangup_ignored: bool) -> bool:
    """Whether ``logo-bot`` takes ``signum`` as a request: every stop signal, but a SIGHUP
    that was ignored when it started (nohup) stays ignored."""
    return signum in SIGNALS and not (signum == signal.SIGHUP and hangup_ignored)


# -- 1. asked ----------------------------------------------------------------------------------
MESSAGES = {
    signal.SIGINT: "stopped by Ctrl-C",
    signal.SIGTERM: "stopped by SIGTERM",
    signal.SIGHUP: "stopped by SIGHUP",
}
SLICE_S = 0.5  # a wait that watches no stop pipe looks at the requests this often


def abort_message(key: str) -> str:
    """The words of a stop by the abort key ``key``."""
    return f"stopped by the {key} key"


def terminates(signum: int) -> bool:
    """SIGTERM and SIGHUP end the run from outside (``Terminated``); Ctrl-C is the
    person's (``Stopped``, as the abort key)."""
    return signum != signal.SIGINT


def how(stop: BaseException) -> str:
    """The words of a stop (``KeyboardInterrupt``): its own, or Python's Ctrl-C's."""
    return str(stop) or MESSAGES[signal.SIGINT]


class Request(Enum):
    """What a request to stop does."""

    DROP = "dropped: the exit status is known, or a hang-up repeats the stop asked"
    FIRST = "the stop: safe points raise it, waits wake, the watchdog starts"
    FORCE = "a second stop while the first is honoured: the end is forced"
    AGAIN = "a second stop with nothing to force (no logo-bot installed the handlers)"


def decide_request(settled: bool, asked: bool, hangup: bool, armed: bool) -> Request:
    """What a request does, given whether the exit status is known (``settled``), a stop
    is asked already, the request is a hang-up, and ``logo-bot`` installed the handlers
    (``armed``: only then may the end be forced)."""
    if settled or (hangup and asked):
        return Request.DROP
    if not asked:
        return Request.FIRST
    return Request.FORCE if armed else Request.AGAIN


# -- 2. the orderly stop -------------------------------------------------------------------------
EXIT_STOPPED = Exit.STOPPED  # 130, as a shell reports a Ctrl-C
FINISH_S = 4.0  # from the first request: writing the folder after play may go on this long
PLOTS_S = 0.5  # the report's plots take milliseconds (svg_chart): a margin for a starved machine
FUSE_QUIT_S = 5.0  # Fuse asked to quit finishes its movie and RZX; SIGKILL after this


def raises_now(finishing: bool, now: float, finish_by: float) -> bool:
    """Whether a safe point raises the stop asked: at once, but while the folder is
    written (``finishing``) only from ``finish_by`` on."""
    return not finishing or now >= finish_by


def fuse_quit_by(build: str) -> str:
    """How Fuse is asked to quit: SIGTERM for fuse-sdl; fuse-gtk ignores SIGTERM and
    closes at its window's close message."""
    return "the close message" if build == "gtk" else "SIGTERM"


def play_status(ended: BaseException | None, report_status: str | None) -> tuple[str, str | None]:
    """run.json's status and error as play ended (``ended``: by what exception, if any): a
    stop while playing (``KeyboardInterrupt``) is ``aborted`` (its words), an error
    ``failed`` (its message), else what the run's report says (``complete`` or ``failed``;
    anything else is ``failed``)."""
    if isinstance(ended, KeyboardInterrupt):
        return "aborted", how(ended)
    if isinstance(ended, BotError):
        return "failed", ended.message
    if ended is not None:
        return "failed", f"{type(ended).__name__}: {ended}"
    return (report_status if report_status in ("complete", "failed") else "failed"), None


def written_while(stop: BaseException) -> str:
    """Why the video is unfinished when a stop cut the folder's writing short (play's
    status stands)."""
    return f"{how(stop)} while it was written"


def plots_fit(stopped: bool, now: float, finish_by: float) -> bool:
    """Whether the report draws its plots: always, but after a stop only if they fit
    before ``finish_by`` ('logo-bot report RUN' draws them later)."""
    return not stopped or now + PLOTS_S <= finish_by


def stopped_line(command: str, stop: BaseException, fuse_left_running: bool) -> str:
    """``logo-bot``'s line on stderr after a stop: how, and what became of keys and Fuse
    (the person's own Fuse, attached, runs on)."""
    fuse = "your Fuse runs on" if fuse_left_running else "Fuse stopped"
    return f"\nlogo-bot {command}: {how(stop)}; every key released, {fuse}"


# -- 3. the forced end ---------------------------------------------------------------------------
FORCE_AFTER_S = 8.0  # from the first request: the orderly stop must be over by then
HOOK_S = 1.0  # the longest a forced end waits for any one callback
HOOKS_S = 1.5  # the longest a forced end waits for all of them: it ends within 9.5 s
SAY_S = 0.1  # the longest a forced end waits for its line on stderr
PROGRAMS_WAIT_S = 0.5  # the programs killed: the longest it waits for them to be gone
FOLDER_WAIT_S = HOOK_S / 2  # for the run's own write to end before the folder is marked

T = TypeVar("T")


def second_stop(message: str) -> str:
    """Why the end is forced by a second request."""
    return f"a second stop ({message})"


def took_too_long(after_s: float = FORCE_AFTER_S) -> str:
    """Why the end is forced by the watchdog, ``after_s`` after the first request."""
    return f"the stop took over {after_s:g} s"


def ending_line(reason: str) -> str:
    """The forced end's line on stderr."""
    return f"logo-bot: {reason}: ending at once"


def callback_failed_line(error: BaseException) -> str:
    """The line on stderr for a forced-end callback that failed (the others still run)."""
    return f"logo-bot: while ending at once: {type(error).__name__}: {error}"


def hook_order(hooks: Sequence[T], first: Sequence[T]) -> list[T]:
    """The order the forced-end callbacks run in: those given ``first`` (the programs
    killed), then the others, each group newest first (``hooks`` in the order given)."""
    newest = list(reversed(hooks))
    return [h for h in newest if h in first] + [h for h in newest if h not in first]


def forced_exit(settled: int | None) -> int:
    """A forced end's exit status: the one ``logo-bot`` has already, else ``EXIT_STOPPED``
    (after the callbacks; with a status, at once)."""
    return EXIT_STOPPED if settled is None else settled


def forced_folder(
    played: tuple[str, str | None] | None, stop: BaseException | None, reason: str
) -> tuple[str, str | None, str]:
    """run.json's status and error at a forced end, and the note on what is unwritten:
    ``aborted`` while playing (``played`` None); once play has ended, what it ended with
    stands (the video is then marked unfinished with the note)."""
    note = f"{how(stop) if stop is not None else 'stopped'}, then ended at once: {reason}"
    if played is None:
        return "aborted", note, note
    return played[0], played[1], note


# -- 4. settled ----------------------------------------------------------------------------------
def exit_status(outcome: int | BaseException) -> int:
    """``logo-bot``'s exit status: the command's own, a ``BotError``'s code, a stop's
    ``EXIT_STOPPED``, argparse's exit (0 for --help, 2 for a usage error), else 1 (Python's
    for the traceback it prints)."""
    if isinstance(outcome, int):
        return outcome
    if isinstance(outcome, BotError):
        return outcome.exit_code
    if isinstance(outcome, KeyboardInterrupt):
        return EXIT_STOPPED
    if isinstance(outcome, SystemExit):
        code = outcome.code
        return code if isinstance(code, int) else int(code is not None)
    return 1
