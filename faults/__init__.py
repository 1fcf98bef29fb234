"""Faults injected on purpose, to prove the bot finishes anyway (tests and benchmarks/chaos.py).

Not part of the shipped ``bot`` package: nothing here is active unless a test or the
chaos script switches it on: lossy keys (``lossy_keys``), a window that steals the focus
(``sentinel``, ``thief``), a CPU hog (``hog``) and the schedule that kills Fuse, steals
the focus and stalls the bot (``chaos``). Run from the repository root.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository root: the working folder for ``python -m faults.*`` subprocesses."""
