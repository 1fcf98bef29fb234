"""Recording a run: one folder per run with its video, input recording, events and report.

``Recording`` owns the folder, ``Recorder`` wraps the environment and writes what the
bot did, and ``finish`` turns Fuse's movie into video and writes ``run.json``. The folder
layout and the JSON schemas are described in ``recordings/README.md``.

Imports ``bot.play``, ``bot.fuse``, ``bot.see`` and ``bot.x11`` (and ``bot.errors``,
``bot.frames``, ``bot.installation``, ``bot.interrupts``, ``bot.processes``,
``bot.profile``, ``bot.stopping``); never ``bot.commands``.
"""
