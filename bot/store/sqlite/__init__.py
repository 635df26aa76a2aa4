"""The SQLite store: the default, one file beside the bot, one process (WAL, foreign keys
on, durable commits). Each feature's SQL lives in its own module; this class is all of
them over one :class:`~bot.store.sqlite.connection.Connection`."""

from __future__ import annotations

from bot.store.queries import MAX_ATTEMPTS
from bot.store.sqlite.connection import CHECK_BEFORE_START, Connection
from bot.store.sqlite.daily import DailySQL
from bot.store.sqlite.digests import DigestsSQL
from bot.store.sqlite.files import sole_process
from bot.store.sqlite.games import GamesSQL
from bot.store.sqlite.leagues import LeaguesSQL
from bot.store.sqlite.leases import LeasesSQL
from bot.store.sqlite.migrations import Migration, migrations
from bot.store.sqlite.notices import NoticesSQL
from bot.store.sqlite.postal import PostalSQL
from bot.store.sqlite.ratings import RatingsSQL
from bot.store.sqlite.terminal import TerminalSQL


class SQLiteStore(
    GamesSQL,
    PostalSQL,
    NoticesSQL,
    DigestsSQL,
    LeaguesSQL,
    LeasesSQL,
    DailySQL,
    RatingsSQL,
    TerminalSQL,
    Connection,
):
    """:class:`bot.store.interface.Store` on one SQLite file."""


__all__ = [
    "CHECK_BEFORE_START",
    "MAX_ATTEMPTS",
    "Migration",
    "SQLiteStore",
    "migrations",
    "sole_process",
]
