"""An Xvfb of a test's own (not the shared ``xserver`` fixture's): one started with an
extension off, or one the test ends under the bot."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
from collections.abc import Iterator

from logo_bot.bot import processes
from logo_bot.bot.x11.display import xvfb_program

START_S = 30.0  # a bound no Xvfb comes near


@contextlib.contextmanager
def own_xvfb(*extra: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """(display name, process) of an Xvfb started with ``extra`` arguments, on the free
    display number it picks itself (``-displayfd``); ended on the way out."""
    read_fd, write_fd = os.pipe()
    command = [xvfb_program(), "-displayfd", str(write_fd), "-noreset", "-nolisten", "tcp"]
    process = processes.start(
        [*command, *extra],
        pass_fds=(write_fd,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        number = b""
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_fd], [], [], START_S)
            chunk = os.read(read_fd, 16) if ready else b""
            assert chunk, "Xvfb did not start"
            number += chunk
        yield f":{number.decode().strip()}", process
    finally:
        os.close(read_fd)
        process.terminate()
        process.wait()
