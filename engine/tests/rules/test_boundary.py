"""The rules stand alone: importing them loads nothing of the web, the database, the
computer players (checkers_engine.ai) or the service (app)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2]
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
        cwd=ENGINE,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    modules = json.loads(result.stdout)
    assert "checkers_engine" in modules
    assert [m for m in modules if m.split(".")[0] in FORBIDDEN] == []
    # Nothing of the service either (app, app.rooms, app.core, ...) nor of the computer
    # players (checkers_engine.ai): the rules modules only, with the package's choice of
    # build (checkers_engine.build, standard library only) and the compiled build's shared
    # library, which holds the engine's compiled modules.
    app_modules = [
        m
        for m in modules
        if m.split(".")[0] in ("app", "checkers_engine")
        and m not in ("checkers_engine.build", "checkers_engine.compiled__mypyc")
    ]
    assert [m for m in app_modules if m.startswith(("app", "checkers_engine.ai"))] == []
