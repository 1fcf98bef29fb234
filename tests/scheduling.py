"""How pytest-xdist shares the tests out: one test at a time, except that the tests of a
module with a module-scoped fixture (a recorded run, one Fuse the tests play in turn) go
to one worker together, in order, so that the fixture is set up once.

(xdist's own ``--dist loadgroup`` marks cannot do this with pytest 9: it renames the
tests through an attribute pytest 9 no longer reads.)"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

SHARED_FIXTURE = re.compile(r'@pytest\.fixture\(scope="(module|class)"\)')


@cache
def shares_a_fixture(path: str) -> bool:
    """True when the test file at ``path`` has a module- or class-scoped fixture without
    parameters (a parametrized one is set up once per parameter anyway)."""
    try:
        return bool(SHARED_FIXTURE.search(Path(path).read_text(encoding="utf-8")))
    except OSError:
        return False


class SharedFixtureScheduling(LoadScopeScheduling):
    """``--dist load`` that keeps a module with a shared fixture on one worker."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return path if shares_a_fixture(str(self.config.rootpath / path)) else nodeid
