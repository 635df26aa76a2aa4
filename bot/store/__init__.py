"""Storage: everything the bot keeps, behind one interface, on SQLite or PostgreSQL.

The application layer types against :class:`Store` (:mod:`bot.store.interface`) and
never sees SQL; every store implements it and passes the same tests
(``tests/bot/store/test_store_contract.py``, run on each backend). Rows come back as the
dataclasses of :mod:`bot.store.rows`; a move is recorded as one
:class:`~bot.store.rows.MoveRecord`. The play-by-post rules a write applies to a game's
seats (fresh waits, vacations, reaction windows, heads-ups) are not the store's: they are
pure functions in :mod:`bot.domain.clocks`, which every store calls.

Layout
------
``interface.py``, ``rows.py``, ``faults.py``
    What the application sees: the protocols, the values, the faults.
``sql.py``
    Statements written once: neutral SQL with ``:name`` parameters (:class:`~bot.store.sql.Q`,
    :class:`~bot.store.sql.Many`), a :class:`~bot.store.sql.Dialect` that renders it for a
    driver (once per statement's text), and a transaction's body as a generator that
    yields statements and is sent their results.
``shared/``
    Every feature, written once in that form: games, waits (the bump and the seats
    written back), postal, notices and settings, digests, leagues, leases, daily,
    ratings, the terminal's people. :class:`~bot.store.shared.Features` is all of them;
    each needs only a connection under it (:class:`~bot.store.shared.base.Base`: a
    dialect, a clock, ``_read`` and ``_write``).
``sqlite/``
    The default backend: one file, one process. Its dialect (booleans as 1 and 0, no row
    locks), its connection (a whole transaction runs in SQLite's thread in one trip:
    ``units.drive``), and what only a file has (its lock, faults, migrations, copying
    side). :class:`SQLiteStore` is ``Features`` over that connection, nothing else.
``postgres/``
    The shared backend: many processes, one server. Its dialect (``$1`` marks), its pool
    (a statement a trip; BEGIN and COMMIT around a body), and only the statements it
    writes differently: the one-statement CTEs that keep a move at four trips
    (``waits.py``), or one where the store kept the seats its last move left
    (``moves.py``), work claimed with ``FOR UPDATE SKIP LOCKED`` (``notices.py``,
    ``postal.py``), the rating and terminal-name locks, a rematch merged under its row's
    lock, turns taken by the server's clock. Each is a subclass of the shared feature
    overriding a method.
``backends.py``
    The registry: which backend a target names (:func:`backend`, :func:`target`), and
    what the rest of the bot asks of one (shared or not, its store class, its copying
    side). Nothing else tells the databases apart.
``damage.py``, ``copying.py``, ``dumps.py``, ``migrations.py``, ``targets.py``
    A game row read without trusting it, a whole database copied between backends,
    PostgreSQL's dumps, the migration files (``migrations/`` and
    ``migrations/postgres/``), where the data lives.

Adding a query
--------------
Write it once, in the feature's module of ``shared/``: a method that builds a
:class:`~bot.store.sql.Q` (``Q.rows``, ``Q.row``, ``Q.one`` for a row sure to come back,
or ``Q.count``, parameters by name: each types what it brings back) and runs it with
``self._read`` (a read) or ``self._write`` (a write, its own transaction);
or, for several statements in one transaction, a generator method (the body) that
yields each statement and is sent what it brought back, run with
``self._write(self._body(...))`` (SQLite runs it in one trip). Write the SQL both
databases read: ``TRUE`` and ``FALSE``, never 1 and 0 (a dialect writes those), and
``awaiting = TRUE`` rather than a bare ``awaiting`` (SQLite's partial indexes say
``= 1``); ``IS NOT DISTINCT FROM``, ``ON CONFLICT ... DO UPDATE SET c = excluded.c``,
``RETURNING``, ``CAST(:t AS TIMESTAMPTZ)`` where a parameter's type is not implied, and
the row locks a server needs (``FOR UPDATE``; SQLite drops them). Add the method to the
protocol in ``interface.py`` and a test to ``tests/bot/store/test_store_contract.py``: it runs
on every backend. Only where a backend truly does better or must differ (a bulk form, a
lock, fewer trips on the hot path) override the method in that backend's module, as a
subclass of the shared feature, writing the same rows.

Adding a backend
----------------
A package beside ``sqlite/`` and ``postgres/`` with: a :class:`~bot.store.sql.Dialect`
(its parameter marks and the neutral words it writes otherwise); a ``Connection`` (a
:class:`~bot.store.shared.base.Base`) that opens and migrates the database (its own
``migrations/<name>/``), counts ``round_trips`` and drives a body (``_read``,
``_write``, reporting a broken unique constraint as :class:`~bot.store.sql.Duplicate`
named as PostgreSQL's schema names it); ``Store`` (``Features`` over that connection, and
any overrides in front), ``Side`` (its side of :mod:`bot.store.copying`) and
``occupied``; then an entry in :data:`bot.store.backends.BACKENDS` and its name in the
tests' ``STORES`` (``tests/conftest.py``), so the contract tests run on it.

Why its own renderer, not a library
-----------------------------------
Chosen: the neutral text of ``sql.py`` and a dialect's few words (a regex and a cache),
not SQLAlchemy Core or pypika. What keeps a move cheap is how a transaction is driven
(the whole body in SQLite's thread, one trip; PostgreSQL's CTEs written as SQL), which
no query builder does for us; what a builder would add is its cost on every statement.
Measured 2026-11-28 (SQLAlchemy 2.0.54, SQLite in memory, the move's version-checked
``UPDATE ... RETURNING``, 5,000 a run, median of 5 runs, machine load ~5): the driver
alone 15.8 µs a statement, with this renderer 19.9 µs; SQLAlchemy's ``text()`` 174 µs
(81 µs with the ``text()`` built once), its Core expressions 699 µs. A move's transaction
runs about 6 statements (Skybridge, median), and its whole CPU cost is about 0.5 ms:
``text()`` would add 0.5-1 ms, Core about 4 ms. pypika only builds text, which the
statements here already are, once for both databases.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.store.backends import Backend, backend, is_file, target
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
    PlayedGame,
    Recorded,
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
    "PlayedGame",
    "Recorded",
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
    "is_file",
    "iso",
    "open_checked",
    "open_store",
    "parse_time",
    "redacted",
    "sole_process",
    "target",
    "utcnow",
]
