"""The Tinsley archive (724 recorded English games) read and replayed by the PDN reader.

The file is ``data/tinsley.pdn``; ``data/README.md`` names its source.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from checkers_engine import Side, Termination
from checkers_engine.pdn import ReplayReport, read_games, replay

ENGINE = Path(__file__).resolve().parents[2]
DATA = ENGINE / "data"
TINSLEY = DATA / "tinsley.pdn"


@cache
def reports() -> tuple[str, tuple[ReplayReport, ...]]:
    if not TINSLEY.is_file():
        pytest.fail(f"{TINSLEY} is missing (data/README.md says where it comes from)")
    text = TINSLEY.read_text(encoding="ascii")
    return text, tuple(replay(g) for g in read_games(text))


def test_all_but_one_game_import_fully_with_tinsleys_results() -> None:
    _, games = reports()
    assert len(games) == 724
    assert [r.game.number for r in games if not r.ok] == [541]
    wins = losses = draws = 0
    for report in games:
        # English: Black moves first (the drums); "1-0" means Black won.
        tinsley = Side.DRUMS if "insley" in (report.game.tag("Black") or "") else Side.TIRES
        assert "insley" in (report.game.tag("Black" if tinsley is Side.DRUMS else "White") or "")
        if report.winner is None:
            assert report.result == "1/2-1/2"
            draws += 1
        elif report.winner is tinsley:
            wins += 1
        else:
            losses += 1
    assert (wins, losses, draws) == (175, 16, 533)


def test_no_move_is_dropped() -> None:
    text, games = reports()
    # Every move-shaped token of a game's movetext, counted independently of the reader.
    chunks = re.split(r"\n(?=\[Event )", text)
    assert len(chunks) == len(games)
    move = re.compile(r"(?<![\d./])\d{1,2}(?:[-x]\d{1,2})+(?![\d/])")
    for chunk, report in zip(chunks, games, strict=True):
        movetext = re.sub(r"\[[^\]]*\]", "", chunk)
        written = sum(
            all(1 <= int(sq) <= 32 for sq in re.split("[-x]", token))
            for token in move.findall(movetext)
        )  # not the results 1-0 and 0-1
        if report.ok:
            assert len(report.moves) == written, report.game.number
    # Many games omit the number of a move (often the last: pydraughts drops that move);
    # every such move is replayed and noted. Three moves in a row lack a number.
    square = r"(?:3[0-2]|[12][0-9]|[1-9])"
    three = re.compile(rf"(?:\s+{square}(?:[-x]{square})+(?![\d/])[A-Za-z.]*){{3}}")
    lacking = {
        n for n, chunk in enumerate(chunks, 1) if three.search(re.sub(r"\{[^}]*\}", "", chunk))
    }
    noted = {r.game.number for r in games if any("no move number" in n.text for n in r.notes)}
    assert len(lacking) > 100
    assert noted == lacking - {541}  # 541 stops at its illegal move, before its last move


def test_comments_glued_to_the_last_move_are_read_with_a_note() -> None:
    _, games = reports()
    for number, line, column, move, text in (
        (623, 6434, 74, "8-11", "Redoversteppedthetimecontrolonthismove."),
        (693, 7170, 22, "26-22", "Whiteoversteppedthetimecontrolonthismove."),
    ):
        report = games[number - 1]
        assert report.ok
        assert report.game.moves[-1].text == move
        assert report.game.comments[-1].text == text
        glued = [n for n in report.notes if "glued" in n.text]
        assert [(n.line, n.column) for n in glued] == [(line, column)]
        assert move in glued[0].text
    assert games[622].result == "0-1"  # Black overstepped the time: White (Tinsley) won
    assert games[692].result == "1-0"  # White overstepped the time: Black (Tinsley) won


def test_game_541_reports_its_illegal_move_after_the_service_draw() -> None:
    _, games = reports()
    report = games[540]
    failure = report.failure
    assert failure is not None
    assert (failure.game, failure.ply, failure.move) == (541, 122, "32-28")
    assert (failure.line, failure.column) == (5588, 5)
    assert failure.reason.startswith("32-28 is not legal here")
    assert failure.legal_moves == ("16-19", "16-20", "28-24", "28-32", "29-25")
    assert len(report.moves) == 122
    assert report.service_end is not None
    assert (report.service_end.ply, report.service_end.termination) == (
        109,
        Termination.KING_MOVES,
    )
    draw_notes = [n for n in report.notes if "would have drawn" in n.text]
    assert len(draw_notes) == 1 and "at ply 109" in draw_notes[0].text


def test_plain_moves_written_with_x_are_read_as_checkerboard_reads_them() -> None:
    _, games = reports()
    first = games[0]
    assert first.ok
    assert any(n.text.startswith("10x14 is a plain move") for n in first.notes)
