"""The service's endgame-table commands (``checkers egdb build`` and ``check``) over the
engine's tables: progress, a damaged table found, refusals. The tables themselves are
tested with the engine (the engine's tests/ai/test_egdb.py)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from checkers_engine import get_rule_set
from checkers_engine.ai import egdb


def test_the_build_command_shows_progress(tmp_path: Path) -> None:
    from app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["egdb", "build", "italian", "--pieces", "2", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "italian-2.egdb").exists()
    assert "100.0%" in err.getvalue()
    assert "italian 2 pieces" in out.getvalue()
    with redirect_stderr(io.StringIO()), pytest.raises(SystemExit):
        main(["egdb", "build", "italian", "--pieces", "9"])
    with redirect_stderr(io.StringIO()):
        assert main(["egdb", "build", "chess", "--pieces", "2", "--dir", str(tmp_path)]) == 2


def test_the_check_command_finds_a_damaged_table(tmp_path: Path) -> None:
    from app.cli import main

    egdb.build("italian", 2, tmp_path)
    args = ["egdb", "check", "italian", "--pieces", "2", "--sample", "2000", "--dir"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([*args, str(tmp_path)]) == 0
    assert "2,000 random positions checked, 0 disagreeing" in out.getvalue()

    # Every man against man stored as a draw: a well-formed file with wrong values.
    rules = get_rule_set("italian")
    data = dict(egdb.load(rules, 2, tmp_path).data)
    data[(1, 0, 1, 0)] = bytearray(len(data[(1, 0, 1, 0)]))
    egdb.save(tmp_path, rules, 2, data)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([*args, str(tmp_path)]) == 1
    assert "stored a draw, the moves give" in out.getvalue()
    with redirect_stderr(io.StringIO()):
        assert main([*args, str(tmp_path / "nowhere")]) == 2
        assert main(["egdb", "check", "chess", "--dir", str(tmp_path)]) == 2
