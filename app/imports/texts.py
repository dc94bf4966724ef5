"""What the PDN reader's notes and failure reasons say to people, in each language.

The engine reports them by stable code and parameters (`checkers_engine.messages`), with its
English as the API's and the stored text; here each code has its message id (the same
English, `{name}` placeholders), translated in the catalogs. The pages fill them in the
reader's language from `texts_for`, which each page that shows notes carries.
"""

from __future__ import annotations

from app.i18n import N_, Translator
from checkers_engine import RULE_SETS

# Code -> message id; each is the engine's English for the code (a test holds them equal).
PDN_TEXTS: dict[str, str] = {
    "glued_comment": N_("text glued to the move {move} read as a comment: '{comment}'"),
    "no_move_number": N_("move {number} has no move number before {move}"),
    "move_number_read_as": N_("move number {written} read as {number}"),
    "capture_mark_on_plain_move": N_(
        "{move} is a plain move written with a capture mark; read as {read}"
    ),
    "service_draw_king_moves": N_(
        "this service's rules would have drawn the game here, at ply {ply} (20 king moves "
        "without a capture or a man's move); the recorded moves go on and are replayed"
    ),
    "service_draw_repetition": N_(
        "this service's rules would have drawn the game here, at ply {ply} (threefold "
        "repetition); the recorded moves go on and are replayed"
    ),
    "rules_win_drums_no_pieces": N_(
        "the rules end the game with Drums win: tires have no pieces left, the record gives "
        "{result}"
    ),
    "rules_win_tires_no_pieces": N_(
        "the rules end the game with Tires win: drums have no pieces left, the record gives "
        "{result}"
    ),
    "rules_win_drums_no_moves": N_(
        "the rules end the game with Drums win: tires have no legal move, the record gives {result}"
    ),
    "rules_win_tires_no_moves": N_(
        "the rules end the game with Tires win: drums have no legal move, the record gives {result}"
    ),
    "result_not_pdn": N_("Result '{tag}' is not a PDN result; read as *"),
    "no_result": N_("no result given; read as *"),
    "result_read_as": N_("result {written} read as {result}"),
    "result_tag_and_token_differ": N_(
        "the Result tag says {tag} and the movetext ends with {token}; the tag is read"
    ),
    "variation_move_illegal": N_(
        "the variation's move {move} cannot be played there: the variation stops before it"
    ),
    "comment_not_closed": N_("this comment is never closed"),
    "tag_malformed": N_('a tag is written [Name "value"]'),
    "unreadable_text": N_("cannot read '{text}': not a move, a move number or a result"),
    "variation_not_closed": N_("this variation is never closed"),
    "too_many_plies": N_("the game goes on past ply {max}, the most this service imports"),
    "unknown_gametype": N_("GameType '{gametype}' is not a rule set of this service: {known}"),
    "bad_fen": N_("the FEN tag: {detail}"),
    "move_empty": N_("empty move text"),
    "move_square_range": N_(
        "cannot read move '{move}': no square {square}: squares are numbered 1-32"
    ),
    "move_light_square": N_(
        "cannot read move '{move}': {square} is a light square; pieces stand only on dark squares"
    ),
    "move_unreadable_square": N_(
        "cannot read move '{move}': cannot read square '{square}': use 1-32 or a1-h8"
    ),
    "move_no_end": N_("cannot read move '{move}': give the start and end squares"),
    "move_ambiguous": N_(
        "{move} matches {count} moves; give the landing squares in order: {moves}"
    ),
    "move_not_capture": N_("{move} is written as a capture, which it is not: write {plain}"),
    "move_illegal": N_("{move} is not legal here; legal moves: {legal}"),
    "fen_not_string": N_("a FEN must be a string"),
    "fen_empty": N_("empty FEN"),
    "fen_bad_turn_white_first": N_(
        "a FEN starts with the side to move, W or B, not '{turn}' ({rule_set}: White moves first)"
    ),
    "fen_bad_turn_black_first": N_(
        "a FEN starts with the side to move, W or B, not '{turn}' ({rule_set}: Black moves first)"
    ),
    "fen_counter_twice": N_("the {letter} counter appears twice"),
    "fen_bad_list": N_("a piece list starts with W or B (or a counter H or F), not '{field}'"),
    "fen_list_twice_white": N_("the White piece list appears twice"),
    "fen_list_twice_black": N_("the Black piece list appears twice"),
    "fen_counters_last": N_("the piece lists come before the H and F counters"),
    "fen_square_range": N_("bad square '{item}': no square {square}: squares are numbered 1-32"),
    "fen_light_square": N_(
        "bad square '{item}': {square} is a light square; pieces stand only on dark squares"
    ),
    "fen_unreadable_square": N_(
        "bad square '{item}': cannot read square '{square}': use 1-32 or a1-h8"
    ),
    "fen_range_numbers": N_("bad square '{item}': a range joins two square numbers, as in 1-12"),
    "fen_range_order": N_("bad square '{item}': a range runs upwards between squares 1-32"),
    "fen_square_twice": N_("square {square} is given twice"),
    "fen_square_both": N_("square {square} is given to both White and Black"),
    "fen_no_pieces": N_("a FEN lists the pieces after the side to move: W... and B..."),
    "fen_move_number_zero": N_("the full-move number F starts at 1"),
    "fen_crowning_white": N_(
        "a White man on square {square}, its crowning row: only a king can stand there"
    ),
    "fen_crowning_black": N_(
        "a Black man on square {square}, its crowning row: only a king can stand there"
    ),
    "fen_too_many_white": N_("{count} White pieces: {rule_set} starts with {n} a side"),
    "fen_too_many_black": N_("{count} Black pieces: {rule_set} starts with {n} a side"),
    "fen_wrong_turn_white_first": N_(
        "wrong side to move: Black to move, but White moves first in {rule_set} and all "
        "White's men still stand on their starting squares"
    ),
    "fen_wrong_turn_black_first": N_(
        "wrong side to move: White to move, but Black moves first in {rule_set} and all "
        "Black's men still stand on their starting squares"
    ),
    "fen_internal_bad_turn": N_(
        "FEN must start with the side to move, B (drums) or W (tires), not '{turn}'"
    ),
    "fen_internal_bad_list": N_("a piece list must start with B or W, not '{field}'"),
    "fen_internal_list_twice": N_("the {letter} piece list appears twice"),
    "fen_internal_bad_range": N_("bad square '{item}': bad square range '{range}'"),
    "fen_internal_too_many_lists": N_("a FEN has at most two piece lists"),
    "fen_internal_far_row_drums": N_("a drums man cannot stand on the far row (square {square})"),
    "fen_internal_far_row_tires": N_("a tires man cannot stand on the far row (square {square})"),
    "fen_internal_too_many_drums": N_("{count} drums pieces: {rule_set} starts with {n} a side"),
    "fen_internal_too_many_tires": N_("{count} tires pieces: {rule_set} starts with {n} a side"),
}

#: Words a message's params may hold, said in the page's language: the rule sets' names
#: (``{rule_set}``, and each name in ``unknown_gametype``'s ``{known}``).
WORDS: dict[str, str] = {r.name: r.name for r in RULE_SETS.values()}


def texts_for(tr: Translator) -> dict[str, str]:
    """Every code's message in `tr`'s language, placeholders unfilled: what a page's
    script fills from a note's or failure's params (`coded` in `static/js/i18n.js`); and
    under ``word:<English>`` each word of `WORDS` (the catalog's rule-set names)."""
    texts = {code: tr._(message) for code, message in PDN_TEXTS.items()}
    texts.update({f"word:{word}": tr._(message) for word, message in WORDS.items()})
    return texts
