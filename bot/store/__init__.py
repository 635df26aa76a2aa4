"""Storage: what the application layer needs (:mod:`bot.store.interface`), the rows and
faults every store shares, the default store on SQLite (:mod:`bot.store.sqlite`), the
PostgreSQL store (:mod:`bot.store.postgres`), and :func:`open_store`, which picks one.

The application layer types against :class:`Store` and never sees SQL; both stores
implement the same protocols and pass the same tests.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.store.backends import Backend, backend, target
from bot.store.faults import (
    CannotOpen,
    CannotSave,
    Damaged,
    InUse,
    LeaseLost,
    Locked,
    SchemaTooNew,
    StaleGame,
    StoreFault,
)
from bot.store.interface import Store
from bot.store.rows import (
    Attempt,
    Awaiting,
    Drawn,
    Entry,
    Fence,
    GameRow,
    LeagueRow,
    Match,
    Member,
    MoveRecord,
    MoveRow,
    Notice,
    Opening,
    Rematch,
    SeatRow,
    Settings,
    UndoRequest,
    iso,
    parse_time,
    utcnow,
)
from bot.store.sqlite import SQLiteStore, sole_process
from bot.store.targets import Target, redacted


async def open_store(
    where: Target, *, clock: Callable[[], datetime] = utcnow, migrate_to: int | None = None
) -> Store:
    """The store at ``where`` (a SQLite file or a PostgreSQL URL, see
    :func:`bot.store.backends.target`), opened and migrated."""
    return await backend(where).store().open(where, clock=clock, migrate_to=migrate_to)


async def open_checked(where: Target, *, full: bool = False) -> Store:
    """:func:`open_store`, then the database's own integrity check (a damaged database
    raises :class:`Damaged`); ``full`` checks a big SQLite file before going on."""
    return await backend(where).store().open_checked(where, full=full)


__all__ = [
    "Attempt",
    "Awaiting",
    "Backend",
    "CannotOpen",
    "CannotSave",
    "Damaged",
    "Drawn",
    "Entry",
    "Fence",
    "GameRow",
    "InUse",
    "LeaseLost",
    "LeagueRow",
    "Locked",
    "Match",
    "Member",
    "MoveRecord",
    "MoveRow",
    "Notice",
    "Opening",
    "Rematch",
    "SQLiteStore",
    "SchemaTooNew",
    "SeatRow",
    "Settings",
    "StaleGame",
    "Store",
    "StoreFault",
    "Target",
    "UndoRequest",
    "backend",
    "iso",
    "open_checked",
    "open_store",
    "parse_time",
    "redacted",
    "sole_process",
    "target",
    "utcnow",
]
