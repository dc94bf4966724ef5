"""Acceptance: Hypothesis fuzzes move text and FEN parsing in the engine; nothing raises
but the engine's own errors, and whatever parses is consistent (a parsed move is legal,
a parsed position survives a FEN round trip and move generation)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from checkers_engine import RULE_SETS, Board, EngineError, parse_square

RULE_SET_KEYS = sorted(RULE_SETS)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

rule_sets = st.sampled_from(RULE_SET_KEYS)
# Text near the grammar reaches deeper than arbitrary text: squares, separators, kings.
number = st.integers(min_value=-3, max_value=60).map(str) | st.sampled_from(["0", "00", "1e3", "٣"])
square = number | st.from_regex(r"[a-jA-J]?[0-9]{1,2}", fullmatch=True)
piece = st.tuples(st.sampled_from(["", "K", "k", "KK"]), square).map("".join)
ranges = st.tuples(piece, st.sampled_from(["-", ".."]), piece).map("".join)
pieces = st.lists(piece | ranges, max_size=14).map(",".join)
fen_like = st.tuples(
    st.sampled_from(["B", "W", "b", "w", "?", ""]),
    st.sampled_from([":", "", "::"]),
    st.sampled_from(["W", "B", "X", ""]),
    pieces,
    st.sampled_from([":", ""]),
    st.sampled_from(["B", "W", ""]),
    pieces,
    st.sampled_from(["", ".", ":", ":H0:F1", " "]),
).map("".join)
SQ = r"K?([1-9]|[12][0-9]|3[0-2])"
fen_valid_shape = st.from_regex(rf"[BW]:W({SQ},){{0,11}}{SQ}:B({SQ},){{0,11}}{SQ}", fullmatch=True)
move_like = st.tuples(
    square,
    st.lists(st.tuples(st.sampled_from(["-", "x", ":", "X", "", " ", "--"]), square), max_size=8),
).map(lambda t: t[0] + "".join(sep + sq for sep, sq in t[1]))


def _positions(seed: int, rule_set: str) -> Board:
    """A position reached by random play from the start (quiet and capture positions)."""
    board = Board(rule_set)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    return board


@FUZZ
@given(st.text(max_size=12) | square)
def test_parse_square_raises_only_engine_errors(text: str) -> None:
    try:
        value = parse_square(text)
    except EngineError:
        return
    assert 1 <= value <= 32


@FUZZ
@given(rule_sets, st.text(max_size=80) | fen_like | fen_valid_shape)
def test_fen_parsing_raises_only_engine_errors(rule_set: str, text: str) -> None:
    try:
        board = Board(rule_set, fen=text)
    except EngineError:
        return
    # What parses is a usable position: moves, outcome and a stable FEN round trip.
    fen = board.fen()
    assert Board(rule_set, fen=fen).fen() == fen
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        child.outcome()
    board.outcome()


def _mutated(rng: random.Random, text: str) -> str:
    """A legal move's text, bent the way people and programs bend it."""
    for _ in range(rng.randrange(1, 4)):
        match rng.randrange(7):
            case 0:
                text = text.replace(rng.choice("-x:"), rng.choice(["-", "x", ":", "X", " ", ""]))
            case 1:
                text = text.upper()
            case 2:
                cut = rng.randrange(len(text) + 1)
                text = text[:cut] + rng.choice([" ", "0", "x", "-", "\t", "99"]) + text[cut:]
            case 3:
                text = text[: rng.randrange(len(text) + 1)]
            case 4:
                text = f" {text} "
            case 5:
                text += rng.choice(["x1", "-32", ":a1", "x", "!"])
            case _:
                text = text[::-1]
    return text


@FUZZ
@given(rule_sets, st.integers(0, 10_000), st.text(max_size=40) | move_like | st.integers(0, 10**6))
def test_move_parsing_raises_only_engine_errors(rule_set: str, seed: int, text: str | int) -> None:
    board = _positions(seed, rule_set)
    assume(not board.is_game_over())
    if isinstance(text, int):  # a legal move's notation, mutated
        rng = random.Random(text)
        move = rng.choice(board.legal_moves)
        text = _mutated(rng, rng.choice([move.notation(), move.algebraic()]))
    before = board.fen()
    try:
        move = board.parse_move(text)
    except EngineError:
        assert board.fen() == before
        return
    assert move in board.legal_moves
    board.push_text(text)
    assert board.move_stack[-1] == move


@FUZZ
@given(rule_sets, st.integers(0, 10_000), st.data())
def test_every_notation_of_a_legal_move_parses_back(
    rule_set: str, seed: int, data: st.DataObject
) -> None:
    board = _positions(seed, rule_set)
    assume(not board.is_game_over())
    move = data.draw(st.sampled_from(board.legal_moves))
    for text in (move.notation(), move.algebraic(), f"{move.start}-{move.end}"):
        try:
            parsed = board.parse_move(text)
        except EngineError:
            # Only the short start-end form may be ambiguous (several capture routes).
            assert text == f"{move.start}-{move.end}" and move.is_capture
            continue
        assert parsed == move, (text, parsed, move)
