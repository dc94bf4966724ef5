"""Whole games through the API, to their end, in each of the six rule sets.

Moves are picked by a seeded policy (take when possible) from the legal moves the API
offers; the ending is then checked against the rules on the stored record itself
(pieces in the FEN, repeated positions, king moves), not against the engine's word.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from sqlalchemy import select

from app.core.db import Database
from app.rooms.models import Game, Move
from checkers_engine import Board
from checkers_engine.pdn import read_pdn

from .conftest import Api

RULE_SETS = ["english", "brazilian", "russian", "spanish", "italian", "thai"]


def parse_fen(fen: str) -> tuple[str, dict[str, dict[int, bool]]]:
    """(side to move, {"drums": {square: is_king}, "tires": {...}}) from a PDN FEN."""
    turn, *fields = fen.split(":")
    pieces: dict[str, dict[int, bool]] = {"drums": {}, "tires": {}}
    for field in fields:
        side = "drums" if field[0] == "B" else "tires"
        for item in filter(None, field[1:].split(",")):
            pieces[side][int(item.lstrip("K"))] = item.startswith("K")
    return ("drums" if turn == "B" else "tires"), pieces


def play_to_the_end(api: Api, rule_set: str, seed: int) -> tuple[Any, dict[str, Any]]:
    room = api.create(rule_set)
    rng = random.Random(seed)
    view = api.view(room)
    while view["game"]["status"] == "playing":
        legal = sorted(view["game"]["legal_moves"], key=lambda m: m["engine_notation"])
        assert legal, "a game in progress always offers a move"
        most = max(len(m["captured"]) for m in legal)
        choice = rng.choice([m for m in legal if len(m["captured"]) == most])
        token = api.token_to_move(room)
        r = api.move(room, token, choice["engine_notation"], view["game"]["ply"])
        assert r.status_code == 200, r.text
        view = r.json()
    return room, view


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule_set", "seed"),
    [(rule_set, n) for n, rule_set in enumerate(RULE_SETS)] + [("english", 5), ("italian", 1)],
)
def test_a_whole_game_reaches_its_end(
    api: Api, database: Database, rule_set: str, seed: int
) -> None:
    room, view = play_to_the_end(api, rule_set, seed)
    game, result = view["game"], view["game"]["result"]
    assert view["status"] == "finished" and game["legal_moves"] == []
    assert result is not None and result["reason"] and result["text"]
    moves = game["moves"]
    assert [m["ply"] for m in moves] == list(range(1, len(moves) + 1))
    assert all(a["side"] != b["side"] for a, b in itertools.pairwise(moves))
    fens = [Board(rule_set).fen()] + [m["fen_after"] for m in moves]
    assert game["fen"] == fens[-1]
    loser = "tires" if result["winner"] == "drums" else "drums"
    turn, pieces = parse_fen(game["fen"])
    match result["termination"]:
        case "no_pieces":
            assert pieces[loser] == {} and pieces[result["winner"]]
            assert (
                result["text"] == f"{result['winner'].capitalize()} win: "
                f"{loser} have no pieces left"
            )
        case "no_moves":
            assert turn == loser and pieces[loser]
        case "repetition":
            assert result["winner"] is None
            assert fens.count(game["fen"]) == 3
            assert result["text"] == "Draw: threefold repetition"
        case "king_moves":
            assert result["winner"] is None
            for before, move in zip(fens[-21:-1], moves[-20:], strict=True):
                side_to_move, before_pieces = parse_fen(before)
                assert before_pieces[side_to_move][move["path"][0]] is True  # a king moved
                assert move["captured"] == []
        case "move_limit":
            assert game["ply"] == 1000
        case other:
            pytest.fail(f"unexpected ending {other}")
    # The stored position always equals the replay of the stored moves.
    with database.session() as session:
        stored = session.scalars(select(Game).where(Game.room_id == room.id)).one()
        notations = session.scalars(
            select(Move.notation).where(Move.game_id == stored.id).order_by(Move.ply)
        ).all()
    board = Board(rule_set)
    for text in notations:
        board.push_text(text)
    assert board.fen() == stored.fen
    assert board.is_game_over()
    pdn = api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    # The export, in the rule set's own notation, reads back as the same moves.
    (report,) = read_pdn(pdn)
    assert report.ok and report.rule_set == rule_set
    assert [m.notation() for m in report.moves] == [m["engine_notation"] for m in moves]
    assert f'[Result "{result["pdn"]}"]' in pdn


def test_threefold_repetition_draws_at_once(api: Api, database: Database) -> None:
    """Kings on g1 (1) and b8 (32) step out and back twice: the start position occurs a
    third time after the eighth ply."""
    from datetime import UTC, datetime

    from app.core.context import Context
    from app.core.settings import Settings
    from app.rooms import service

    from .conftest import Room

    with database.session() as session:
        granted = service.create_room(
            session,
            rule_set="english",
            ctx=Context(datetime.now(UTC), Settings(database_url=database.url)),
            first_fen="B:WK32:BK1",
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    view = api.play(room, "1-6", "32-27", "6-1", "27-32", "1-6", "32-27", "6-1")
    assert view["game"]["status"] == "playing"
    view = api.play(room, "27-32")
    assert view["game"]["result"]["text"] == "Draw: threefold repetition"
    assert view["game"]["ply"] == 8 and view["status"] == "finished"
