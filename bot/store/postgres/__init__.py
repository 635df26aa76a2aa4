"""The PostgreSQL store, for a deployment that outgrows one SQLite file: several bot
processes, on one host or several, share one database. Each feature's SQL lives in its own
module, as in :mod:`bot.store.sqlite`; this class is all of them over one pool of
connections (:class:`~bot.store.postgres.connection.Connection`).

Importing this package imports asyncpg: only a ``postgresql://`` target does
(:func:`bot.store.open_store`)."""

from __future__ import annotations

from bot.store.postgres.connection import Connection
from bot.store.postgres.daily import DailyPG
from bot.store.postgres.digests import DigestsPG
from bot.store.postgres.games import GamesPG
from bot.store.postgres.leagues import LeaguesPG
from bot.store.postgres.leases import LeasesPG
from bot.store.postgres.notices import NoticesPG
from bot.store.postgres.postal import PostalPG
from bot.store.postgres.ratings import RatingsPG
from bot.store.postgres.terminal import TerminalPG


class PostgresStore(
    GamesPG,
    PostalPG,
    NoticesPG,
    DigestsPG,
    LeaguesPG,
    LeasesPG,
    DailyPG,
    RatingsPG,
    TerminalPG,
    Connection,
):
    """:class:`bot.store.interface.Store` on one PostgreSQL database."""


__all__ = ["PostgresStore"]
