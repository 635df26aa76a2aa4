"""A whole database copied from one store to another, for ``python -m bot migrate-store``.

Nothing here names a table of the bot's: the tables, their columns and the order they must
be written in (a parent before the rows that refer to it) are read from the two databases'
own catalogues, so a table or column a future migration adds is copied as well, and where
the two schemas disagree the copy refuses, naming the difference. Every value passes
through one canonical form between the dialects: a time as the store's ISO text (the "due
at once" mark is SQLite's ``''`` and PostgreSQL's ``-infinity``), a yes/no as ``bool``
(SQLite keeps 0 and 1), and ids, numbers, text and bytes as themselves, each checked to be
what its column says (SQLite lets any column hold anything).

What was written is then read back and compared, table by table: the number of rows and a
digest of their canonical values, so a row dropped, doubled or changed on the way (by a
conversion, or a trigger of the target's) fails the copy. Each dialect's side of it
(catalogue, reading in batches, writing) is in :mod:`bot.store.sqlite.tables` and
:mod:`bot.store.postgres.tables`; this module imports neither driver.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from bot.store.faults import StoreFault
from bot.store.rows import MoveRow, iso, parse_time

INT, FLOAT, TEXT, BYTES, BOOL, TIME = "integer", "real", "text", "bytes", "yes/no", "time"
#: a time that is due at once, in the canonical form (PostgreSQL's own spelling)
AT_ONCE = "-infinity"
#: the migrations each database has applied: numbered per dialect, so never copied (the
#: target records its own, having migrated to the same schema)
BOOKKEEPING = "schema_migrations"
#: SQLite declares a yes/no as INTEGER and a time as TEXT: the other dialect says which
_RICHER = {frozenset((INT, BOOL)): BOOL, frozenset((TEXT, TIME)): TIME}


class CopyFault(StoreFault):
    """The copy was refused or failed; ``str()`` says which table, which value, what to do.
    Raised before the target's transaction commits, so the target keeps nothing of it."""


@dataclass(frozen=True)
class Column:
    name: str
    kind: str


@dataclass(frozen=True)
class Table:
    """One table as a database's catalogue describes it."""

    name: str
    columns: tuple[Column, ...]
    parents: frozenset[str] = frozenset()  # the tables its foreign keys refer to
    identity: str | None = None  # a column numbered by the database (PostgreSQL's identity)


@runtime_checkable
class Transacting(Protocol):
    """A store as a copy opens its side: raw SQL on its driver's own connection, in one
    transaction (every backend's store has it; the application's interface does not)."""

    def transaction(self, *, snapshot: bool = False) -> AbstractAsyncContextManager[Any]: ...


class Side(Protocol):
    """One database, inside one open transaction: what a copy needs of a dialect."""

    where: str  # for messages: a path, or a URL without its password
    at_once: str  # how this dialect stores a time that is due at once
    yes_no: type  # how it hands a yes/no over: bool, or int (0, 1)

    async def catalogue(self) -> dict[str, Table]: ...

    def rows(
        self, table: str, columns: Sequence[str], order: Sequence[str] = ()
    ) -> AsyncIterator[list[tuple]]:
        """Every row of ``table``, in batches, ordered by ``order`` if given."""

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        """Write rows; :class:`CopyFault`, naming the table, for a value a column refuses."""

    async def restart_identities(self, tables: Iterable[Table]) -> None:
        """Number the next new row of each table past those copied."""


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


# -- the plan: which tables, in which order, with which meaning --------------------------


def plan(source: Mapping[str, Table], target: Mapping[str, Table]) -> list[Table]:
    """The tables to copy, parents first, each column's kind the richer of the two
    catalogues' (a yes/no, a time). Raises :class:`CopyFault` naming every table or column
    one side has and the other lacks, and every column whose kinds cannot be matched."""
    names = (set(source) | set(target)) - {BOOKKEEPING}
    shared = names & set(source) & set(target)
    lone = sorted(names - shared)
    faults = [f"table {n} is only in {'FROM' if n in source else 'TO'}" for n in lone]
    tables: dict[str, Table] = {}
    for name in sorted(shared):
        theirs = {c.name: c.kind for c in target[name].columns}
        columns = []
        for column in source[name].columns:
            other = theirs.pop(column.name, None)
            kind = None if other is None else _meaning(column.kind, other)
            if other is None:
                faults.append(f"column {name}.{column.name} is only in FROM")
            elif kind is None:
                faults.append(f"{name}.{column.name} is {column.kind} in FROM, {other} in TO")
            else:
                columns.append(Column(column.name, kind))
        faults += [f"column {name}.{extra} is only in TO" for extra in theirs]
        tables[name] = Table(name, tuple(columns), target[name].parents, target[name].identity)
    if faults:
        raise CopyFault(
            "FROM and TO do not have the same schema, so nothing was copied: "
            + "; ".join(faults)
            + ". Both were brought to this version's schema, so one of them was changed by "
            "hand (or this version's two dialects disagree: a bug to report)."
        )
    return _parents_first(tables)


def _meaning(one: str, other: str) -> str | None:
    if one == other:
        return one
    return _RICHER.get(frozenset((one, other)))


def _parents_first(tables: dict[str, Table]) -> list[Table]:
    ordered: list[Table] = []
    done: set[str] = set()
    while len(ordered) < len(tables):
        ready = [t for n, t in sorted(tables.items()) if n not in done and t.parents <= done]
        if not ready:
            stuck = sorted(set(tables) - done)
            raise CopyFault(f"the tables {', '.join(stuck)} refer to each other in a circle")
        ordered += ready
        done |= {t.name for t in ready}
    return ordered


# -- values: one canonical form between the dialects --------------------------------------


def _strict(kind: type) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise ValueError(f"not {kind.__name__}")
        return value

    return check


_CHECKED = {INT: _strict(int), TEXT: _strict(str), BYTES: _strict(bytes)}
_text = _CHECKED[TEXT]


#: the text :func:`bot.store.rows.iso` writes: a time already so is kept as it is, not
#: written out again (a third of a copy's conversions are times)
_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00")


def _time(value: Any) -> str:
    moment = parse_time(_text(value))
    if moment.tzinfo is None:
        raise ValueError("a time without its zone")
    return value if _ISO.fullmatch(value) else iso(moment)


def _real(value: Any) -> float:
    if type(value) not in (int, float):
        raise ValueError("not a number")
    return float(value)


def decoder(kind: str, side: Side) -> Callable[[Any], Any]:
    """A stored value of ``side`` -> its canonical form; ValueError if it is not what
    its column says."""
    if kind == BOOL:
        yes_no, meaning = _strict(side.yes_no), {0: False, 1: True}
        return lambda v: meaning[yes_no(v)]
    if kind == TIME:
        at_once = side.at_once
        return lambda v: AT_ONCE if v == at_once else _time(v)
    if kind == FLOAT:
        return _real
    return _CHECKED[kind]


def encoder(kind: str, side: Side) -> Callable[[Any], Any] | None:
    """A canonical value -> as ``side`` stores it; None where that is the value itself."""
    if kind == BOOL and side.yes_no is not bool:
        return side.yes_no
    if kind == TIME and side.at_once != AT_ONCE:
        at_once = side.at_once
        return lambda v: at_once if v == AT_ONCE else v
    return None


def _row_decoder(table: Table, side: Side) -> Callable[[tuple], tuple]:
    decode = [decoder(c.kind, side) for c in table.columns]

    def row(raw: tuple) -> tuple:
        try:
            return tuple(None if v is None else d(v) for d, v in zip(decode, raw, strict=True))
        except (ValueError, KeyError, TypeError) as exc:
            raise CopyFault(_bad_value(table, side, raw, exc)) from None

    return row


def _bad_value(table: Table, side: Side, raw: tuple, exc: BaseException) -> str:
    for column, value in zip(table.columns, raw, strict=True):
        try:
            None if value is None else decoder(column.kind, side)(value)
        except (ValueError, KeyError, TypeError):
            shown = repr(value)[:80]
            return (
                f"{side.where}: {table.name}.{column.name} holds {shown}, which is not a "
                f"{column.kind} value; fix that row, then copy again. Nothing was copied."
            )
    return f"{side.where}: a row of {table.name} cannot be read ({exc}). Nothing was copied."


def _row_encoder(table: Table, side: Side) -> Callable[[list[tuple]], list[tuple]]:
    """Canonical rows -> as ``side`` stores them (the same list where nothing changes)."""
    encoders = [encoder(c.kind, side) for c in table.columns]
    if not any(encoders):
        return lambda rows: rows
    encode = [e or _itself for e in encoders]

    def rows(canonical: list[tuple]) -> list[tuple]:
        return [
            tuple(None if v is None else e(v) for e, v in zip(encode, row, strict=True))
            for row in canonical
        ]

    return rows


def _itself(value: Any) -> Any:
    return value


class Tally:
    """How many rows, and a digest of their values that does not depend on their order
    (each dialect orders text its own way): the sum of each row's hash."""

    def __init__(self) -> None:
        self.rows = 0
        self._sum = 0

    def add(self, rows: Iterable[tuple]) -> None:
        # a 64-bit hash of the row's text: str's own (SipHash), whose key is random for
        # each process but fixed within one, and both tallies of a copy are taken in one
        for row in rows:
            self._sum = (self._sum + hash(repr(row))) % (1 << 64)
            self.rows += 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and (self.rows, self._sum) == (other.rows, other._sum)

    __hash__ = None  # type: ignore[assignment]


# -- the copy -----------------------------------------------------------------------------


async def copy(source: Side, target: Side) -> list[Copied]:
    """Every row of every table of ``source`` into ``target`` (inside the transactions
    both are in), then read back and compared; raises :class:`CopyFault` naming the first
    table that does not match. The caller commits the target only if this returns."""
    tables = plan(await source.catalogue(), await target.catalogue())
    sent: dict[str, Tally] = {}
    for table in tables:
        names = [c.name for c in table.columns]
        decode, encode = _row_decoder(table, source), _row_encoder(table, target)
        tally = sent[table.name] = Tally()
        async for batch in source.rows(table.name, names):
            rows = [decode(raw) for raw in batch]
            tally.add(rows)
            await target.insert(table.name, names, encode(rows))
    await target.restart_identities(tables)
    copied = []
    for table in tables:
        decode, tally = _row_decoder(table, target), Tally()
        async for batch in target.rows(table.name, [c.name for c in table.columns]):
            tally.add(decode(raw) for raw in batch)
        if tally.rows != sent[table.name].rows:
            raise CopyFault(
                f"{table.name}: {sent[table.name].rows} rows read from FROM, but {tally.rows} "
                "in TO after writing them. Nothing was copied."
            )
        if tally != sent[table.name]:
            raise CopyFault(
                f"{table.name}: its {tally.rows} rows in TO differ from FROM's after "
                "writing them. Nothing was copied."
            )
        copied.append(Copied(table.name, tally.rows))
    return copied


# -- every game and its move log, for the replay check ------------------------------------


@dataclass(frozen=True)
class GameLog:
    """What replaying a stored game needs: how it began, its log, the state it stored."""

    id: int
    game_key: str
    channel_id: int
    players: int
    options: dict
    seed: int
    state: str | None
    moves: tuple[MoveRow, ...]


_GAMES = ("id", "game_key", "channel_id", "options", "seed", "state")
_MOVES = ("game_id", "seq", "seat", "user_id", "kind", "action", "created_at")


async def game_logs(side: Side) -> AsyncIterator[GameLog]:
    """Every stored game with its seats counted and its log in order, by id: three
    ordered reads merged, so a database of any size streams through."""
    tables = await side.catalogue()
    seats = _rows(side, tables["seats"], ("game_id",), ("game_id",))
    moves = _rows(side, tables["moves"], _MOVES, ("game_id", "seq"))
    seat, move = await anext(seats, None), await anext(moves, None)
    async for game_id, key, channel, options, seed, state in _rows(
        side, tables["games"], _GAMES, ("id",)
    ):
        players, log = 0, []
        while seat is not None and seat[0] <= game_id:
            players += seat[0] == game_id
            seat = await anext(seats, None)
        while move is not None and move[0] <= game_id:
            if move[0] == game_id:
                log.append(MoveRow(*move[1:]))
            move = await anext(moves, None)
        yield GameLog(game_id, key, channel, players, json.loads(options), seed, state, tuple(log))


async def _rows(
    side: Side, table: Table, names: Sequence[str], order: Sequence[str]
) -> AsyncIterator[tuple]:
    kinds = {c.name: c for c in table.columns}
    decode = _row_decoder(Table(table.name, tuple(kinds[n] for n in names)), side)
    async for batch in side.rows(table.name, names, order):
        for raw in batch:
            yield decode(raw)
