"""The rules engine stands alone: importing it loads nothing of the web or the database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("fastapi", "sqlalchemy", "pydantic", "pydantic_core", "starlette", "alembic")

PROBE = """
import json, sys
import checkers_engine
board = checkers_engine.Board("russian")
board.push(board.legal_moves[0])
print(json.dumps(sorted(sys.modules)))
"""


def test_engine_imports_no_web_database_or_ai_module() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    modules = json.loads(result.stdout)
    assert "checkers_engine" in modules
    assert [m for m in modules if m.split(".")[0] in FORBIDDEN] == []
    # Nothing else of the application either (no checkers_engine.ai, app.rooms, app.core, ...), but
    # the package's choice of build (checkers_engine.build, standard library only) and the compiled
    # build's shared library, which holds the engine's compiled modules.
    app_modules = [
        m for m in modules if m.startswith("app.") and m not in ("checkers_engine.build", "app.compiled__mypyc")
    ]
    assert [m for m in app_modules if not m.startswith("checkers_engine")] == []
