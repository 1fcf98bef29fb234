"""``run.log``: the bot's Python logging at INFO into the run's folder while the run
lasts, whatever the console shows."""

from __future__ import annotations

import logging
from pathlib import Path


class LogFile:
    """Logging into ``path`` from now on; ``close`` puts the logging back as it was."""

    def __init__(self, path: Path) -> None:
        root = logging.getLogger()
        self._level = root.level
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setLevel(logging.INFO)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        if root.level > logging.INFO:  # the console keeps its level; the root takes INFO
            for existing in root.handlers:
                if existing.level == logging.NOTSET:
                    existing.setLevel(root.level)
            root.setLevel(logging.INFO)
        root.addHandler(handler)
        self._handler = handler

    def close(self) -> None:
        root = logging.getLogger()
        root.removeHandler(self._handler)
        root.setLevel(self._level)
        self._handler.close()
