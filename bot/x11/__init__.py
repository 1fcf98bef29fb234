"""Press and grab on X11: displays, Fuse's window, its pixels, keys, focus, the abort key.

Imports only ``bot.errors``, ``bot.frames``, ``bot.interrupts``, ``bot.processes``,
``bot.stopping`` and ``bot.profile`` from the bot.
"""
