"""PDN: the reader's tokens and places, replay reports, and the writer in each tradition."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from checkers_engine import RULE_SETS, Board, Side, Termination, fen, notation, pdn
from checkers_engine.pdn import GameRecord, PdnError, read_games, replay, write_game

ALL = tuple(RULE_SETS)

TWO_GAMES = """\
[Event "First"]
[Black "A \\"Ace\\" B"]
[White "C"]
[Result "1-0"]
1. 11-15 $1 23-18 {a comment
over two lines} 2. 8-11! 27-23 (2... 26-22 3. 15x22) 3. 4-8 23-19 4. 10x14 19x10
14x23 1-0

[Event "Second"]
[Result "2-0"]
1. 9-14 22-17 2. 11-16 24-19 1-1
"""


def test_tags_moves_comments_and_places() -> None:
    first, second = read_games(TWO_GAMES)
    assert (first.number, second.number) == (1, 2)
    assert first.tag("Black") == 'A "Ace" B'
    assert first.tag_place("Result") == (4, 1)
    assert [m.text for m in first.moves] == [
        "11-15", "23-18", "8-11", "27-23", "4-8", "23-19", "10x14", "19x10", "14x23",
    ]  # fmt: skip
    assert (first.moves[0].line, first.moves[0].column, first.moves[0].number) == (5, 4, 1)
    assert (first.moves[2].line, first.moves[2].column, first.moves[2].number) == (6, 20, 2)
    last = first.moves[-1]
    assert (last.line, last.column, last.number) == (7, 1, None)
    assert [c.text for c in first.comments] == ["a comment\nover two lines"]
    assert first.comments[0].ply == 2
    assert first.result_token == "1-0"
    assert (second.line, second.column) == (9, 1)
    assert second.result_token == "1-1"
    assert first.problem is None and second.problem is None


def test_replay_normalises_and_says_so() -> None:
    first, second = (replay(g) for g in read_games(TWO_GAMES))
    assert first.ok and second.ok
    assert len(first.moves) == 9
    notes = [n.text for n in first.notes]
    # "10x14" is a plain move here: read as CheckerBoard reads it.
    assert "10x14 is a plain move written with a capture mark; read as 10-14" in notes
    # Black's fifth move has no number; it is kept.
    assert "move 5 has no move number before 14x23" in notes
    assert first.result == "1-0" and first.winner is Side.DRUMS
    assert second.result == "1-0" and second.winner is Side.DRUMS
    second_notes = [n.text for n in second.notes]
    assert "result 2-0 read as 1-0" in second_notes
    assert "the Result tag says 2-0 and the movetext ends with 1-1; the tag is read" in second_notes


def test_text_glued_to_a_move_is_a_noted_comment() -> None:
    text = '[Result "0-1"]\n1. 11-15 23-18 2. 8-11Redoverstepped. 0-1\n'
    (game,) = read_games(text)
    assert [m.text for m in game.moves] == ["11-15", "23-18", "8-11"]
    assert game.comments[-1].text == "Redoverstepped."
    (note,) = game.notes
    assert (note.line, note.column) == (2, 23)
    assert "glued to the move 8-11" in note.text
    report = replay(game)
    assert report.ok and report.result == "0-1" and report.winner is Side.TIRES


def test_a_failing_game_reports_where_and_why_and_the_next_goes_on() -> None:
    text = (
        '[Event "ok"]\n1. 11-15 23-18 *\n\n'
        '[Event "bad"]\n[Result "*"]\n1. 11-15 23-18\n2. 15-22 24x15 *\n\n'
        '[Event "after"]\n1. 9-13 *\n'
    )
    reports = pdn.read_pdn(text)
    assert [r.ok for r in reports] == [True, False, True]
    failure = reports[1].failure
    assert failure is not None
    assert (failure.game, failure.line, failure.column, failure.ply) == (2, 7, 4, 2)
    assert failure.move == "15-22"
    board = Board()
    board.push_text("11-15")
    board.push_text("23-18")
    legal = sorted((m.notation() for m in board.legal_moves), key=lambda t: t.split("-"))
    assert sorted(failure.legal_moves, key=lambda t: t.split("-")) == legal
    assert (
        failure.reason == f"15-22 is not legal here; legal moves: {', '.join(failure.legal_moves)}"
    )
    assert reports[1].moves == tuple(board.move_stack)
    assert str(failure).startswith("game 2, line 7, column 4, ply 2: 15-22 is not legal")
    assert len(reports[2].moves) == 1


def test_unreadable_text_and_unknown_game_types_fail_with_their_place() -> None:
    (junk,) = pdn.read_pdn("1. 11-15 hello 23-18 *\n")
    assert junk.failure is not None
    assert (junk.failure.line, junk.failure.column, junk.failure.ply) == (1, 10, 1)
    assert "cannot read 'hello'" in junk.failure.reason
    (international,) = pdn.read_pdn('[GameType "20"]\n1. 32-28 *\n')
    assert international.failure is not None
    assert (international.failure.line, international.failure.ply) == (1, 0)
    assert "GameType '20' is not a rule set of this service" in international.failure.reason
    (unclosed,) = pdn.read_pdn("1. 11-15 {never closed\n")
    assert unclosed.failure is not None and "never closed" in unclosed.failure.reason


def test_game_types_long_and_short_and_the_fen_tag() -> None:
    text = (
        '[GameType "25,W,8,8,A0,0"]\n[SetUp "1"]\n'
        '[FEN "B:Wa1,e3,g3,d4,c1,e1,g1,b2,d2,f2,h2,a3:'
        'Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8:H0:F1"]\n'
        "1... f6-e5 2. d4:f6 g7xe5 *\n"
    )
    (report,) = pdn.read_pdn(text)
    assert report.ok, report.failure
    assert report.rule_set == "russian"
    assert report.start is not None and report.start.turn is Side.TIRES
    board = Board("russian")
    for move in ("c3-d4", "f6-e5", "d4:f6", "g7:e5"):
        board.push(notation.parse_move(board, move))
    assert report.final_fen == board.fen()
    (bad,) = pdn.read_pdn('[GameType "26"]\n[FEN "B:W21-32:B1-12"]\n1. c3-d4 *\n')
    assert bad.failure is not None and bad.failure.ply == 0
    assert "the FEN tag: wrong side to move" in bad.failure.reason


def test_the_service_draw_is_noted_and_the_record_goes_on() -> None:
    # Two kings shuffle: the position occurs a third time after 8 plies; 12 are recorded.
    text = (
        '[FEN "B:WK32:BK1"]\n1. 1-6 32-27 2. 6-1 27-32 3. 1-6 32-27 4. 6-1 27-32 '
        "5. 1-6 32-27 6. 6-1 27-32 1/2-1/2\n"
    )
    (report,) = pdn.read_pdn(text)
    assert report.ok and len(report.moves) == 12
    assert report.service_end == pdn.ServiceEnd(8, Termination.REPETITION)
    (note,) = [n for n in report.notes if "service's rules" in n.text]
    assert "at ply 8" in note.text and (note.line, note.column) == (2, 47)


def _random_game(rule_set: str, seed: int, plies: int = 400) -> list[pdn.Move]:
    rng = random.Random(seed)
    board = Board(rule_set)
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return board.move_stack


@pytest.mark.parametrize("rule_set", ALL)
def test_writer_tags_colours_and_result_in_each_tradition(rule_set: str) -> None:
    moves = _random_game(rule_set, 7, plies=11)
    record = GameRecord(
        rule_set,
        moves,
        finished=True,
        winner=Side.DRUMS,
        drums_player="Ann",
        tires_player="Bob",
        event="Test",
        site="here",
        date="2026.12.01",
        round="3",
        termination="resignation",
        utc=datetime(2026, 12, 1, 9, 30, 5, tzinfo=UTC),
        comment="tires resigned",
        extra_tags={"Annotator": "nobody"},
    )
    text = write_game(record)
    head, _, body = text.partition("\n\n")
    names = [line[1:].split(" ")[0] for line in head.splitlines()]
    assert names == [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType",
        "Termination", "UTCDate", "UTCTime", "Annotator",
    ]  # fmt: skip
    first = notation.tradition(rule_set).first_mover.value
    second = "Black" if first == "White" else "White"
    assert f'[{first} "Ann"]' in head and f'[{second} "Bob"]' in head
    assert '[Result "1-0"]' in head  # the first mover won
    assert f'[GameType "{RULE_SETS[rule_set].pdn_gametype}"]' in head
    assert '[UTCDate "2026.12.01"]' in head and '[UTCTime "09:30:05"]' in head
    assert body.startswith("1. ")
    assert body.rstrip().endswith("{tires resigned} 1-0")
    assert all(len(line) <= 79 for line in body.splitlines())
    (report,) = pdn.read_pdn(text)
    assert report.ok and report.moves == tuple(moves) and report.winner is Side.DRUMS


@pytest.mark.parametrize("rule_set", ALL)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_written_games_read_back_move_for_move(rule_set: str, seed: int) -> None:
    moves = _random_game(rule_set, seed)
    board = Board(rule_set)
    for move in moves:
        board.push(move)
    outcome = board.outcome()
    record = GameRecord(
        rule_set,
        moves,
        finished=outcome is not None,
        winner=outcome.winner if outcome else None,
    )
    (report,) = pdn.read_pdn(write_game(record))
    assert report.ok, report.failure
    assert report.moves == tuple(moves)
    assert report.result == (pdn.pdn_result(outcome.winner) if outcome else "*")
    assert not [n for n in report.notes if "capture mark" in n.text or "number" in n.text]


@pytest.mark.parametrize("rule_set", ALL)
def test_games_from_a_position_carry_setup_and_fen(rule_set: str) -> None:
    board = Board(rule_set)
    rng = random.Random(5)
    for _ in range(7):
        board.push(rng.choice(board.legal_moves))
    start = board.fen()  # the second mover to move
    rest = _continue(Board(rule_set, fen=start), 9)
    text = write_game(GameRecord(rule_set, rest, start_fen=start, start_half_move_clock=0))
    head, _, body = text.partition("\n\n")
    assert '[SetUp "1"]' in head
    fen_tag = next(line for line in head.splitlines() if line.startswith("[FEN "))
    assert fen.read(rule_set, fen_tag[6:-2]).internal_fen() == start
    assert body.startswith("1... ")
    (report,) = pdn.read_pdn(text)
    assert report.ok and report.moves == tuple(rest)


def _continue(board: Board, plies: int) -> list[pdn.Move]:
    rng = random.Random(11)
    out = []
    for _ in range(plies):
        if board.is_game_over():
            break
        move = rng.choice(board.legal_moves)
        board.push(move)
        out.append(move)
    return out


def test_writer_refuses_an_illegal_move() -> None:
    # Moves may be given in the engine's own notation, as stored.
    text = write_game(GameRecord("english", ["11-15", "22-18", "15x22"], finished=False))
    assert "1. 11-15 22-18 2. 15x22 *" in text
    with pytest.raises(PdnError, match="ply 2: 23-14 is not legal here"):
        write_game(GameRecord("english", ["11-15", "23-14"]))
    tires_move = Board("english", fen="W:W22:B1").parse_move("22-17")
    with pytest.raises(PdnError, match="ply 1: 22-17 is not legal in this game"):
        write_game(GameRecord("english", [tires_move]))


def test_captures_write_start_and_end_unless_two_moves_share_them() -> None:
    # Brazilian: two captures from the same king square to the same landing square.
    start = "B:W26,9,25,16,28,14:BK20,21,5"
    board = Board("brazilian", fen=start)
    shared = [m for m in board.legal_moves if (m.start, m.end) == (20, 31)]
    assert len(shared) == 2
    text = write_game(GameRecord("brazilian", [shared[0]], start_fen=start))
    movetext = text.partition("\n\n")[2]
    written = movetext.split()[1]
    assert written.count("x") == len(shared[0].path) - 1
    (report,) = pdn.read_pdn(text)
    assert report.ok and report.moves == (shared[0],)


def test_byte_order_mark_and_crlf_lines() -> None:
    (report,) = pdn.read_pdn('\ufeff[Event "x"]\r\n1. 11-15 22-18 *\r\n')
    assert report.ok and report.game.tag_values == {"Event": "x"}
    assert [(m.text, m.line, m.column) for m in report.game.moves] == [
        ("11-15", 2, 4),
        ("22-18", 2, 10),
    ]


def test_a_comment_after_the_result_stays_with_its_game() -> None:
    games = read_games("1. 11-15 22-18 1-0 {Black won on time}\n\n1. 9-13 *\n")
    assert len(games) == 2
    assert [c.text for c in games[0].comments] == ["Black won on time"]
    assert [m.text for m in games[1].moves] == ["9-13"]


def test_variations_and_comments_are_written_and_read_back() -> None:
    """A player's own copy of a game: a comment before the first move, comments after
    moves, variations that replace a move; the reader gives them all back, replayed."""
    record = GameRecord(
        "english",
        ["11-15", "22-18", "15x22"],
        first_comment="my {game}",
        move_comments=[None, "why?", None],
        variations={0: [["9-13", "22-18"]], 1: [["24-20", "8-11"], ["23-19"]]},
    )
    text = write_game(record)
    assert "{my (game)} 1. 11-15 (1. 9-13 22-18) 22-18 {why?} (1... 24-20 2. 8-11)" in " ".join(
        text.split()
    )
    [game] = read_games(text)
    report = replay(game)
    assert report.ok and [m.notation() for m in report.moves] == ["11-15", "22-18", "15x22"]
    assert [(c.ply, c.text) for c in game.comments] == [(0, "my (game)"), (2, "why?")]
    assert [(v.ply, [m.notation() for m in v.moves]) for v in report.variations] == [
        (0, ["9-13", "22-18"]),
        (1, ["24-20", "8-11"]),
        (1, ["23-19"]),
    ]


def test_a_variation_that_goes_wrong_stops_there_and_is_noted() -> None:
    text = '[GameType "21"]\n\n1. 11-15 (1. 9-13 22-18 13-9 {deep} 25-22) 22-18 *\n'
    report = replay(read_games(text)[0])
    assert report.ok
    [variation] = report.variations
    assert [m.notation() for m in variation.moves] == ["9-13", "22-18"]
    assert [n.code for n in report.notes if n.code == "variation_move_illegal"] == [
        "variation_move_illegal"
    ]


def test_a_variation_cannot_stand_after_the_last_move() -> None:
    with pytest.raises(PdnError):
        write_game(GameRecord("english", ["11-15"], variations={1: [["22-18"]]}))
