"""The strength bench's match record: a match resumes from it, keeping the games it holds,
and a record of another match is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkers_engine.ai import matches

MATCH = {"rule_set": "russian", "time": 2.0, "games": 4, "engine": "0123456789abcdef"}


def game(index: int, score: float) -> str:
    entry = {"game": index, "new_drums": bool(index % 2), "score": score, "plies": 80}
    return json.dumps({**entry, "reason": "no legal move", "moves": ["c3-d4"]})


def test_a_new_file_holds_no_games(tmp_path: Path) -> None:
    assert matches.read_record(tmp_path / "match.jsonl", MATCH) == {}


def test_the_games_recorded_are_kept_and_a_line_cut_short_is_played_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "match.jsonl"
    lines = [json.dumps({"match": MATCH}), game(2, 1.0), game(0, 0.5), game(3, 0.0)[:20]]
    path.write_text("\n".join(lines) + "\n")
    done = matches.read_record(path, MATCH)
    assert sorted(done) == [0, 2]
    assert done[2]["score"] == 1.0 and done[0]["score"] == 0.5


def test_a_record_of_another_match_is_refused_naming_what_differs(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text(json.dumps({"match": MATCH}) + "\n" + game(0, 1.0) + "\n")
    other = {**MATCH, "time": 0.2, "engine": "fedcba9876543210"}
    with pytest.raises(ValueError, match="differs in engine, time"):
        matches.read_record(path, other)


def test_the_engine_digest_follows_the_engine_and_ai_sources(tmp_path: Path) -> None:
    package = "src/checkers_engine"
    for folder, name in ((package, "board.py"), (f"{package}/ai/books", "russian.json")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / name).write_text("1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_board.py").write_text("1\n")
    digest = matches.engine_digest(tmp_path)
    assert matches.engine_digest(tmp_path) == digest
    (tmp_path / "tests/test_board.py").write_text("2\n")  # not the engine's
    assert matches.engine_digest(tmp_path) == digest
    (tmp_path / f"{package}/ai/books/russian.json").write_text("2\n")
    assert matches.engine_digest(tmp_path) != digest
