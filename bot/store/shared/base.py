"""What every store's connection gives the statements written once: its dialect, its
clock, and two ways to run neutral statements (:mod:`bot.store.sql`)."""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar

from bot.store.sql import Dialect, Work

T = TypeVar("T")


class Base:
    """A store's connection, as the features written once see it; each store's
    ``Connection`` is one (:mod:`bot.store.sqlite.connection`,
    :mod:`bot.store.postgres.connection`)."""

    dialect: Dialect

    def now(self) -> str:
        """The store's clock, as stored."""
        raise NotImplementedError

    def clock(self) -> datetime:
        raise NotImplementedError

    async def _read(self, work: Work[T]) -> T:
        """Run statements that only read; their result."""
        raise NotImplementedError

    async def _write(self, work: Work[T]) -> T:
        """Run ``work`` as one all-or-nothing transaction, durable before it returns; its
        result. A lone statement is a transaction by itself (a server needs no BEGIN and
        COMMIT for it)."""
        raise NotImplementedError
