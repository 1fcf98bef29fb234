"""A CPU hog: busy processes on every core, to play as if on a slow machine.

``python -m faults.hog`` spins one core until it is stopped; ``CpuHog(n)`` starts
``n`` of them and stops them again, by PID.
"""

from __future__ import annotations

import os
import subprocess
import sys

from faults import ROOT


class CpuHog:
    def __init__(self, processes: int | None = None) -> None:
        self.count = processes or os.cpu_count() or 1
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> CpuHog:
        for _ in range(self.count):
            self.processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "faults.hog"],
                    stdin=subprocess.DEVNULL,
                    cwd=ROOT,
                    start_new_session=True,
                )
            )
        return self

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        self.processes.clear()

    def __enter__(self) -> CpuHog:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def spin() -> None:
    n = 0
    while True:
        n = (n * 1103515245 + 12345) & 0x7FFFFFFF


if __name__ == "__main__":
    try:
        spin()
    except KeyboardInterrupt:
        sys.exit(0)
