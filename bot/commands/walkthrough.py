"""``logo-bot walkthrough``: play a range of levels unattended.

``main`` turns the command line into one frozen ``RunOptions`` (``levels_asked`` and
``run_options`` check it), and ``run`` plays from that alone; ``level`` does the same.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.commands import required
from logo_bot.bot.commands.aborting import (
    abort_guarded,
    abort_key_from,
    check_abort_key_free,
    noting_whose_fuse,
)
from logo_bot.bot.commands.common import add_output_options, setup_logging, stop_logged
from logo_bot.bot.commands.fuse_window import attach_window
from logo_bot.bot.commands.game_options import (
    Attach,
    add_attach_options,
    add_game_options,
    add_profile_options,
    add_safety_options,
    attach_from,
    profile_from,
    session_options,
)
from logo_bot.bot.commands.levels_asked import Levels, checked_levels, levels_asked
from logo_bot.bot.commands.player_name import checked_name
from logo_bot.bot.commands.probe_options import (
    add_probe_options,
    check_writable,
    save_probed_profile,
)
from logo_bot.bot.commands.recording_options import add_recording_options, record_options
from logo_bot.bot.errors import Exit, UsageError, exit_codes_help
from logo_bot.bot.fuse.assembly import (
    SessionOptions,
    attach_session,
    open_session,
    preflight,
    run_record,
    with_files,
)
from logo_bot.bot.play.codes import code_table
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.progress import Progress, clock
from logo_bot.bot.play.unattended import RunReport, Walkthrough
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording.recording import Recording, RecordOptions
from logo_bot.bot.x11.lost import LostDisplay


def parser(prog: str = "logo-bot walkthrough") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Start Fuse, enter the game and play the levels unattended, checking "
        "every move on screen and correcting lost or doubled key presses.",
        epilog="examples:\n"
        "  logo-bot walkthrough                       all 100 practice levels\n"
        "  logo-bot walkthrough --levels 11-20 --speed 200\n"
        "  logo-bot walkthrough --from-code WORD      from the level a code opens\n"
        "  logo-bot walkthrough --tape LOGO.TAP --profile logo-part1\n"
        "  logo-bot walkthrough --levels 1-10 --annotate   and then: logo-bot replay last"
        + "\n\n"
        + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--levels",
        default=None,
        metavar="RANGE",
        help="levels to play: N, FIRST-LAST or FIRST- (default: all)",
    )
    p.add_argument("--from-code", metavar="CODE", help="start at the level this code opens")
    add_profile_options(p)
    add_game_options(p)
    add_attach_options(p)
    add_probe_options(p)
    add_safety_options(p)
    add_recording_options(p)
    add_output_options(p)
    return p


def summary(report: RunReport) -> str:
    lines = [
        f"{report.status}: {report.levels_done}/{report.last - report.first + 1} levels "
        f"({report.first}-{report.last}) in {clock(report.seconds)}",
        f"keys sent {report.keys_sent} (fewest possible {report.planned_presses}), "
        f"restarts {report.restarts}",
    ]
    if report.corrections:
        lines.append(
            "corrections: " + ", ".join(f"{k} {v}" for k, v in sorted(report.corrections.items()))
        )
    if report.recoveries:
        lines.append(
            "recoveries: " + ", ".join(f"{k} {v}" for k, v in sorted(report.recoveries.items()))
        )
    if report.key_probe and report.key_timing:
        t = report.key_timing
        lines.append(
            f"key timing ({t['source']}): hold {t['hold_ms']:g} ms, gap {t['gap_ms']:g} ms, "
            f"rollover {'on' if t['rollover'] else 'off'}"
        )
    failed = [r for r in report.results.values() if r.status != "done"]
    lines += [f"level {r.level} failed: {r.reason}" for r in failed]
    return "\n".join(lines)


@dataclass(frozen=True)
class RunOptions:
    """Everything a ``walkthrough`` or ``level`` run needs, parsed and checked once."""

    mode: str  # "walkthrough" or "level": in the run folder's name and in run.json
    command: tuple[str, ...]  # the command line, for run.json
    profile: Profile
    levels: Levels
    session: SessionOptions
    attach: Attach | None  # None: the bot starts its own Fuse
    record: RecordOptions | None  # None: --no-record
    player: str | None  # the name typed at the start (None: the profile's)
    max_attempts: int
    abort_key: str | None  # an X key name; None: no abort key
    probe: bool  # measure the key timing on the first level
    save_profile: Path | None  # and keep it in this profile


def run_options(
    args: argparse.Namespace, profile: Profile, levels: Levels, mode: str, command: list[str]
) -> RunOptions:
    """The options of ``walkthrough`` and ``level`` checked, in the order a user meets
    the errors: the levels, --max-attempts, --name, --abort-key, the game options, the
    level file, --attach, the recording options."""
    checked_levels(levels, profile)
    if args.max_attempts < 1:
        raise UsageError(f"--max-attempts {args.max_attempts}: give 1 or more")
    player = checked_name(args.name, profile)
    abort_key = abort_key_from(args, profile)
    session = session_options(args)
    code_table(profile)  # a bad level file is bad input: said before any game starts
    attach = attach_from(args)
    record = record_options(args)
    if args.save_profile:
        check_writable(args.save_profile, "--save-profile")
    return RunOptions(
        mode=mode,
        command=tuple(command),
        profile=profile,
        levels=levels,
        session=session,
        attach=attach,
        record=record,
        player=player,
        max_attempts=args.max_attempts,
        abort_key=abort_key,
        probe=args.probe_keys or profile.timing.probe or bool(args.save_profile),
        save_profile=args.save_profile,
    )


def run(options: RunOptions) -> int:
    """Play ``options.levels``: the whole run, from Fuse's start to the recording's end."""
    profile, levels = options.profile, options.levels
    progress = Progress(levels.last - levels.first + 1)
    setup = options.session  # the recording adds its files to it
    # bad input, a display that will not open and no Fuse to attach to leave no run folder
    if options.attach is not None:
        window_id = attach_window(setup.display, options.attach.window)
    else:
        preflight(profile, setup)
    check_abort_key_free(options.abort_key, setup)
    recording = start_recording(options) if options.record is not None else None
    with contextlib.ExitStack() as stack:
        stack.enter_context(noting_whose_fuse(options.attach is not None))
        if recording is not None:
            recording.requested = (levels.first, levels.last)
            folder = recording.folder.path
            stack.callback(lambda: progress.stream.write(_recorded(folder)))
            stack.enter_context(recording)
            stack.enter_context(stop_logged())
            setup = with_files(setup, recording.fuse_files())
            recording.note_session(run_record(setup))
        # a display lost during the run, or on the way out, is the folder's failure
        lost = stack.enter_context(LostDisplay())
        if options.attach is not None:
            session = stack.enter_context(attach_session(profile, setup, window_id))
        else:
            session = stack.enter_context(open_session(profile, setup))
        lost.watch(session.xserver)
        stack.enter_context(abort_guarded(session, options.abort_key))
        env: LogoEnv | EnvWrapper = LogoEnv(session)
        if recording is not None:
            recording.record_fuse(session)
            env = recording.wrap(env)
        walk = Walkthrough(
            session,
            env,
            profile,
            levels.first,
            levels.last,
            options.player,
            progress,
            max_attempts=options.max_attempts,
            evidence_dir=recording.folder.failures if recording is not None else None,
            probe=options.probe,
        )
        walk.first_from_screen = levels.from_screen
        try:
            report = walk.run()
        finally:
            if recording is not None:
                recording.report = walk.report
        progress.finish(summary(report))
        if recording is not None:
            progress.stream.write("writing the recording (video, run.json)...\n")
    # after the run folder is finished: a profile that cannot be written is said (and is
    # the exit status), but does not make a complete run failed
    if options.save_profile and walk.probe is not None:
        speed = session.speed
        print(save_probed_profile(options.save_profile, profile, walk.probe.result(), speed))
    return Exit.OK if report.status == "complete" else Exit.FAILED


def start_recording(options: RunOptions) -> Recording:
    """The run's folder, made now (``options.record`` says where and what it keeps)."""
    assert options.record is not None
    try:
        return Recording.start(options.record, options.mode, list(options.command), options.profile)
    except OSError as exc:
        raise UsageError(
            f"cannot create a run folder in {options.record.root}: {exc.strerror}",
            hint="choose another place with --runs-dir DIR, or use --no-record",
        ) from None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0  # --show-config printed it
    levels = levels_asked(args, profile)
    command = ["logo-bot", "walkthrough", *argv]
    options = run_options(args, profile, levels, "walkthrough", command)  # usage errors first
    required.for_run(args, profile)  # a missing part refuses the run before it starts
    return run(options)


def _recorded(folder: Path) -> str:
    """Where the run went, and its page when it was written."""
    report = folder / "report.html"
    line = f"recorded in {folder}\n"
    if report.is_file():
        line += f"report: {report.resolve().as_uri()}\n"
    return line
