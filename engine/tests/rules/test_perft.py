"""Perft against the counts in tests/rules/data/<rule set>.perft.

Each file names the source of its counts in a header comment: published tables where
they exist, otherwise positions small enough to count by hand. ``perft`` lines count
every capture path (as published tables do); ``merged`` lines count moves as the game
does, merging sequences with the same start, end and captured set (rules.md rule 8).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from checkers_engine import Board, perft

DATA = Path(__file__).parent / "data"
RULE_SET_KEYS = ("english", "brazilian", "russian", "spanish", "italian", "thai")

#: Entries with more leaves than this run under the ``slow`` marker.
SLOW_NODES = 100_000


class PerftCase(NamedTuple):
    rule_set: str
    id: str
    fen: str
    depth: int
    nodes: int
    paths: bool


def _read(rule_set: str) -> list[PerftCase]:
    cases: list[PerftCase] = []
    case_id = fen = None
    for number, raw in enumerate((DATA / f"{rule_set}.perft").read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            case_id, fen = value.strip(), None
        elif key == "fen":
            fen = value.strip()
        elif key in ("perft", "merged"):
            assert case_id and fen, f"{rule_set}.perft:{number}: count before id/fen"
            depth, nodes = (int(v) for v in value.split())
            cases.append(PerftCase(rule_set, case_id, fen, depth, nodes, key == "perft"))
        else:
            raise AssertionError(f"{rule_set}.perft:{number}: unknown line {line!r}")
    return cases


def _params() -> list[object]:
    params: list[object] = []
    for rule_set in RULE_SET_KEYS:
        for case in _read(rule_set):
            kind = "perft" if case.paths else "merged"
            marks = [pytest.mark.slow] if case.nodes > SLOW_NODES else []
            test_id = f"{rule_set}-{case.id}-{kind}{case.depth}"
            params.append(pytest.param(case, id=test_id, marks=marks))
    return params


def test_every_rule_set_has_a_data_file() -> None:
    for rule_set in RULE_SET_KEYS:
        cases = _read(rule_set)
        assert any(c.id == "start" for c in cases), rule_set


@pytest.mark.parametrize("case", _params())
def test_perft(case: PerftCase) -> None:
    board = Board(case.rule_set, fen=case.fen)
    fen_before = board.fen()
    assert perft(board, case.depth, paths=case.paths) == case.nodes
    assert board.fen() == fen_before, "perft must leave the board as it found it"
