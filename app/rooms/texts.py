"""What the rooms say to people, in each language of the service.

The database keeps facts, never sentences (a game's reason and a plan's note are codes with
their parameters: `reasons`). What a reader sees is rendered here from them, in the
reader's language.
"""

from __future__ import annotations

from app.i18n import N_, Translator
from checkers_engine import RULE_SETS, Side

from .models import DeclineReason, Game, GameStatus, OfferKind
from .reasons import DropCode, Dropped, Reason, ReasonCode

# The rule sets' names and one-line descriptions (the engine's English, translated).
RULE_SET_NAMES: dict[str, str] = {
    "english": N_("English"),
    "brazilian": N_("Brazilian"),
    "russian": N_("Russian"),
    "spanish": N_("Spanish"),
    "italian": N_("Italian"),
    "thai": N_("Thai"),
}
RULE_SET_DESCRIPTIONS: dict[str, str] = {
    "english": N_("Men jump forward only; kings move one square; any capture will do."),
    "brazilian": N_("Men jump both ways; flying kings; you must take the most pieces."),
    "russian": N_("Men jump both ways; flying kings; a man crowned mid-capture goes on as king."),
    "spanish": N_("Men jump forward only; flying kings; you must take the most pieces."),
    "italian": N_("Men cannot take kings; short kings; take the most, then the most kings."),
    "thai": N_("Eight men a side on two rows; flying kings; any capture will do."),
}
# How a level plays, in a word or two (the computer levels' names are names: not
# translated).
LEVEL_DIFFICULTY: dict[str, str] = {
    "tamer": N_("very easy"),
    "driver": N_("easy"),
    "warden": N_("medium"),
    "executive": N_("hard"),
}


def rule_set_name(tr: Translator, key: str) -> str:
    return tr._(RULE_SET_NAMES[key]) if key in RULE_SET_NAMES else RULE_SETS[key].name


def rule_set_description(tr: Translator, key: str) -> str:
    if key in RULE_SET_DESCRIPTIONS:
        return tr._(RULE_SET_DESCRIPTIONS[key])
    return RULE_SETS[key].description


def side_name(tr: Translator, side: Side) -> str:
    """`Drums` / `Tires`, capitalised, as a subject."""
    return tr._("Drums") if side is Side.DRUMS else tr._("Tires")


def default_name(tr: Translator, side: Side, former: bool = False) -> str:
    """A nameless seat's name: by its colour, or "Former player" once its player erased
    their profile."""
    if former:
        return tr._("Former player")
    return tr._("Drums player") if side is Side.DRUMS else tr._("Tires player")


def length_text(tr: Translator, reason: Reason) -> str:
    """The wait a reason names (a forfeit's, an expiry's, a closing's), in `tr`'s language."""
    length = reason.length
    return tr.length(length) if length is not None else "?"


def result_text(tr: Translator, game: Game) -> str | None:
    """The result and its reason in `tr`'s language, one sentence (`Tires win: drums
    resigned`, `Drums win by forfeit: tires made no move for 2 days`); None while the game
    is not over. Rendered from the stored facts: the reason's code and parameters, the
    winner."""
    if game.status != GameStatus.FINISHED or game.reason is None:
        return None
    return reason_result(tr, game.reason, game.winner)


def reason_result(tr: Translator, reason: Reason, winner: Side | None) -> str:
    """A finished game's result from its reason's facts and its winner (`result_text`)."""
    drums = winner is Side.DRUMS
    code = reason.code
    if code == ReasonCode.NOBODY_JOINED:
        return tr._("Nobody joined within {length}", length=length_text(tr, reason))
    if code == ReasonCode.EXPIRED:
        return tr._(
            "No winner: the game expired after {length} without a move",
            length=length_text(tr, reason),
        )
    if code == ReasonCode.REPETITION:
        return tr._("Draw: threefold repetition")
    if code == ReasonCode.KING_MOVES:
        return tr._("Draw: 20 king moves without a capture or a man's move")
    if code == ReasonCode.AGREED:
        return tr._("Draw: agreed by both players")
    if code == ReasonCode.MOVE_LIMIT:
        plies = tr.number(reason.plies) if reason.plies is not None else "?"
        return tr._("Draw: the {plies}-ply limit was reached", plies=plies)
    if winner is not None and code == ReasonCode.NO_PIECES:
        if drums:
            return tr._("Drums win: tires have no pieces left")
        return tr._("Tires win: drums have no pieces left")
    if winner is not None and code == ReasonCode.NO_MOVES:
        if drums:
            return tr._("Drums win: tires have no legal move")
        return tr._("Tires win: drums have no legal move")
    if winner is not None and code == ReasonCode.RESIGNED:
        return tr._("Drums win: tires resigned") if drums else tr._("Tires win: drums resigned")
    if winner is not None and code == ReasonCode.FORFEIT:
        length = length_text(tr, reason)
        if drums:
            return tr._("Drums win by forfeit: tires made no move for {length}", length=length)
        return tr._("Tires win by forfeit: drums made no move for {length}", length=length)
    # A reason this table does not know (none today): its English.
    prefix = "Draw" if winner is None else f"{winner.title} win"
    return f"{prefix}: {reason.english()}"


def closed_text(tr: Translator, reason: Reason) -> str:
    """Why a room closed (the reason of its `expired` event), as a sentence without its
    full stop: expired, nobody joined, or no rematch within the window."""
    if reason.code == ReasonCode.CLOSED:
        return tr._(
            "Closed to rematches: no rematch within {length}", length=length_text(tr, reason)
        )
    if reason.code == ReasonCode.NOBODY_JOINED:
        return tr._("Nobody joined within {length}", length=length_text(tr, reason))
    return tr._("Expired: no move for {length}", length=length_text(tr, reason))


def dropped_reason(tr: Translator, why: Dropped) -> str:
    """Why stored conditional moves were dropped, as a clause: `the game is over`."""
    if why.code == DropCode.GAME_OVER:
        return tr._("the game is over")
    if why.code == DropCode.DRAW_OFFERED:
        return tr._("a draw was offered")
    move = why.params.get("move", "?")
    return tr._("your opponent played {move}, which no line expected", move=move)


def dropped_why(tr: Translator, why: Dropped) -> str:
    """The same as a sentence: `The game is over.`"""
    clause = dropped_reason(tr, why)
    return f"{clause[:1].upper()}{clause[1:]}."


def plan_note(tr: Translator, why: Dropped | None) -> str | None:
    """A plan's note (`Dropped: <why>.`) in the reader's language; None without one."""
    if why is None:
        return None
    return tr._("Dropped: {why}.", why=dropped_reason(tr, why))


def declined_text(tr: Translator, kind: OfferKind, name: str, reason: str | None) -> str:
    """What the one who made an offer is told when `name` declined it, with the reason
    given (a stored `DeclineReason` value), if any."""
    if kind == OfferKind.REMATCH:
        return tr._("{name} declined your rematch offer.", name=name)
    if reason == DeclineReason.COMPUTER_AHEAD:
        return tr._("{name} declined your draw offer: it finds itself clearly ahead.", name=name)
    return tr._("{name} declined your draw offer.", name=name)


def reply_played_text(tr: Translator, name: str, their_move: str, reply: str) -> str:
    """What a seat is told when its stored reply followed the opponent's move."""
    return tr._(
        "{name} played {their_move}. Your planned reply {reply} was played.",
        name=name,
        their_move=their_move,
        reply=reply,
    )
