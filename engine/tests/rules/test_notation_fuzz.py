"""Hypothesis fuzzes the tradition readers: only the engine's own errors come out, and
whatever a reader accepts is consistent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checkers_engine import RULE_SETS, Board, EngineError, fen, notation, pdn

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
rule_sets = st.sampled_from(sorted(RULE_SETS))
square = st.integers(-2, 40).map(str) | st.from_regex(r"[a-jA-J][0-9]", fullmatch=True)
square |= st.sampled_from(["²", "٣", "K", ""])
items = st.lists(
    st.tuples(st.sampled_from(["", "K"]), square, st.sampled_from(["", "-"]), square).map(
        lambda t: t[0] + t[1] + (t[2] + t[3] if t[2] else "")
    ),
    max_size=10,
).map(",".join)
fen_like = st.tuples(
    st.sampled_from(["W", "B", "X", "", '[FEN "W']),
    st.sampled_from([":W", ":B", ":", ""]),
    items,
    st.sampled_from([":B", ":W", ""]),
    items,
    st.sampled_from(["", ":H0:F1", ":H3", ":F0", ":Hx", ":H1:H2", '"]']),
).map("".join)
pdn_like = st.lists(
    st.sampled_from(
        [
            "1.",
            "2.",
            "1...",
            "11-15",
            "23-18",
            "8x11",
            "c3-d4",
            "f6-e5",
            "{",
            "}",
            "(",
            ")",
            "{note}",
            "$3",
            "!",
            "1-0",
            "0-1",
            "2-0",
            "1-1",
            "*",
            '[Event "x"]',
            '[FEN "W:W21:B1"]',
            '[GameType "25"]',
            '[GameType "20"]',
            "[",
            "]",
            "\n",
            " ",
            "15x22x",
            "%esc\n",
            "abc",
        ]
    ),
    max_size=30,
).map(" ".join)


@FUZZ
@given(rule_sets, st.text(max_size=8) | square)
def test_squares_in_a_tradition(rule_set: str, text: str) -> None:
    try:
        square = notation.parse_square(rule_set, text)
    except EngineError:
        return
    assert 1 <= square <= 32
    assert notation.parse_square(rule_set, notation.format_square(rule_set, square)) == square


@FUZZ
@given(rule_sets, fen_like | st.text(max_size=30))
def test_tradition_fen(rule_set: str, text: str) -> None:
    try:
        position = fen.read(rule_set, text)
    except EngineError:
        return
    assert fen.read(rule_set, fen.write(position, counters=True)) == position.with_counters(
        position.half_move_clock or 0, position.move_number or 1
    )
    board = Board.from_position(position)
    board.legal_moves  # noqa: B018 -- move generation works on whatever was accepted


@FUZZ
@given(pdn_like | st.text(max_size=80))
def test_pdn_reader_and_replay(text: str) -> None:
    for game in pdn.read_games(text):
        report = pdn.replay(game)
        assert report.ok == (report.failure is None)
        board = (
            Board(report.rule_set) if report.start is None else Board.from_position(report.start)
        )
        for move in report.moves:
            board.push(move)
        assert board.fen() == report.final_fen
