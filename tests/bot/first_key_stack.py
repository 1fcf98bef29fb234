"""Prints, as JSON, the bot's modules on the call stack when a walkthrough sends its first
key event, outermost first: the reading path bot/README.md gives. Run by
tests/bot/test_reading_path_fuse.py in a process of its own (it stops its run at once).

The modules are printed at once (``{"modules": [...]}``), and the run's exit status
once it has stopped (``{"exit": N}``): a stop that takes over its time on a very busy
machine ends the process at once, with the modules already out.

    python -m tests.bot.first_key_stack RUNS_DIR
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from logo_bot import bot
from logo_bot.bot import cli, interrupts
from logo_bot.bot.x11 import window_keys

BOT = Path(bot.__file__).resolve().parent


def bot_modules(stack: traceback.StackSummary) -> list[str]:
    """The modules of bot/ in ``stack``, each once, in the order they are first met."""
    found: list[str] = []
    for frame in stack:
        path = Path(frame.filename).resolve()
        if path.is_relative_to(BOT):
            name = str(path.relative_to(BOT))
            if name not in found:
                found.append(name)
    return found


def main(runs: str) -> int:
    traced: list[str] = []
    send = window_keys.send_key

    def first_key(*args: object, **kwargs: object) -> None:
        if not traced:
            traced.extend(bot_modules(traceback.extract_stack()))
            print(json.dumps({"modules": traced}), flush=True)
            interrupts.request("traced the first key")
        send(*args, **kwargs)  # type: ignore[arg-type]

    window_keys.send_key = first_key  # type: ignore[assignment]
    argv = ["walkthrough", "--levels", "1", "--headless", "--no-video", "--runs-dir", runs]
    code = cli.main(argv)
    print(json.dumps({"exit": code}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
