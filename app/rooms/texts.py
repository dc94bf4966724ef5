"""What the rooms say to people, in each language of the service.

The database keeps the service's English texts (a game's `reason`, a plan's note): they
are the record, and the API's. What a reader sees is rebuilt here from the stored facts
(the ending, the winner, the figures in the reason) in the reader's language.
"""

from __future__ import annotations

import re
from datetime import timedelta

from app.i18n import N_, Translator
from checkers_engine import RULE_SETS, Side

from .models import DeclineReason, Ending, Game, GameStatus, OfferKind

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


def default_name(tr: Translator, side: Side) -> str:
    return tr._("Drums player") if side is Side.DRUMS else tr._("Tires player")


_LENGTH = re.compile(r"(\d+) (day|hour|minute|second)s?")
_PLIES = re.compile(r"(\d+)-ply")


def reason_length(reason: str) -> timedelta | None:
    """The duration written in a stored English reason (`no move for 2 days`)."""
    found = _LENGTH.search(reason)
    if not found:
        return None
    return timedelta(**{f"{found.group(2)}s": int(found.group(1))})


def stored_length(tr: Translator, reason: str) -> str:
    """The duration of a stored English reason, in `tr`'s language."""
    length = reason_length(reason)
    return tr.length(length) if length else reason


def result_text(tr: Translator, game: Game) -> str | None:
    """The result and its reason in `tr`'s language, one sentence (`Tires win: drums
    resigned`, `Drums win by forfeit: tires made no move for 2 days`); None while the game
    is not over. The stored English reason only lends its figures (a length, a ply count):
    the text is the ending's and the winner's."""
    if game.status != GameStatus.FINISHED or game.reason is None:
        return None
    reason, winner, ending = game.reason, game.winner, game.termination
    drums = winner is Side.DRUMS
    if ending == Ending.EXPIRED:
        if game.started_at is None:
            return tr._("Nobody joined within {length}", length=stored_length(tr, reason))
        return tr._(
            "No winner: the game expired after {length} without a move",
            length=stored_length(tr, reason),
        )
    if ending == Ending.REPETITION:
        return tr._("Draw: threefold repetition")
    if ending == Ending.KING_MOVES:
        return tr._("Draw: 20 king moves without a capture or a man's move")
    if ending == Ending.AGREEMENT:
        return tr._("Draw: agreed by both players")
    if ending == Ending.MOVE_LIMIT:
        found = _PLIES.search(reason)
        plies = tr.number(int(found.group(1))) if found else "?"
        return tr._("Draw: the {plies}-ply limit was reached", plies=plies)
    if winner is not None and ending == Ending.NO_PIECES:
        if drums:
            return tr._("Drums win: tires have no pieces left")
        return tr._("Tires win: drums have no pieces left")
    if winner is not None and ending == Ending.NO_MOVES:
        if drums:
            return tr._("Drums win: tires have no legal move")
        return tr._("Tires win: drums have no legal move")
    if winner is not None and ending == Ending.RESIGNATION:
        return tr._("Drums win: tires resigned") if drums else tr._("Tires win: drums resigned")
    if winner is not None and ending == Ending.FORFEIT:
        length = stored_length(tr, reason)
        if drums:
            return tr._("Drums win by forfeit: tires made no move for {length}", length=length)
        return tr._("Tires win by forfeit: drums made no move for {length}", length=length)
    # A reason this table does not know (none today): the stored English.
    prefix = "Draw" if winner is None else f"{winner.title} win"
    return f"{prefix}: {reason}"


_EXPECTED = re.compile(r"your opponent played (\S+), which no line expected")


def dropped_reason(tr: Translator, why: str) -> str:
    """Why stored conditional moves were dropped (the service's English `why`), as a
    clause: `the game is over`."""
    if why == "the game is over":
        return tr._("the game is over")
    if why == "a draw was offered":
        return tr._("a draw was offered")
    found = _EXPECTED.fullmatch(why)
    if found:
        return tr._("your opponent played {move}, which no line expected", move=found.group(1))
    return why


def dropped_why(tr: Translator, why: str) -> str:
    """The same as a sentence: `The game is over.`"""
    clause = dropped_reason(tr, why)
    return f"{clause[:1].upper()}{clause[1:]}."


def plan_note(tr: Translator, note: str | None) -> str | None:
    """A stored plan note (`Dropped: <why>.`) in the reader's language."""
    if note is None or not note.startswith("Dropped: "):
        return note
    why = note.removeprefix("Dropped: ").removesuffix(".")
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
