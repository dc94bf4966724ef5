"""The table of imported games.

An imported game is stored as a played game is, in the engine's own notation (the moves
of its whole path, the start position as the engine's FEN with its counters), but it
belongs to no room: it has no seats, deadlines or events. The record's tags, the reader's
notes and the point where this service's rules would have ended it are kept with it,
for as long as the retention says (`app.imports.jobs`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, UTCDateTime


class ImportedGame(Base):
    __tablename__ = "imported_games"

    # 128 random bits, as a room id: the link is the only way to it.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rule_set: Mapped[str] = mapped_column(String(16))
    # Its number in the imported text (1 for the first game).
    number: Mapped[int] = mapped_column(Integer)
    # The record's tags by name, as written (White, Black, Event, ...).
    tags: Mapped[dict[str, str]] = mapped_column(JSON)
    # NULL: the standard start. Else the engine's FEN of the FEN tag's position.
    start_fen: Mapped[str | None] = mapped_column(String(200))
    start_half_move_clock: Mapped[int | None] = mapped_column(Integer)
    start_move_number: Mapped[int | None] = mapped_column(Integer)
    # Every move, in the engine's notation with every landing square (22x15x6).
    moves: Mapped[list[str]] = mapped_column(JSON)
    plies: Mapped[int] = mapped_column(Integer)
    # The recorded result in CheckerBoard's convention: 1-0 (the first mover won), 0-1,
    # 1/2-1/2 or *.
    result: Mapped[str] = mapped_column(String(8))
    # What the reader normalised or noticed: [{line, column, text, code, params}] (text is
    # the English; rows stored before notes had codes have no code nor params).
    notes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # The record's comments, [{ply, text}] (ply: the moves before it; NULL: stored before
    # comments were kept), and its variations, [{ply, moves, comments}] (each replaces the
    # game's move ply + 1; moves in the engine's notation, as far as they are legal).
    comments: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    variations: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # Where this service's 20-king-ply or threefold rule would have drawn the game.
    service_end_ply: Mapped[int | None] = mapped_column(Integer)
    service_end: Mapped[str | None] = mapped_column(String(32))
    # The retention (`IMPORT_RETAIN_DAYS`, else `RETAIN_DAYS`) finds old games by it.
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
