"""Statements written once for every database, and how each database reads them.

A statement is neutral SQL with ``:name`` parameters (:class:`Q`, or :class:`Many` for one
statement over many rows), written as PostgreSQL and SQLite ≥ 3.35 both read it:
``RETURNING``, ``ON CONFLICT ... DO UPDATE``, ``TRUE`` and ``FALSE``, ``IS NOT DISTINCT
FROM``, ``CAST(... AS TIMESTAMPTZ)``, and the row locks a server takes (``FOR UPDATE
[OF t] [SKIP LOCKED]``). A :class:`Dialect` renders it for its driver, once per
statement's text: the parameter marks the driver takes, and the few words it writes
otherwise (SQLite's booleans are 0 and 1, written so for its partial indexes; it keeps
times as text; its write transaction holds the whole file, so it has no row locks to
take).

A transaction's body is written once too, as a generator (:data:`Body`): it yields
statements and is sent what each brought back (:data:`ROWS`, :data:`ROW` or
:data:`COUNT`). Each store drives it its own way: SQLite's whole in its thread, in one
trip; asyncpg's a statement a trip, awaited.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")

#: a row as a driver brings it back (sqlite3's tuple, asyncpg's Record), read by position
Row = Sequence[Any]

#: what a :class:`Q` brings back: every row (tuples), the first row or None, or how many
#: rows it changed
ROWS, ROW, COUNT = "rows", "row", "count"


@dataclass(frozen=True, slots=True)
class Q(Generic[T]):
    """One statement: neutral SQL with ``:name`` parameters, and what to bring back
    (``T``: every row, the first row or None, a count, or what :meth:`map` made of it)."""

    sql: str
    params: Mapping[str, object] = field(default_factory=dict)
    want: str = ROWS
    #: PostgreSQL: the first row's last column is the transaction's id, which settles a
    #: COMMIT that went unanswered (:meth:`bot.store.postgres.connection.Connection.write`)
    xid: bool = False
    #: what the statement's result becomes, for its body (or its caller, alone)
    then: Callable[[Any], T] | None = None

    def map(self, then: Callable[[T], U]) -> Q[U]:
        """This statement, its result made into ``then(result)``."""
        # ``then`` is sent what the driver brought, so it maps a statement not yet mapped
        assert self.then is None, "a statement is mapped once"
        return Q(self.sql, self.params, self.want, self.xid, then)

    def result(self, brought: Any) -> T:
        return brought if self.then is None else self.then(brought)

    @staticmethod
    def rows(sql: str, /, **params: object) -> Q[list[Row]]:
        return Q(sql, params)

    @staticmethod
    def row(sql: str, /, **params: object) -> Q[Row | None]:
        return Q(sql, params, ROW)

    @staticmethod
    def one(sql: str, /, **params: object) -> Q[Row]:
        """A statement sure to bring back a row (an aggregate, ``INSERT ... RETURNING``, a
        row just written, a game the caller holds): that row."""

        def present(row: Row | None) -> Row:
            if row is None:
                raise LookupError(f"no row from a statement sure of one: {sql}")
            return row

        return Q(sql, params, ROW, then=present)

    @staticmethod
    def count(sql: str, /, **params: object) -> Q[int]:
        return Q(sql, params, COUNT)


@dataclass(frozen=True, slots=True)
class Many:
    """One statement run for each of ``rows`` (its parameters), in one trip; brings back
    nothing. No rows: nothing is run."""

    sql: str
    rows: Sequence[Mapping[str, object]]


Statement = Q | Many
#: a transaction's body: yields statements, is sent what each brought back, returns its
#: result
Body = Generator[Statement, Any, T]
#: what a store runs: one statement (its result) or a body (what it returns)
Work = Q[T] | Many | Body[T]


class Duplicate(Exception):
    """A row broke a unique constraint, named as PostgreSQL names it (``games_live_channel``,
    ``daily_entries_pkey``, ...): the drivers raise this for their own kind of error, so
    a write says "already there" once for every database."""

    def __init__(self, constraint: str) -> None:
        super().__init__(f"duplicate key: {constraint}")
        self.constraint = constraint


def body(work: Work[T]) -> Body[T]:
    """``work`` as a body: a lone statement is a body of one, bringing back its result."""
    if isinstance(work, Q | Many):
        return _alone(work)
    return work


def _alone(statement: Statement) -> Body[Any]:
    return (yield statement)


@dataclass(frozen=True)
class Rendered:
    """A statement as one dialect's driver takes it: its text, and the names of the
    parameters its marks stand for, in order (none where the driver takes names)."""

    text: str
    names: tuple[str, ...] = ()

    def args(self, params: Mapping[str, object]) -> list[object]:
        return [params[name] for name in self.names]


#: a quoted literal (left alone), a parameter, or a word a dialect may write otherwise
_TOKENS = re.compile(
    r"(?P<literal>'(?:[^']|'')*')"
    r"|(?<![:\w]):(?P<name>[A-Za-z_]\w*)"
    r"|(?P<word>\bIS NOT DISTINCT FROM\b|\bTRUE\b|\bFALSE\b|\bTIMESTAMPTZ\b"
    r"|\s+FOR UPDATE(?: OF \w+)?(?: SKIP LOCKED)?\b)"
)


class Dialect:
    """How one database's driver reads neutral SQL. ``numbered``: parameters are marked
    ``$1``, ``$2``, ... in order of first use (asyncpg), else left as ``:name`` (sqlite3
    binds names itself). ``words``: neutral words this dialect writes otherwise."""

    def __init__(
        self, name: str, *, numbered: bool, words: Mapping[str, str] | None = None
    ) -> None:
        self.name = name
        self.numbered = numbered
        self.words = dict(words or {})
        self.render = lru_cache(maxsize=2048)(self._render)

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def _render(self, sql: str) -> Rendered:
        names: list[str] = []

        def token(match: re.Match[str]) -> str:
            if match["literal"]:
                return match["literal"]
            if match["word"]:
                word = match["word"]
                return self.words.get(_word_key(word), word)
            name = match["name"]
            if not self.numbered:
                return match[0]
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"

        return Rendered(_TOKENS.sub(token, sql), tuple(names))

    def as_bytes(self, column: str) -> str:
        """``column`` read as the bytes stored, where the driver would otherwise fail to
        decode a damaged byte (:mod:`bot.store.damage`); as it is where it cannot."""
        return column


def _word_key(word: str) -> str:
    """A word as :attr:`Dialect.words` keys it: a row lock, whatever it locks, is
    ``FOR UPDATE``."""
    word = word.strip()
    return "FOR UPDATE" if word.startswith("FOR UPDATE") else word
