"""The emulator: starting and stopping Fuse, Spectrum files, and a running game's session
(and the tail of a program's log that its errors, and ffmpeg's, quote).

Imports ``bot.x11`` and ``bot.see`` (and ``bot.errors``, ``bot.frames``, ``bot.interrupts``,
``bot.processes``, ``bot.profile``, ``bot.stopping``).
"""
