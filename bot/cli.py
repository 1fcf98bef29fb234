"""``logo-bot``: play Logo: Part 1 in Fuse by itself. One module per command."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from logo_bot.bot import interrupts, processes, stopping, terminal
from logo_bot.bot.errors import BotError, exit_codes_help

COMMANDS = {
    "walkthrough": "play a range of levels (all 100 by default) unattended",
    "level": "play one level, reaching it through the nearest code",
    "show": "read a screen (live Fuse or a PNG): target, board, cursor and the plan",
    "calibrate": "check a calibration profile on a screen and draw what it read",
    "replay": "play a recorded run, or one level of it, back in Fuse exactly",
    "runs": "list the recorded runs with their results and report pages",
    "report": "write a run's report.html (video, levels, plots), or compare two runs",
    "doctor": "check this machine: what the bot needs, what is missing, which runs can go",
}

USAGE = """usage: logo-bot COMMAND [options]   (or: logo-bot --version)

Plays the ZX Spectrum puzzle game Logo: Part 1 by itself in the Fuse emulator:
it reads the screen, plans the moves, presses the keys and checks what happened.

commands:
{commands}

Run 'logo-bot COMMAND --help' for a command's options. Examples:
  logo-bot walkthrough                   all 100 levels of the bundled practice game
  logo-bot walkthrough --levels 1-10 --speed 200
  logo-bot level 94 --display :0         watch level 94 on your own screen
  logo-bot replay last --level 2         level 2 of the latest run, again
  logo-bot runs --open                   the latest run's report in your browser
  logo-bot walkthrough --tape LOGO.TAP --profile logo-part1
  logo-bot doctor                        what this machine lacks, if anything

{exit_codes}
"""


def usage() -> str:
    width = max(len(c) for c in COMMANDS)
    lines = [f"  {name.ljust(width)}  {text}" for name, text in COMMANDS.items()]
    return USAGE.format(commands="\n".join(lines), exit_codes=exit_codes_help())


def load_command(command: str) -> ModuleType:
    """The module of ``command``; a Python package it needs that is missing is an error
    that says so (``BotError``), not a traceback."""
    try:
        return importlib.import_module(f"logo_bot.bot.commands.{command}")
    except ModuleNotFoundError as exc:
        if not exc.name or exc.name.partition(".")[0] == "logo_bot":
            raise
        raise BotError(
            f"the Python module {exc.name} cannot be imported: a package logo-bot needs is "
            "missing or broken",
            hint="'logo-bot doctor' names it and how to install it (./scripts/setup.sh "
            "installs everything in a checkout)",
        ) from None


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status. Once the status is known, no stop signal can
    change it (``interrupts.settle``): not during the last line, nor Python's shutdown."""
    terminal.guard_streams()  # a terminal that went away never fails the run
    interrupts.install(on_hangup=terminal.leave_terminal)  # first: a stop is never lost
    interrupts.on_force(processes.kill_started, first=True)  # no program outlives a forced end
    return interrupts.settle(_main(argv))


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    if argv[0] == "--version":
        from logo_bot.bot.commands.doctor import version_text

        print(version_text())
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"logo-bot: unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        module = load_command(command)
        interrupts.check()  # a stop asked during start-up: nothing was started yet
        status = module.main(rest)
        interrupts.check()  # asked at the very end (the folder is finished): still a stop
        return interrupts.settle(status)
    except BotError as exc:
        interrupts.hold_if_forcing()
        status = stopping.exit_status(exc)
        interrupts.settle(status)  # before its line: a signal now changes nothing
        print(f"logo-bot {command}: error: {exc}", file=sys.stderr)
        return status
    except KeyboardInterrupt as exc:
        interrupts.hold_if_forcing()
        status = stopping.exit_status(exc)
        interrupts.settle(status)
        left_running = getattr(exc, "fuse_left_running", False)
        print(stopping.stopped_line(command, exc, left_running), file=sys.stderr)
        return status
    except SystemExit as exc:  # argparse's --help and usage errors
        interrupts.settle(stopping.exit_status(exc))
        raise
    except BaseException as exc:
        interrupts.hold_if_forcing()  # killed programs fail the main thread meanwhile
        interrupts.settle(stopping.exit_status(exc))  # 1: Python's, for its traceback
        raise


if __name__ == "__main__":
    sys.exit(main())
