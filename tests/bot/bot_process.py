"""``logo-bot`` in a subprocess for end-to-end tests, stopped by PID whatever happens."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from logo_bot.bot.installation import PACKAGES_ROOT as REPO_ROOT


@contextmanager
def bot_process(
    args: list[str], watchdog_s: float = 120, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen]:
    """Run ``python -m logo_bot.bot.cli ARGS`` with its standard error piped (text); a watchdog
    kills it after ``watchdog_s`` seconds (a hung bot holding an X grab would hang the
    test), and it is killed on the way out if it is still running."""
    process = subprocess.Popen(
        [sys.executable, "-m", "logo_bot.bot.cli", *args],
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        # a shell's background job ignores SIGINT, and its children would inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    watchdog = threading.Timer(watchdog_s, process.kill)
    watchdog.start()
    try:
        yield process
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()
