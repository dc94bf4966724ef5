"""The opening books: legal in every position they hold, played by the Executive only, with
variety among near-equal moves; and the builder's output reads back."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from checkers_engine import RULE_SETS, Board
from checkers_engine.ai import Searcher, book, choose_move

ENGINE = Path(__file__).resolve().parents[2]
DATA = ENGINE / "data"
BALLOTS = DATA / "english-3move-ballots.txt"


def no_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("searched a position the book holds")


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_every_book_move_is_legal_in_its_position(rule_set: str) -> None:
    shipped = book.load(rule_set)
    assert shipped.rule_set == rule_set
    assert Board(rule_set).fen() in shipped.positions
    assert len(shipped.positions) >= 20
    for fen, moves in shipped.positions.items():
        board = Board(rule_set, fen=fen)
        assert board.fen() == fen  # keys are the engine's own FEN
        legal = {str(m) for m in board.legal_moves}
        assert moves, fen
        assert all(text in legal for text, _ in moves), (fen, moves)
        scores = [score for _, score in moves]
        assert scores == sorted(scores, reverse=True)
        assert scores[0] - scores[-1] <= book.KEEP


def test_the_english_book_holds_every_ballot_of_the_deck() -> None:
    if not BALLOTS.is_file():
        pytest.fail(f"{BALLOTS} is missing (data/README.md says where it comes from)")
    deck = [
        [f.strip() for f in line.split("|")]
        for line in BALLOTS.read_text().splitlines()
        if not line.startswith("#") and "|" in line
    ]
    fens = [Board("english", fen=f[3]).fen() for f in deck if f[2] == "deck"]
    assert len(fens) == 156
    positions = book.load("english").positions
    assert [fen for fen in fens if fen not in positions] == []


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_the_executive_plays_from_the_book_without_searching(
    rule_set: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Searcher, "run", no_search)
    board = Board(rule_set)
    played = 0
    # Follow the book as far as it goes (at least the first move of each side).
    while book.book_moves(board) and played < 12:
        moves = dict(book.book_moves(board))
        best = max(moves.values())
        move = choose_move(board, "executive", seed=played)
        assert moves[move] >= best - book.MARGIN
        board.push(move)
        played += 1
    assert played >= 2


def test_the_levels_below_the_executive_never_open_the_book(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_book(*args: object, **kwargs: object) -> None:
        raise AssertionError("looked in the book")

    monkeypatch.setattr(book, "choose", no_book)
    monkeypatch.setattr(book, "book_moves", no_book)
    for rule_set in RULE_SETS:
        board = Board(rule_set)
        for level in ("tamer", "driver", "warden"):
            assert choose_move(board, level, seed=1, time_limit=0.2) in board.legal_moves


@pytest.mark.parametrize("rule_set", ["english", "russian"])
def test_near_equal_book_moves_vary_with_the_seed(rule_set: str) -> None:
    positions = book.load(rule_set).positions
    # Where the book's search finds one move clearly best it plays that one; a good share
    # of its positions offer a choice.
    offers = sorted(
        fen
        for fen, moves in positions.items()
        if sum(score >= moves[0][1] - book.MARGIN for _, score in moves) >= 2
    )
    assert len(offers) >= len(positions) // 4
    board = Board(rule_set, fen=offers[0])
    moves = book.book_moves(board)
    near = {m for m, s in moves if s >= moves[0][1] - book.MARGIN}
    chosen = {choose_move(board, "executive", seed=seed) for seed in range(40)}
    assert len(chosen) >= 2
    assert chosen <= near
    # A seed repeats its choice.
    assert len({choose_move(board, "executive", seed=5) for _ in range(5)}) == 1


def test_out_of_book_the_executive_searches() -> None:
    board = Board("english", fen="B:W18,22,K30:B3,9,K14")
    assert book.book_moves(board) == []
    assert choose_move(board, "executive", seed=1, time_limit=0.1) in board.legal_moves


def test_a_small_build_reads_back_and_grows_from_its_roots() -> None:
    root = Board("russian")
    root.push_text("c3-d4")
    built = book.build("russian", positions=5, nodes=3000, roots=[(root.fen(), 1)])
    assert len(built.positions) == 5
    assert {Board("russian").fen(), root.fen()} <= set(built.positions)
    again = book.Book.from_json(built.to_json())
    assert again == built
    for fen, moves in again.positions.items():
        legal = {str(m) for m in Board("russian", fen=fen).legal_moves}
        assert {text for text, _ in moves} <= legal
    # A choice from it is one of its best moves.
    move = book.choose(Board("russian"), random.Random(1), again)
    assert move is not None
    assert dict(book.book_moves(Board("russian"), again))[move] >= (
        again.positions[Board("russian").fen()][0][1] - book.MARGIN
    )


def test_a_build_does_not_depend_on_the_order_its_roots_are_searched_in() -> None:
    roots = []
    for text in ("c3-d4", "c3-b4", "e3-f4"):
        board = Board("russian")
        board.push_text(text)
        roots.append((board.fen(), 1))

    def backwards(
        function: Callable[..., book.Searched], *columns: Iterable[object]
    ) -> list[book.Searched]:
        # As a process pool may finish them: the last root first.
        answers = [function(*args) for args in reversed(list(zip(*columns, strict=True)))]
        return answers[::-1]

    ahead = book.build("russian", positions=6, nodes=2000, roots=roots)
    behind = book.build("russian", positions=6, nodes=2000, roots=roots, mapper=backwards)
    assert ahead == behind
    assert ahead.info["search"] == "executive"
    assert {fen for fen, _ in roots} <= set(ahead.positions)
