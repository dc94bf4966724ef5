"""PDN: reading files of recorded games, replaying them, and writing games.

``read_games`` splits a PDN text into games (tags, moves with their line and column,
comments, the result) without judging the moves; ``replay`` plays one game through the
engine in its GameType's notation; ``write_game`` writes a game in its tradition.

Real files are read as established readers read them, and every liberty taken is noted
on the game: CheckerBoard reads ``x`` on a plain move as ``-`` (``tinsley.pdn`` writes
``10x14`` for a step); text glued to a move is read as a comment; ``2-0``, ``0-2`` and
``1-1`` are the international scores of ``1-0``, ``0-1`` and a draw; a missing move number
is noted and its move kept. Results are read in CheckerBoard's convention: "1-0" means
the side that moves first in the GameType won.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise

from .board import Board
from .errors import AmbiguousMoveError, EngineError, IllegalMoveError, InvalidFenError
from .fen import Position
from .fen import read as read_fen
from .fen import write as write_fen
from .messages import Message, excerpt, say
from .notation import format_path, listing, move_texts, parse_move, tradition
from .rulesets import RULE_SETS, get_rule_set
from .squares import SQUARE_BIT
from .values import Move, Side, Termination, pdn_result

#: Tags written first, in this order (the PDN roster, then the game's own).
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
AFTER_ROSTER = ("GameType", "SetUp", "FEN", "Termination", "UTCDate", "UTCTime")

_BY_GAMETYPE = {r.pdn_gametype: r.key for r in RULE_SETS.values()}
#: Result tokens as read, and the CheckerBoard result each stands for.
_RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "2-0": "1-0",
    "0-2": "0-1",
    "1-1": "1/2-1/2",
    "0-0": "*",
    "*": "*",
}


class PdnError(EngineError):
    """A game that cannot be written as PDN (an illegal move, a bad tag)."""


class TooManyGames(PdnError):
    """A text holding more games than the reader was allowed to read (``limit``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the text holds more than {limit} games")
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Note:
    """A liberty the reader took, or a fact worth telling, at a place in the text: a
    stable ``code`` with its ``params`` (see ``messages.TEXTS``), ``text`` its English."""

    line: int
    column: int
    code: str
    params: dict[str, str | int] = field(default_factory=dict)

    @classmethod
    def of(cls, line: int, column: int, message: Message) -> Note:
        return cls(line, column, message.code, message.params)

    @property
    def text(self) -> str:
        return Message(self.code, self.params).text

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.text}"


@dataclass(frozen=True, slots=True)
class MoveText:
    """One move as written: its text and where it stands."""

    text: str
    line: int
    column: int
    #: The move number printed before it, if any.
    number: int | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Text the reader cannot make sense of; the game fails there."""

    line: int
    column: int
    text: str
    #: Why it cannot be read, by code (``reason`` is its English).
    why: Message
    #: How many moves of the game come before it.
    ply: int

    @property
    def reason(self) -> str:
        return self.why.text


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment and the number of moves before it."""

    text: str
    line: int
    column: int
    ply: int


@dataclass(frozen=True, slots=True)
class Variation:
    """A variation of the main line: moves played instead of its move ``ply + 1`` (from
    the position after ``ply`` moves), with the variation's own comments (each comment's
    ``ply`` counts the variation's moves before it). A variation inside a variation is
    passed over."""

    ply: int
    line: int
    column: int
    moves: tuple[MoveText, ...]
    comments: tuple[Comment, ...]


@dataclass(frozen=True, slots=True)
class ParsedGame:
    """One game of a PDN text, read but not yet replayed."""

    #: 1 for the first game of the text.
    number: int
    line: int
    column: int
    tags: tuple[tuple[str, str, int, int], ...]
    moves: tuple[MoveText, ...]
    comments: tuple[Comment, ...]
    #: The result token that ends the movetext, as written, if any.
    result_token: str | None
    notes: tuple[Note, ...]
    problem: Problem | None
    variations: tuple[Variation, ...] = ()

    def tag(self, name: str) -> str | None:
        """A tag's value (the first one of that name), or None."""
        for tag_name, value, _, _ in self.tags:
            if tag_name == name:
                return value
        return None

    @property
    def tag_values(self) -> dict[str, str]:
        """Every tag by name (the first of each name), in the text's order."""
        out: dict[str, str] = {}
        for name, value, _, _ in self.tags:
            out.setdefault(name, value)
        return out

    def tag_place(self, name: str) -> tuple[int, int]:
        """Line and column of a tag (the game's start if it has none)."""
        for tag_name, _, line, column in self.tags:
            if tag_name == name:
                return line, column
        return self.line, self.column


@dataclass(frozen=True, slots=True)
class ReplayFailure:
    """Where and why a recorded game cannot be replayed."""

    game: int
    line: int
    column: int
    #: How many moves were played before the failing one (``Board.ply`` of its position).
    ply: int
    move: str
    #: Why, by stable code and parameters (see ``messages.TEXTS``).
    code: str
    params: dict[str, str | int]
    #: The legal moves of the position, in the tradition's notation.
    legal_moves: tuple[str, ...]

    @property
    def reason(self) -> str:
        """Why, in English."""
        return Message(self.code, self.params).text

    def __str__(self) -> str:
        return (
            f"game {self.game}, line {self.line}, column {self.column}, ply {self.ply}: "
            f"{self.reason}"
        )


@dataclass(frozen=True, slots=True)
class ServiceEnd:
    """Where this service's own draw rules would have ended the game."""

    #: How many moves had been played when the rule applied (``Board.ply``).
    ply: int
    termination: Termination


@dataclass(frozen=True, slots=True)
class ReplayedVariation:
    """A variation replayed from the position after ``ply`` moves of the main line: its
    moves (up to the first that cannot be played, which is noted) and its comments."""

    ply: int
    moves: tuple[Move, ...]
    comments: tuple[Comment, ...]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """A recorded game replayed through the engine."""

    game: ParsedGame
    rule_set: str
    #: The start position when the game has a FEN tag, else None (the standard start).
    start: Position | None
    #: The moves replayed, in order (all of them when ``failure`` is None).
    moves: tuple[Move, ...]
    #: The recorded result in CheckerBoard's convention: "1-0", "0-1", "1/2-1/2" or "*".
    result: str
    #: Where the 20-king-ply or threefold rule would have drawn the game, if anywhere.
    service_end: ServiceEnd | None
    notes: tuple[Note, ...]
    failure: ReplayFailure | None
    #: The position after the last move replayed (the engine's own FEN).
    final_fen: str
    #: The game's variations replayed, each as far as its moves are legal.
    variations: tuple[ReplayedVariation, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether every recorded move replayed."""
        return self.failure is None

    @property
    def finished(self) -> bool:
        """Whether the record gives a result."""
        return self.result != "*"

    @property
    def winner(self) -> Side | None:
        """The side the record names as winner (None for a draw or no result)."""
        if self.result == "1-0":
            return Side.DRUMS
        if self.result == "0-1":
            return Side.TIRES
        return None


# -- reading ------------------------------------------------------------------------------

_SQUARE = r"(?:[0-9]{1,2}|[a-hA-H][1-8])"
_TOKENS = re.compile(
    r"""
    (?P<space>[\s\ufeff]+)
  | (?P<escape>(?<![^\n])%[^\n]*)
  | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\})
  | (?P<nag>\$[0-9]+)
  | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|\*)(?![\w/\-]))
  | (?P<number>(?P<digits>[0-9]{1,9})\s*\.(?:\s*\.\.)?)
  | (?P<ellipsis>\.\.\.?)
  | (?P<move>"""
    + _SQUARE
    + r"(?:[-xX:]"
    + _SQUARE
    + r""")+)(?P<strength>[!?]{1,2})?(?P<glued>[^\s{}\[\]()]*)
  | (?P<open>\()
  | (?P<word>[^\s{}\[\]()]+|[{}\[\])])
    """,
    re.VERBOSE,
)


_KINDS = (
    "space",
    "escape",
    "tag",
    "comment",
    "nag",
    "result",
    "number",
    "ellipsis",
    "move",
    "open",
    "word",
)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


class _GameBuilder:
    def __init__(self, number: int, line: int, column: int) -> None:
        self.number = number
        self.line = line
        self.column = column
        self.tags: list[tuple[str, str, int, int]] = []
        self.moves: list[MoveText] = []
        self.comments: list[Comment] = []
        self.result: str | None = None
        self.notes: list[Note] = []
        self.problem: Problem | None = None
        self.pending_number: int | None = None
        self.variations: list[Variation] = []

    @property
    def empty(self) -> bool:
        return not (self.tags or self.moves or self.result or self.problem)

    def fail(self, line: int, column: int, text: str, why: Message) -> None:
        if self.problem is None:
            self.problem = Problem(line, column, excerpt(text), why, len(self.moves))

    def build(self) -> ParsedGame:
        return ParsedGame(
            self.number,
            self.line,
            self.column,
            tuple(self.tags),
            tuple(self.moves),
            tuple(self.comments),
            self.result,
            tuple(self.notes),
            self.problem,
            tuple(self.variations),
        )


def read_games(text: str, *, max_games: int | None = None) -> list[ParsedGame]:
    """Split a PDN text into its games, each with its tags, moves, comments and result,
    and the line and column of each. A game whose text cannot be read carries a Problem
    and the reader goes on with the next game; nothing here judges the moves. With
    `max_games`, a text holding more games raises TooManyGames as soon as one more
    begins (the rest is not read)."""
    if not isinstance(text, str):
        raise PdnError("a PDN text must be a string")
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def place(offset: int) -> tuple[int, int]:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - line_starts[lo] + 1

    games: list[ParsedGame] = []
    game: _GameBuilder | None = None
    in_moves = False
    offset = 0

    def finish() -> None:
        nonlocal game, in_moves
        if game is not None and not game.empty:
            if max_games is not None and len(games) == max_games:
                raise TooManyGames(max_games)
            games.append(game.build())
        game, in_moves = None, False

    def current(at: int) -> _GameBuilder:
        nonlocal game
        if game is None:
            game = _GameBuilder(len(games) + 1, *place(at))
        return game

    while offset < len(text):
        match = _TOKENS.match(text, offset)
        assert match is not None  # the last alternatives take any other character
        kind = next(k for k in _KINDS if match.group(k) is not None)
        start, offset = offset, match.end()
        if kind in ("space", "escape", "nag", "ellipsis"):
            continue
        line, column = place(start)
        if kind == "tag":
            if in_moves or (game is not None and game.result is not None):
                finish()
            g = current(start)
            g.tags.append((match.group("name"), _unescape(match.group("value")), line, column))
            continue
        g = current(start)
        if g.result is not None and kind == "comment":
            # A comment after the result still belongs to its game.
            body = match.group("comment")[1:-1].strip()
            g.comments.append(Comment(body, line, column, len(g.moves)))
            continue
        if g.result is not None:
            finish()
            g = current(start)
        in_moves = True
        if kind == "comment":
            body = match.group("comment")[1:-1].strip()
            g.comments.append(Comment(body, line, column, len(g.moves)))
        elif kind == "number":
            g.pending_number = int(match.group("digits"))
        elif kind == "result":
            g.result = match.group("result")
        elif kind == "move":
            _read_move(g, match, line, column)
        elif kind == "open":
            offset = _read_variation(text, start, g, line, column, place)
        else:
            word = match.group("word")
            if word == "{":
                g.fail(line, column, word, say("comment_not_closed"))
                offset = len(text)
            elif word == "[":
                g.fail(line, column, word, say("tag_malformed"))
            else:
                g.fail(line, column, word, say("unreadable_text", text=word))
    finish()
    return games


def _read_move(g: _GameBuilder, match: re.Match[str], line: int, column: int) -> None:
    move = match.group("move")
    glued = match.group("glued")
    g.moves.append(MoveText(move, line, column, g.pending_number))
    g.pending_number = None
    if glued:
        at = column + len(move) + len(match.group("strength") or "")
        g.comments.append(Comment(glued, line, at, len(g.moves)))
        g.notes.append(Note.of(line, at, say("glued_comment", move=move, comment=glued)))


def _read_variation(
    text: str,
    start: int,
    g: _GameBuilder,
    line: int,
    column: int,
    place: Callable[[int], tuple[int, int]],
) -> int:
    """Read the variation opened at ``start`` (an alternative to the main line's last
    move) into ``g``; the offset after it. Its moves and comments are kept; a variation
    inside it is passed over, and anything else it holds is not read."""
    end = _skip_variation(text, start, g, line, column)
    if g.problem is not None and end >= len(text):
        return end
    body = _GameBuilder(g.number, line, column)
    offset = start + 1
    while offset < end - 1:
        match = _TOKENS.match(text, offset)
        assert match is not None
        kind = next(k for k in _KINDS if match.group(k) is not None)
        at, offset = offset, match.end()
        here = place(at)
        if kind == "comment":
            comment = match.group("comment")[1:-1].strip()
            body.comments.append(Comment(comment, *here, len(body.moves)))
        elif kind == "number":
            body.pending_number = int(match.group("digits"))
        elif kind == "move":
            body.moves.append(MoveText(match.group("move"), *here, body.pending_number))
            body.pending_number = None
        elif kind == "open":
            offset = _skip_variation(text, at, body, *here)
    g.variations.append(
        Variation(max(len(g.moves) - 1, 0), line, column, tuple(body.moves), tuple(body.comments))
    )
    return end


def _skip_variation(text: str, start: int, g: _GameBuilder, line: int, column: int) -> int:
    """The offset after the variation opened at ``start``."""
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char == "{":
            end = text.find("}", i)
            if end < 0:
                break
            i = end
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    g.fail(line, column, "(", say("variation_not_closed"))
    return len(text)


# -- replaying ----------------------------------------------------------------------------


def game_rule_set(game: ParsedGame, default: str = "english") -> str:
    """The rule set of a game's GameType tag (its first number: ``25`` or
    ``25,W,8,8,A0,0``), or ``default`` when it has none; PdnError for another game."""
    value = game.tag("GameType")
    if value is None or not value.strip():
        return get_rule_set(default).key
    head = value.split(",")[0].strip()
    if not (head.isascii() and head.isdigit() and len(head) <= 9) or int(head) not in _BY_GAMETYPE:
        raise PdnError(say("unknown_gametype", gametype=value, known=known_gametypes()))
    return _BY_GAMETYPE[int(head)]


def known_gametypes() -> str:
    """The GameTypes this service plays, with their rule sets: ``21 (English), ...``."""
    return ", ".join(f"{r.pdn_gametype} ({r.name})" for r in RULE_SETS.values())


def replay(
    game: ParsedGame, *, default_rule_set: str = "english", max_plies: int | None = None
) -> ReplayReport:
    """Replay a recorded game through the engine, in its GameType's notation, from its FEN
    tag when it has one. Every recorded move is played, even past the point where this
    service's own draw rules would have ended the game (``service_end`` says where). A move
    that cannot be played stops the replay with a ReplayFailure naming its place, the
    reason and the legal moves; so does the move after `max_plies` (``too_many_plies``):
    a record that long is not a game to replay."""
    notes = list(game.notes)
    moves: list[Move] = []
    rule_set = get_rule_set(default_rule_set).key
    board: Board | None = None
    start: Position | None = None
    result = _recorded_result(game, notes)

    def report(failure: ReplayFailure | None, service_end: ServiceEnd | None) -> ReplayReport:
        final = board.fen() if board is not None else Board(rule_set).fen()
        return ReplayReport(
            game,
            rule_set,
            start,
            tuple(moves),
            result,
            service_end,
            tuple(notes),
            failure,
            final,
        )

    def fail_at(line: int, column: int, ply: int, text: str, why: Message) -> ReplayReport:
        legal = tuple(move_texts(rule_set, board.legal_moves)) if board else ()
        failure = ReplayFailure(
            game.number, line, column, ply, excerpt(text), why.code, why.params, legal
        )
        return report(failure, service_end)

    service_end: ServiceEnd | None = None
    try:
        rule_set = game_rule_set(game, default_rule_set)
    except PdnError as exc:
        why = exc.message or say(
            "unknown_gametype", gametype=game.tag("GameType") or "", known=known_gametypes()
        )
        return fail_at(*game.tag_place("GameType"), 0, game.tag("GameType") or "", why)
    fen_text = game.tag("FEN")
    if fen_text is not None and fen_text.strip():
        try:
            start = read_fen(rule_set, fen_text)
        except InvalidFenError as exc:
            # The FEN's own code and params ride along, for a caller that says it in words.
            why = say("bad_fen", detail=str(exc))
            if exc.message is not None:
                why = say("bad_fen", detail=str(exc), reason=exc.message.code, **exc.message.params)
            return fail_at(*game.tag_place("FEN"), 0, fen_text, why)
        board = Board.from_position(start)
    else:
        board = Board(rule_set)
    service_end = _service_end(board, 0, *game.tag_place("FEN"), notes)
    positions = [board.fen()]  # after each ply of the main line: where variations start
    expected_number = board.start_move_number
    for index, written in enumerate(game.moves):
        if game.problem is not None and game.problem.ply == index:
            break
        if max_plies is not None and index == max_plies:
            why = say("too_many_plies", max=max_plies)
            return fail_at(written.line, written.column, index, written.text, why)
        ply = index + 1
        first_of_pair = board.turn is Side.DRUMS or index == 0
        if written.number is None and board.turn is Side.DRUMS:
            notes.append(
                Note.of(
                    written.line,
                    written.column,
                    say("no_move_number", number=expected_number, move=written.text),
                )
            )
        elif written.number is not None and first_of_pair and written.number != expected_number:
            notes.append(
                Note.of(
                    written.line,
                    written.column,
                    say("move_number_read_as", written=written.number, number=expected_number),
                )
            )
        try:
            move = parse_move(board, written.text, lenient_capture_mark=True)
        except (IllegalMoveError, AmbiguousMoveError) as exc:
            why = exc.message or say(
                "move_illegal", move=written.text, legal=listing(rule_set, board.legal_moves)
            )
            return fail_at(written.line, written.column, index, written.text, why)
        if ("x" in written.text.lower() or ":" in written.text) and not move.is_capture:
            read = format_path(rule_set, move.path, False)
            notes.append(
                Note.of(
                    written.line,
                    written.column,
                    say("capture_mark_on_plain_move", move=written.text, read=read),
                )
            )
        board.push(move)
        moves.append(move)
        positions.append(board.fen())
        if board.turn is Side.DRUMS:
            expected_number += 1
        if service_end is None:
            service_end = _service_end(board, ply, written.line, written.column, notes)
    if game.problem is not None:
        p = game.problem
        return fail_at(p.line, p.column, p.ply, p.text, p.why)
    outcome = board.outcome()
    if outcome is not None and outcome.winner is not None and result != pdn_result(outcome.winner):
        code = f"rules_win_{outcome.winner.value.lower()}_{outcome.termination.name.lower()}"
        notes.append(Note.of(game.line, game.column, say(code, result=result)))
    replayed = tuple(
        _replay_variation(rule_set, positions[v.ply], v, notes)
        for v in game.variations
        if v.ply < len(positions)
    )
    return dataclasses.replace(report(None, service_end), variations=replayed)


def _replay_variation(
    rule_set: str, fen: str, variation: Variation, notes: list[Note]
) -> ReplayedVariation:
    """A variation played from `fen` as far as its moves are legal; the first that is
    not is noted (the game itself stands)."""
    board = Board(rule_set, fen=fen)
    played: list[Move] = []
    for written in variation.moves:
        try:
            move = parse_move(board, written.text, lenient_capture_mark=True)
        except (IllegalMoveError, AmbiguousMoveError):
            why = say("variation_move_illegal", move=written.text)
            notes.append(Note.of(written.line, written.column, why))
            break
        board.push(move)
        played.append(move)
    comments = tuple(c for c in variation.comments if c.ply <= len(played))
    return ReplayedVariation(variation.ply, tuple(played), comments)


def _service_end(
    board: Board, ply: int, line: int, column: int, notes: list[Note]
) -> ServiceEnd | None:
    """The service's draw at this ply, if its rules draw here; noted where it happens."""
    outcome = board.outcome()
    if outcome is not None and outcome.termination in (
        Termination.KING_MOVES,
        Termination.REPETITION,
    ):
        code = f"service_draw_{outcome.termination.name.lower()}"
        notes.append(Note.of(line, column, say(code, ply=ply)))
        return ServiceEnd(ply, outcome.termination)
    return None


def _recorded_result(game: ParsedGame, notes: list[Note]) -> str:
    """The game's result in CheckerBoard's convention, from its Result tag (else the
    result token), noting every reading that is not literal."""
    tag = game.tag("Result")
    token = game.result_token
    line, column = game.tag_place("Result")
    if tag is not None and tag.strip() not in _RESULTS:
        notes.append(Note.of(line, column, say("result_not_pdn", tag=tag)))
        tag = "*"
    chosen = tag.strip() if tag is not None else token
    if chosen is None:
        notes.append(Note.of(game.line, game.column, say("no_result")))
        return "*"
    result = _RESULTS[chosen]
    if chosen != result:
        notes.append(Note.of(line, column, say("result_read_as", written=chosen, result=result)))
    if tag is not None and token is not None and _RESULTS[token] != result:
        notes.append(
            Note.of(
                line,
                column,
                say("result_tag_and_token_differ", tag=tag.strip(), token=token),
            )
        )
    return result


def read_pdn(
    text: str,
    *,
    default_rule_set: str = "english",
    max_games: int | None = None,
    max_plies: int | None = None,
) -> list[ReplayReport]:
    """Read and replay every game of a PDN text; a failing game does not stop the next.
    The limits are `read_games`' and `replay`'s."""
    return [
        replay(g, default_rule_set=default_rule_set, max_plies=max_plies)
        for g in read_games(text, max_games=max_games)
    ]


# -- writing ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What ``write_game`` needs of a game, in the engine's terms."""

    rule_set: str
    #: The moves, as Moves or in the engine's own notation (``11-15``, ``22x15x6``).
    moves: Sequence[Move | str]
    #: Whether the game is over; False writes the result ``*``.
    finished: bool = False
    #: The winner of a finished game (None: a draw).
    winner: Side | None = None
    #: The players of the drums (first mover) and of the tires.
    drums_player: str = "?"
    tires_player: str = "?"
    event: str = "?"
    site: str = "?"
    #: ``YYYY.MM.DD``, as PDN writes dates.
    date: str = "????.??.??"
    round: str = "-"
    #: The start position when not the standard start (the engine's own FEN).
    start_fen: str | None = None
    #: Plies since the last capture or man's move at the start position, if known.
    start_half_move_clock: int | None = None
    #: The full-move number of the start position (a FEN's ``:F``), if not 1.
    start_move_number: int | None = None
    #: The PDN Termination tag, e.g. ``normal`` or ``resignation``.
    termination: str | None = None
    #: When the game ended (UTC); written as UTCDate and UTCTime.
    utc: datetime | None = None
    #: A comment written after the last move, e.g. the reason of the result.
    comment: str | None = None
    #: A comment after each move (None: none), e.g. a computer's evaluation.
    move_comments: Sequence[str | None] = ()
    #: A comment before the first move (on the game as a whole).
    first_comment: str | None = None
    #: Variations by the number of moves before them: each replaces the next move of the
    #: game (written after it) with a line of moves for both sides.
    variations: Mapping[int, Sequence[Sequence[Move | str]]] = field(default_factory=dict)
    #: Further tags, written after the standard ones.
    extra_tags: Mapping[str, str] = field(default_factory=dict)


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def write_game(record: GameRecord) -> str:
    """A game as PDN in its rule set's tradition: the roster tags in standard order with
    the tradition's colours, then GameType, SetUp and FEN for a game from a position,
    Termination and UTCDate/UTCTime; moves numbered from the FEN's full-move number in the
    tradition's notation; the Result in CheckerBoard's convention ("1-0": the first mover
    won). Raises PdnError for a move that is not legal in the game."""
    rules = get_rule_set(record.rule_set)
    trad = tradition(rules)
    if record.start_fen is not None:
        try:
            position = Position.from_internal_fen(rules, record.start_fen).with_counters(
                record.start_half_move_clock, record.start_move_number
            )
        except InvalidFenError as exc:
            raise PdnError(f"bad start position: {exc}") from None
        board = Board.from_position(position)
    else:
        position = None
        board = Board(rules)
    result = pdn_result(record.winner) if record.finished else "*"
    players = {
        trad.colour(Side.DRUMS).value: record.drums_player,
        trad.colour(Side.TIRES).value: record.tires_player,
    }
    tags: dict[str, str] = {
        "Event": record.event,
        "Site": record.site,
        "Date": record.date,
        "Round": record.round,
        "White": players["White"],
        "Black": players["Black"],
        "Result": result,
        "GameType": str(rules.pdn_gametype),
    }
    if position is not None:
        tags["SetUp"] = "1"
        tags["FEN"] = write_fen(position, counters=trad.fen_counters)
    if record.termination:
        tags["Termination"] = record.termination
    if record.utc is not None:
        tags["UTCDate"] = record.utc.strftime("%Y.%m.%d")
        tags["UTCTime"] = record.utc.strftime("%H:%M:%S")
    for name, value in record.extra_tags.items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise PdnError(f"bad tag name {name!r}")
        tags.setdefault(name, value)

    tokens: list[str] = []
    if record.first_comment:
        tokens.append(_comment(record.first_comment))
    if any(ply >= len(record.moves) or ply < 0 for ply in record.variations):
        raise PdnError("a variation replaces a move of the game: none follows its position")
    number = board.start_move_number
    for index, given in enumerate(record.moves):
        try:
            move = board.parse_move(given) if isinstance(given, str) else given
        except (IllegalMoveError, AmbiguousMoveError) as exc:
            raise PdnError(f"ply {index + 1}: {exc}") from None
        if not board.is_legal(move):
            raise PdnError(
                f"ply {index + 1}: {move} is not legal in this game; legal moves: "
                f"{listing(rules, board.legal_moves)}"
            )
        if board.turn is Side.DRUMS:
            tokens.append(f"{number}.")
        elif index == 0:
            tokens.append(f"{number}...")
        before = board.copy() if record.variations.get(index) else None
        tokens.append(_pdn_move(board, move, trad.pdn_full_captures))
        note = record.move_comments[index] if index < len(record.move_comments) else None
        if note:
            tokens.append(_comment(note))
        for line in record.variations.get(index, ()):
            assert before is not None
            tokens.extend(_variation(before.copy(), line, number, trad.pdn_full_captures))
        board.push(move)
        if board.turn is Side.DRUMS:
            number += 1
    if record.comment:
        tokens.append(_comment(record.comment))
    tokens.append(result)
    return "\n".join(_tag(n, v) for n, v in tags.items()) + "\n\n" + _wrap(tokens) + "\n"


def _comment(text: str) -> str:
    """A PDN comment: a brace would end it, so it is written as a parenthesis."""
    return "{" + text.replace("}", ")").replace("{", "(") + "}"


def _variation(
    board: Board, line: Sequence[Move | str], number: int, full_captures: bool
) -> list[str]:
    """A variation's tokens, from `board` (the position it starts from, move `number`),
    in parentheses; PdnError for a move that cannot be played there."""
    tokens: list[str] = []
    for index, given in enumerate(line):
        try:
            move = board.parse_move(given) if isinstance(given, str) else given
        except (IllegalMoveError, AmbiguousMoveError) as exc:
            raise PdnError(f"variation move {index + 1}: {exc}") from None
        if not board.is_legal(move):
            raise PdnError(f"variation move {index + 1}: {move} is not legal there")
        if board.turn is Side.DRUMS:
            tokens.append(f"{number}.")
        elif index == 0:
            tokens.append(f"{number}...")
        tokens.append(_pdn_move(board, move, full_captures))
        board.push(move)
        if board.turn is Side.DRUMS:
            number += 1
    if tokens:
        tokens[0], tokens[-1] = "(" + tokens[0], tokens[-1] + ")"
    return tokens


def write_games(records: Iterable[GameRecord]) -> str:
    """Several games, a blank line between them."""
    return "\n".join(write_game(r) for r in records)


def _pdn_move(board: Board, move: Move, full_captures: bool) -> str:
    """A move as PDN movetext: ``x`` for captures; every landing square where the
    tradition writes them, else start and end unless another legal move shares both."""
    rule_set = board.rule_set.key
    if not move.is_capture:
        return format_path(rule_set, move.path, False, capture_mark="x")
    shared = [m for m in board.legal_moves if (m.start, m.end) == (move.start, move.end)]
    if not full_captures and len(shared) == 1:
        return format_path(rule_set, (move.start, move.end), True, capture_mark="x")
    return format_path(rule_set, _plainest_route(move), True, capture_mark="x")


def _plainest_route(move: Move) -> tuple[int, ...]:
    """The route whose landing squares lie nearest the pieces it jumps (PDN 3.0 names the
    square right behind a captured piece when the direction does not change)."""

    def steps(route: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(abs(SQUARE_BIT[a] - SQUARE_BIT[b]) for a, b in pairwise(route))

    return min(move.routes, key=steps)


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


__all__ = [
    "AFTER_ROSTER",
    "ROSTER",
    "Comment",
    "GameRecord",
    "MoveText",
    "Note",
    "ParsedGame",
    "PdnError",
    "Problem",
    "ReplayFailure",
    "ReplayReport",
    "ServiceEnd",
    "TooManyGames",
    "game_rule_set",
    "known_gametypes",
    "read_games",
    "read_pdn",
    "replay",
    "write_game",
    "write_games",
]
