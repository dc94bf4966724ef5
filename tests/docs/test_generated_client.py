"""A client generated from the app's /openapi.json by `openapi-python-client` plays a whole
game against a real Uvicorn server: typed models in and out, and typed access to the
refusal's `legal_moves` when a move is illegal."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app
from tests.web.servers import serve_app

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
# The generator reads text/* answers as text; PDN is text by another name. Post-hooks
# (ruff over the output) are not needed to import it.
CONFIG = """\
package_name_override: checkers_client
post_hooks: []
content_type_overrides:
  application/x-pdn: text/plain
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("client-app")
    url = f"sqlite:///{tmp}/client.sqlite3"
    database = Database(url)
    Base.metadata.create_all(database.engine)
    app = create_app(
        Settings(
            database_url=url,
            scheduler_enabled=False,
            migrate_on_start=False,
            rate_limit_enabled=False,  # a whole game is more moves than a minute's share
            log_level="WARNING",
        ),
        database=database,
    )
    with serve_app(app) as base:
        yield base, app.openapi()
    database.dispose()


@pytest.fixture(scope="module")
def client_package(
    served: tuple[str, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    tmp = tmp_path_factory.mktemp("generated")
    (tmp / "openapi.json").write_text(json.dumps(served[1]))
    (tmp / "config.yml").write_text(CONFIG)
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(tmp / "openapi.json"), "--meta", "none",
         "--config", str(tmp / "config.yml"), "--output-path", str(tmp / "checkers_client")],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    # The one thing it leaves out: the import's text/plain body (it has no text bodies;
    # the same route takes the file as application/octet-stream, which it generates).
    warnings = [line for line in output.splitlines() if line.startswith("WARNING")]
    assert warnings == ["WARNING parsing POST /api/imports within imports."], output
    assert output.count("Unsupported content type text/plain") == 1, output
    sys.path.insert(0, str(tmp))
    try:
        yield importlib.import_module("checkers_client")
    finally:
        sys.path.remove(str(tmp))
        for name in [m for m in sys.modules if m.split(".")[0] == "checkers_client"]:
            del sys.modules[name]


def test_generated_client_plays_a_whole_game(
    served: tuple[str, dict[str, Any]], client_package: ModuleType
) -> None:
    base = served[0]
    models = importlib.import_module("checkers_client.models")
    rooms = {
        name: importlib.import_module(f"checkers_client.api.rooms.{name}")
        for name in ("create_room", "join_room", "play_move", "get_room", "get_game_pdn")
    }
    anyone = client_package.Client(base_url=base)

    created = rooms["create_room"].sync(
        client=anyone,
        body=models.CreateRoomIn(rule_set=models.CreateRoomInRuleSet.ENGLISH, name="Ana"),
    )
    assert isinstance(created, models.SeatGrant), created
    joined = rooms["join_room"].sync(
        room_id=created.room_id, client=anyone, body=models.JoinIn(name="Ben")
    )
    assert isinstance(joined, models.SeatGrant), joined
    seats = {
        created.side: client_package.AuthenticatedClient(base_url=base, token=created.token),
        joined.side: client_package.AuthenticatedClient(base_url=base, token=joined.token),
    }

    # An illegal move (a tires move with the drums to play): the refusal is a typed Error
    # whose `legal_moves` is a list of the moves there are: the seven opening moves of
    # English checkers, as every opening table lists them.
    refused = rooms["play_move"].sync(
        room_id=created.room_id,
        client=seats[created.side],
        body=models.MoveIn(move="22-18", expected_ply=0),
    )
    assert isinstance(refused, models.Error), refused
    assert refused.code == models.ErrorCode.ILLEGAL_MOVE
    assert isinstance(refused.legal_moves, list)
    assert sorted(refused.legal_moves) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    )

    # Play on, each side taking its first listed legal move, until the rules end it.
    view = rooms["get_room"].sync(room_id=created.room_id, client=anyone)
    assert isinstance(view, models.RoomView)
    plies = 0
    while view.game.status == models.GameOutStatus.PLAYING and plies < 1000:
        side = view.game.turn
        move = view.game.legal_moves[0]
        answer = rooms["play_move"].sync(
            room_id=created.room_id,
            client=seats[side],
            body=models.MoveIn(move=move.engine_notation, expected_ply=view.game.ply),
        )
        assert isinstance(answer, models.RoomView), answer
        assert answer.game.ply == view.game.ply + 1
        view, plies = answer, plies + 1
    assert view.game.status == models.GameOutStatus.FINISHED
    assert view.game.result is not None and view.game.result.text
    assert view.status == models.RoomViewStatus.FINISHED
    assert len(view.game.moves) == plies

    # The PDN export, typed as text, records every move and the result.
    pdn = rooms["get_game_pdn"].sync(room_id=created.room_id, number=1, client=anyone)
    assert isinstance(pdn, str), pdn
    assert f'[Result "{view.game.result.pdn.value}"]' in pdn
