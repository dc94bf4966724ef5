"""The engine's reports on recorded games and FENs, each under a stable code with named parameters.

A reader's note or a reason a game cannot be replayed is a ``Message``: its ``code`` and
``params`` are the data (a caller may say them in any words), its ``text`` the English
this table gives them. Codes never change meaning; a new report gets a new code.

A parameter that quotes the text read (a move, a word, a comment, a tag, part of a FEN)
holds at most `EXCERPT` characters of it: a report says where and what, it does not
echo half a megabyte of an unreadable token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Every code and its English, with ``{name}`` placeholders filled from the params.
TEXTS: dict[str, str] = {
    # The reader's notes: liberties taken, facts worth telling.
    "glued_comment": "text glued to the move {move} read as a comment: '{comment}'",
    "no_move_number": "move {number} has no move number before {move}",
    "move_number_read_as": "move number {written} read as {number}",
    "capture_mark_on_plain_move": (
        "{move} is a plain move written with a capture mark; read as {read}"
    ),
    "service_draw_king_moves": (
        "this service's rules would have drawn the game here, at ply {ply} (20 king moves "
        "without a capture or a man's move); the recorded moves go on and are replayed"
    ),
    "service_draw_repetition": (
        "this service's rules would have drawn the game here, at ply {ply} (threefold "
        "repetition); the recorded moves go on and are replayed"
    ),
    "rules_win_drums_no_pieces": (
        "the rules end the game with Drums win: tires have no pieces left, the record gives "
        "{result}"
    ),
    "rules_win_tires_no_pieces": (
        "the rules end the game with Tires win: drums have no pieces left, the record gives "
        "{result}"
    ),
    "rules_win_drums_no_moves": (
        "the rules end the game with Drums win: tires have no legal move, the record gives {result}"
    ),
    "rules_win_tires_no_moves": (
        "the rules end the game with Tires win: drums have no legal move, the record gives {result}"
    ),
    "result_not_pdn": "Result '{tag}' is not a PDN result; read as *",
    "no_result": "no result given; read as *",
    "result_read_as": "result {written} read as {result}",
    "result_tag_and_token_differ": (
        "the Result tag says {tag} and the movetext ends with {token}; the tag is read"
    ),
    "variation_move_illegal": (
        "the variation's move {move} cannot be played there: the variation stops before it"
    ),
    # Why a game cannot be read or replayed.
    "comment_not_closed": "this comment is never closed",
    "tag_malformed": 'a tag is written [Name "value"]',
    "unreadable_text": "cannot read '{text}': not a move, a move number or a result",
    "variation_not_closed": "this variation is never closed",
    "too_many_plies": "the game goes on past ply {max}, the most this service imports",
    "unknown_gametype": "GameType '{gametype}' is not a rule set of this service: {known}",
    # ``reason`` is the FEN message's code, its params beside ``detail`` (its English).
    "bad_fen": "the FEN tag: {detail}",
    "move_empty": "empty move text",
    "move_square_range": "cannot read move '{move}': no square {square}: squares are numbered 1-32",
    "move_light_square": (
        "cannot read move '{move}': {square} is a light square; pieces stand only on dark squares"
    ),
    "move_unreadable_square": (
        "cannot read move '{move}': cannot read square '{square}': use 1-32 or a1-h8"
    ),
    "move_no_end": "cannot read move '{move}': give the start and end squares",
    "move_ambiguous": "{move} matches {count} moves; give the landing squares in order: {moves}",
    "move_not_capture": "{move} is written as a capture, which it is not: write {plain}",
    "move_illegal": "{move} is not legal here; legal moves: {legal}",
    # Why a FEN cannot be read, or cannot be a position of the rule set (``fen.read``).
    "fen_not_string": "a FEN must be a string",
    "fen_empty": "empty FEN",
    "fen_bad_turn_white_first": (
        "a FEN starts with the side to move, W or B, not '{turn}' ({rule_set}: White moves first)"
    ),
    "fen_bad_turn_black_first": (
        "a FEN starts with the side to move, W or B, not '{turn}' ({rule_set}: Black moves first)"
    ),
    "fen_counter_twice": "the {letter} counter appears twice",
    "fen_bad_list": "a piece list starts with W or B (or a counter H or F), not '{field}'",
    "fen_list_twice_white": "the White piece list appears twice",
    "fen_list_twice_black": "the Black piece list appears twice",
    "fen_counters_last": "the piece lists come before the H and F counters",
    "fen_square_range": "bad square '{item}': no square {square}: squares are numbered 1-32",
    "fen_light_square": (
        "bad square '{item}': {square} is a light square; pieces stand only on dark squares"
    ),
    "fen_unreadable_square": (
        "bad square '{item}': cannot read square '{square}': use 1-32 or a1-h8"
    ),
    "fen_range_numbers": "bad square '{item}': a range joins two square numbers, as in 1-12",
    "fen_range_order": "bad square '{item}': a range runs upwards between squares 1-32",
    "fen_square_twice": "square {square} is given twice",
    "fen_square_both": "square {square} is given to both White and Black",
    "fen_no_pieces": "a FEN lists the pieces after the side to move: W... and B...",
    "fen_move_number_zero": "the full-move number F starts at 1",
    "fen_crowning_white": (
        "a White man on square {square}, its crowning row: only a king can stand there"
    ),
    "fen_crowning_black": (
        "a Black man on square {square}, its crowning row: only a king can stand there"
    ),
    "fen_too_many_white": "{count} White pieces: {rule_set} starts with {n} a side",
    "fen_too_many_black": "{count} Black pieces: {rule_set} starts with {n} a side",
    "fen_wrong_turn_white_first": (
        "wrong side to move: Black to move, but White moves first in {rule_set} and all "
        "White's men still stand on their starting squares"
    ),
    "fen_wrong_turn_black_first": (
        "wrong side to move: White to move, but Black moves first in {rule_set} and all "
        "Black's men still stand on their starting squares"
    ),
    # The engine's own FEN (``fen.parse_fen``: B the drums, W the tires), when it is wrong.
    "fen_internal_bad_turn": (
        "FEN must start with the side to move, B (drums) or W (tires), not '{turn}'"
    ),
    "fen_internal_bad_list": "a piece list must start with B or W, not '{field}'",
    "fen_internal_list_twice": "the {letter} piece list appears twice",
    "fen_internal_bad_range": "bad square '{item}': bad square range '{range}'",
    "fen_internal_too_many_lists": "a FEN has at most two piece lists",
    "fen_internal_far_row_drums": "a drums man cannot stand on the far row (square {square})",
    "fen_internal_far_row_tires": "a tires man cannot stand on the far row (square {square})",
    "fen_internal_too_many_drums": "{count} drums pieces: {rule_set} starts with {n} a side",
    "fen_internal_too_many_tires": "{count} tires pieces: {rule_set} starts with {n} a side",
}


#: The most characters of the text read that a report quotes.
EXCERPT = 60
#: The parameters that quote the text read (the others are the engine's own words and
#: numbers: legal moves, rule sets, counts).
QUOTED = frozenset(
    {
        "move",
        "comment",
        "tag",
        "token",
        "text",
        "gametype",
        "square",
        "turn",
        "field",
        "item",
        "range",
    }
)


def excerpt(text: str) -> str:
    """`text`, or its first characters and an ellipsis when it is longer than `EXCERPT`."""
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "\u2026"


@dataclass(frozen=True, slots=True)
class Message:
    """A report by code and parameters; ``text`` is its English."""

    code: str
    params: dict[str, str | int] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return TEXTS[self.code].format(**self.params)


def say(code: str, **params: str | int) -> Message:
    """The message ``code`` with its parameters, the quoted ones cut to an excerpt
    (KeyError for a code not in TEXTS)."""
    if code not in TEXTS:
        raise KeyError(code)
    return Message(
        code,
        {
            name: excerpt(value) if name in QUOTED and isinstance(value, str) else value
            for name, value in params.items()
        },
    )


__all__ = ["EXCERPT", "TEXTS", "Message", "excerpt", "say"]
