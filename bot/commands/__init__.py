"""One module per ``logo-bot`` command, each with ``main(argv) -> int``.

The top layer: imports ``bot.recording``, ``bot.play``, ``bot.fuse``, ``bot.see`` and
``bot.x11`` (and ``bot.errors``, ``bot.frames``, ``bot.interrupts``,
``bot.processes``, ``bot.profile``).
"""
