"""The emulator: starting and stopping Fuse, Spectrum files, and a running game's session.

Imports ``bot.x11`` and ``bot.see`` (and ``bot.errors``, ``bot.frames``, ``bot.interrupts``,
``bot.processes``, ``bot.profile``).
"""
