"""The PostgreSQL store, for a deployment that outgrows one SQLite file: several bot
processes, on one host or several, share one database. Every feature's statements are the
shared ones (:mod:`bot.store.shared`), rendered by
:data:`~bot.store.postgres.dialect.POSTGRES`; the modules here hold only what PostgreSQL
does differently: its connection pool, the row locks that let processes claim work side
by side (``SKIP LOCKED``), the rating and terminal-name locks, and the one-statement CTEs
that keep a move at four trips to the server (one where it knows the seats it finds).

Importing this package imports asyncpg: only a ``postgresql://`` target does
(:func:`bot.store.open_store`)."""

from __future__ import annotations

from bot.store.postgres.digests import DigestsPG
from bot.store.postgres.leases import LeasesPG
from bot.store.postgres.moves import MovesPG
from bot.store.postgres.notices import NoticesPG
from bot.store.postgres.opening import OpeningPG
from bot.store.postgres.postal import PostalPG
from bot.store.postgres.ratings import RatingsPG
from bot.store.postgres.tables import PostgresSide, occupied
from bot.store.postgres.terminal import TerminalPG
from bot.store.postgres.waits import WaitsPG
from bot.store.shared import Features


class PostgresStore(
    MovesPG,
    PostalPG,
    NoticesPG,
    DigestsPG,
    LeasesPG,
    RatingsPG,
    TerminalPG,
    WaitsPG,
    Features,
    OpeningPG,
):
    """:class:`bot.store.interface.Store` on one PostgreSQL database."""


#: what :class:`bot.store.backends.Backend` asks of a backend's package
Store, Side = PostgresStore, PostgresSide

__all__ = ["PostgresStore", "Side", "Store", "occupied"]
