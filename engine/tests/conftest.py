"""The engine's tests: nothing of the service is imported here (the engine stands alone).

The endgame tables are looked up in ``CHECKERS_EGDB_DIR``, else in the user's cache; each
test session gets an empty directory of its own, so a search plays the same whatever
tables this machine has built (the tests that use tables build their own).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["CHECKERS_EGDB_DIR"] = tempfile.mkdtemp(prefix="checkers-engine-test-egdb-")
atexit.register(shutil.rmtree, os.environ["CHECKERS_EGDB_DIR"], True)
