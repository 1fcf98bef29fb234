"""One module per ``logo-bot`` command, each with ``main(argv) -> int``.

``main`` parses the command line once into frozen options (a dataclass per command,
built from the groups in ``common``); nothing below it reads the argparse Namespace.

The top layer: imports ``bot.recording``, ``bot.play``, ``bot.fuse``, ``bot.see`` and
``bot.x11`` (and ``bot.errors``, ``bot.frames``, ``bot.installation``, ``bot.interrupts``,
``bot.processes``, ``bot.profile``, ``bot.stopping``).
"""
