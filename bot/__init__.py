"""The bot: see -> plan -> press -> check, around the real Fuse emulator.

The bot does no linear algebra, but numpy's OpenBLAS starts a worker thread per core at
import, and each spins for about 0.1 s of CPU before it sleeps: one thread is asked for
(unless the environment says otherwise), before anything here imports numpy.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
