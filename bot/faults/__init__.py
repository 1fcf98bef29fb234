"""Faults injected on purpose, to prove the bot finishes anyway (tests and benchmarks/chaos.py).

Nothing here is active unless a test or the chaos script switches it on: lossy keys
(``keys``), a window that steals the focus (``sentinel``, ``thief``), a CPU hog (``hog``)
and the schedule that kills Fuse, steals the focus and stalls the bot (``chaos``).
"""
