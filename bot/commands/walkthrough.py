"""``logo-bot walkthrough``: play a range of levels unattended."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from bot.commands.common import (
    add_attach_options,
    add_game_options,
    add_output_options,
    add_probe_options,
    add_profile_options,
    add_recording_options,
    add_safety_options,
    check_attach,
    level_range,
    profile_from,
    recording_from,
    save_probed_profile,
    session_options,
    setup_logging,
)
from bot.commands.fuse_window import attach_window
from bot.errors import Exit, UsageError, exit_codes_help
from bot.fuse.session import Session, preflight
from bot.play.codes import code_table, level_of_code
from bot.play.env import EnvWrapper, LogoEnv
from bot.play.progress import Progress, clock
from bot.play.unattended import RunReport, Walkthrough
from bot.profile import Profile
from bot.x11.abort import abort_displays, check_abort_key
from bot.x11.abort import guard as abort_guard


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


def run(args: argparse.Namespace, first: int | None = None, last: int | None = None) -> int:
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0
    count = int(profile.game.get("level_count", 100))
    if first is None:
        if args.from_code:
            first, last = level_of_code(args.from_code, code_table(profile)), count
            if args.levels:
                last = level_range(args.levels, count)[1]
        else:
            first, last = level_range(args.levels or f"1-{count}", count)
    assert last is not None
    if not 1 <= first <= last <= count:
        raise UsageError(f"level {first}: this game's levels run from 1 to {count}")
    if args.max_attempts < 1:
        raise UsageError(f"--max-attempts {args.max_attempts}: give 1 or more")
    abort_key = check_abort_key(args.abort_key or profile.abort_key, game_keys(profile))
    progress = Progress(last - first + 1)
    options = session_options(args)
    code_table(profile)  # a bad level file is bad input: said before any game starts
    check_attach(args)
    # bad input, a display that will not open and no Fuse to attach to leave no run folder
    if args.attach:
        window_id = attach_window(options.display, args.window)
    else:
        preflight(profile, options)
    recording = recording_from(args, profile, args.mode, args.command)
    with contextlib.ExitStack() as stack:
        if recording is not None:
            recording.requested = (first, last)
            folder = recording.folder.path
            stack.callback(lambda: progress.stream.write(_recorded(folder)))
            stack.enter_context(recording)
            options = recording.fuse_files(options)
        if args.attach:
            session = stack.enter_context(Session.attach(profile, options, window_id))
        else:
            session = stack.enter_context(Session.open(profile, options))
        displays = abort_displays(session.xserver.display, session.xserver.process is not None)
        stack.enter_context(abort_guard(displays, abort_key, lambda: session.keys))
        env: LogoEnv | EnvWrapper = LogoEnv(session)
        if recording is not None:
            recording.attach(session)
            env = recording.wrap(env)
        walk = Walkthrough(
            session,
            env,
            profile,
            first,
            last,
            args.name,
            progress,
            max_attempts=args.max_attempts,
            evidence_dir=recording.folder.failures if recording is not None else None,
            probe=args.probe_keys or profile.timing.probe or bool(args.save_profile),
        )
        walk.first_from_screen = (
            args.attach and args.mode == "walkthrough" and not (args.levels or args.from_code)
        )
        try:
            report = walk.run()
        finally:
            if recording is not None:
                recording.report = walk.report
        progress.finish(summary(report))
        if args.save_profile and walk.probe is not None:
            result = walk.probe.result()
            print(save_probed_profile(args.save_profile, profile, result, session.options.speed))
        if recording is not None:
            progress.stream.write("writing the recording (video, run.json)...\n")
    return Exit.OK if report.status == "complete" else Exit.FAILED


def game_keys(profile: Profile) -> set[str]:
    k = profile.keys
    return {k.up, k.down, k.left, k.right, k.act, k.reset, "space", "enter", "return"}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    args.mode, args.command = "walkthrough", ["logo-bot", "walkthrough", *argv]
    return run(args)


def _recorded(folder: Path) -> str:
    """Where the run went, and its page when it was written."""
    report = folder / "report.html"
    line = f"recorded in {folder}\n"
    if report.is_file():
        line += f"report: {report.resolve().as_uri()}\n"
    return line
