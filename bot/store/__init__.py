"""Storage: what the application layer needs (:mod:`bot.store.interface`), the rows and
faults every store shares, and the default store on SQLite (:mod:`bot.store.sqlite`).

The application layer types against :class:`Store` and never sees SQL; a new store (a
server database, say) implements the same protocols and passes the same tests.
"""

from __future__ import annotations

from bot.store.faults import (
    CannotOpen,
    CannotSave,
    Damaged,
    InUse,
    Locked,
    SchemaTooNew,
    StaleGame,
    StoreFault,
)
from bot.store.interface import Store
from bot.store.rows import (
    Attempt,
    Awaiting,
    Entry,
    GameRow,
    LeagueRow,
    Match,
    Member,
    MoveRow,
    Notice,
    SeatRow,
    Settings,
    UndoRequest,
    iso,
    parse_time,
    utcnow,
)
from bot.store.sqlite import SQLiteStore, sole_process

__all__ = [
    "Attempt",
    "Awaiting",
    "CannotOpen",
    "CannotSave",
    "Damaged",
    "Entry",
    "GameRow",
    "InUse",
    "LeagueRow",
    "Locked",
    "Match",
    "Member",
    "MoveRow",
    "Notice",
    "SQLiteStore",
    "SchemaTooNew",
    "SeatRow",
    "Settings",
    "StaleGame",
    "Store",
    "StoreFault",
    "UndoRequest",
    "iso",
    "parse_time",
    "sole_process",
    "utcnow",
]
