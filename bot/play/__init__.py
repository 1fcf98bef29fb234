"""Plan, press, check: the observe/step environment, the level loop, menus, recovery.

Imports ``bot.fuse``, ``bot.see``, ``bot.x11`` (and ``bot.errors``, ``bot.frames``,
``bot.interrupts``, ``bot.processes``, ``bot.profile``, ``bot.stopping``) and ``solvers``;
never ``bot.recording``.
"""
