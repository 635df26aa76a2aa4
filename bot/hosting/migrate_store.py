"""``python -m bot migrate-store FROM TO``: move a whole database to another store, most
often a SQLite file to PostgreSQL when one process is no longer enough (docs/deploy.md).

FROM is only read. A SQLite FROM is checked, then copied by SQLite's online backup into a
temporary file, and the copy, not FROM, is brought up to this version's schema when an
older Bridgekeeper wrote it; a PostgreSQL FROM is read in read-only transactions, so one
written by an older version is refused (upgrading it would be writing to it). A FROM
written by a newer version is refused. TO must hold no rows at all: a refusal names what
it found, before anything is written to it. TO's schema is then made (or brought up to
date) by its store's own migrations, and every table is copied in ONE transaction on TO
(:mod:`bot.store.copying`): read back and compared table by table, then every game's move
log replayed through the rules, in worker processes, must give exactly the state stored
beside it. Only then does the transaction commit; anything less leaves TO without a row
of it: a SQLite TO this command created is removed again, a PostgreSQL TO keeps the empty
schema its migrations made (they commit one by one, as at every start), ready for the
next try.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AsyncExitStack, ExitStack, asynccontextmanager
from pathlib import Path

import engine
from bot.hosting.backups import copy_checked, hold, remove_with_journals
from bot.service.games import replayed
from bot.store import (
    CannotOpen,
    Damaged,
    InUse,
    SQLiteStore,
    Store,
    StoreFault,
    Target,
    backend,
    is_file,
    open_store,
    sole_process,
)
from bot.store.copying import (
    Copied,
    CopyFault,
    GameLog,
    Side,
    Transacting,
    copy,
    game_logs,
)
from bot.store.migrations import migrations
from bot.store.sqlite import tables as sqlite_tables

#: games a replay worker is handed at a time
CHUNK = 200
#: games named in a failure's message; the count says how many more
SHOWN = 10


async def migrate_store(source: Target, target: Target) -> int:
    """Copy ``source`` into ``target``, print what was copied; any refusal or failure
    stops the command (SystemExit) saying what to do, with TO as it was."""
    started = time.monotonic()
    try:
        if _same(source, target):
            raise CopyFault(f"FROM and TO are the same database ({_named(source)}): give two.")
        with ExitStack() as locks, tempfile.TemporaryDirectory(prefix="bk-migrate-") as tmp:
            if not backend(source).shared:  # no bot may take moves the copy would miss
                _hold_source(locks, Path(source))  # one process's database: a file
            if not backend(target).shared:
                hold(locks, Path(target))
            await _refuse_occupied(target)
            reader, upgraded = await _open_source(source, Path(tmp))
            try:
                copied, games, entries = await _copy_into(reader, source, target)
            finally:
                await reader.close()
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    seconds = time.monotonic() - started
    print("\n".join(_summary(source, target, upgraded, copied, games, entries, seconds)))
    return 0


def _summary(
    source: Target,
    target: Target,
    upgraded: int | None,
    copied: Sequence[Copied],
    games: int,
    entries: int,
    seconds: float,
) -> list[str]:
    tables = ", ".join(f"{c.table} {c.rows:,}" for c in copied)
    lines = [f"copied {_named(source)} to {_named(target)} in {seconds:.1f} s"]
    if upgraded is not None:
        lines.append(
            f"  FROM had schema {upgraded}, from an older version: its copy was brought up to "
            "date first; FROM itself was only read"
        )
    return [
        *lines,
        f"  {len(copied)} tables, {sum(c.rows for c in copied):,} rows, each table counted and "
        f"compared after writing: {tables}",
        f"  {games:,} games replayed from their logs ({entries:,} entries) to exactly the state "
        "stored",
        f"next: stop using {_named(source)}, set BRIDGEKEEPER_DB={_named(target, None)} and "
        "start the bot",
    ]


def _named(where: Target, mark: str | None = "***") -> str:
    return backend(where).named(where, mark)


def _same(source: Target, target: Target) -> bool:
    kind = backend(source)
    return kind is backend(target) and kind.same(source, target)


def _hold_source(locks: ExitStack, source: Path) -> None:
    """Refuse while a bot runs on FROM: it would go on taking moves that the copy misses.
    A FROM whose folder cannot take the lock file (a read-only mount holding a backup)
    has no bot running on it either, since the bot takes that same lock."""
    if not source.is_file():
        raise CopyFault(f"There is no database at {source}: check FROM. Nothing was changed.")
    try:
        locks.enter_context(sole_process(source))
    except InUse:
        raise
    except CannotOpen:
        return


async def _open_source(source: Target, tmp: Path) -> tuple[Store, int | None]:
    """FROM's store, for reading only, and the schema it had if older than this version's."""
    if not is_file(source):  # a server's database: read in one snapshot, never copied
        return await _open_postgres_source(source), None
    staged = tmp / "from.db"
    copy_checked(
        source, staged, "so it is not copied; nothing was changed. Restore a backup of it first."
    )
    version = sqlite_tables.schema_version(staged)
    _check_version(source, version, max(m.number for m in migrations()))
    store = await SQLiteStore.open(staged)  # brings the copy, not FROM, up to date
    known = await store.schema_version()
    return store, version if version < known else None


async def _open_postgres_source(url: str) -> Store:
    store = await backend(url).store().open(url, read_only=True)
    try:
        version, known = await store.schema_version(), max(m.number for m in migrations("postgres"))
        _check_version(url, version, known)
        if version < known:
            raise CopyFault(
                f"{store.where} has schema {version}, from an older Bridgekeeper, and FROM is "
                "only read, never upgraded. Bring it up to date first (this version upgrades "
                f"it when it opens it: python -m bot backup FILE --db URL), then copy it. "
                "Nothing was changed."
            )
        verdict = await store.integrity()
        if verdict != "ok":
            raise Damaged(store.where, verdict, "PostgreSQL")
    except BaseException:
        await store.close()
        raise
    return store


def _check_version(source: Target, version: int, known: int) -> None:
    if version == 0:
        raise CopyFault(f"{_named(source)} holds no Bridgekeeper database: check FROM.")
    if version > known:
        raise CopyFault(
            f"{_named(source)} has schema {version}, but this Bridgekeeper knows migrations only "
            f"up to {known}: a newer Bridgekeeper wrote it. Copy it with that newer version's "
            "migrate-store. Nothing was changed."
        )


async def _refuse_occupied(target: Target) -> None:
    found = await backend(target).occupied(target)
    if found:
        held = ", ".join(
            f"{count:,} {'row' if count == 1 else 'rows'} in {name}"
            for name, count in found.items()
        )
        raise CopyFault(
            f"TO ({_named(target)}) is not empty: it holds {held}. migrate-store copies only "
            "into an empty database, so nothing is ever merged or overwritten. Give an empty "
            "one (a new file, or a new PostgreSQL database). Nothing was changed."
        )


async def _copy_into(
    reader: Store, source: Target, target: Target
) -> tuple[list[Copied], int, int]:
    made = backend(target).file and not Path(target).exists()
    try:
        store = await open_store(target)  # TO's schema, by its own migrations
        try:
            async with AsyncExitStack() as sides:
                src = await sides.enter_async_context(_side(reader, source, snapshot=True))
                dst = await sides.enter_async_context(_side(store, target))
                _progress("copying every table in one transaction, then reading it back")
                copied = await copy(src, dst)
                _progress(f"replaying every game's log ({os.cpu_count() or 1} processes)")
                games, entries = await check_replays(dst)
        finally:
            await store.close()
    except BaseException:
        if made:
            remove_with_journals(Path(target))
        raise
    return copied, games, entries


def _progress(doing: str) -> None:
    """A long copy says what it is doing, on stderr: stdout carries the summary."""
    print(f"migrate-store: {doing}...", file=sys.stderr, flush=True)


@asynccontextmanager
async def _side(store: Store, where: Target, snapshot: bool = False) -> AsyncIterator[Side]:
    """``store`` inside one transaction, as a side of the copy (messages name ``where``)."""
    assert isinstance(store, Transacting)  # every backend's store is
    async with store.transaction(snapshot=snapshot) as conn:
        yield backend(where).side(conn, where)


# -- the replay check ---------------------------------------------------------------------


async def check_replays(side: Side) -> tuple[int, int]:
    """Replay every stored game's log through the rules, in worker processes (one a
    core); how many games and log entries that was. Raises :class:`CopyFault` naming
    each game that does not reach its stored state."""
    loop = asyncio.get_running_loop()
    workers = os.cpu_count() or 1
    context = multiprocessing.get_context("forkserver")  # the copy's threads run already
    pool = ProcessPoolExecutor(workers, mp_context=context)
    problems: list[str] = []
    running: set[asyncio.Future[list[str]]] = set()
    chunk: list[GameLog] = []
    games = entries = 0
    try:
        async for game in game_logs(side):
            if game.state is None:  # a lobby: nothing played, nothing to replay
                if game.moves:
                    problems.append(f"{_game(game)}: it has a move log but no stored state")
                continue
            games, entries = games + 1, entries + len(game.moves)
            chunk.append(game)
            if len(chunk) == CHUNK:
                running.add(loop.run_in_executor(pool, replay_games, chunk))
                chunk = []
            if len(running) >= 2 * workers:  # a few chunks ahead, not the whole database
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                problems += [p for future in done for p in future.result()]
        if chunk:
            running.add(loop.run_in_executor(pool, replay_games, chunk))
        for future in asyncio.as_completed(running):
            problems += await future
    finally:
        pool.shutdown(cancel_futures=True)
    if problems:
        more = f" (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
        raise CopyFault(
            f"{len(problems)} of {games:,} games do not replay to their stored state, so "
            f"nothing was copied: {'; '.join(problems[:SHOWN])}{more}. Their rows were read "
            "and written as they are: the fault is in FROM."
        )
    return games, entries


def replay_games(games: Sequence[GameLog]) -> list[str]:
    """In a worker: what is wrong with each game whose log does not lead to its state."""
    problems = []
    for game in games:
        try:
            rules = engine.get(game.game_key)
            state = replayed(rules, game.players, game.options, game.seed, game.moves)
        except Exception as exc:  # an unknown game, an illegal move: named, not raised
            problems.append(f"{_game(game)}: its log does not replay ({type(exc).__name__}: {exc})")
            continue
        if rules.to_json(state) != game.state:
            problems.append(
                f"{_game(game)}: its log replays to a different state than the one stored"
            )
    return problems


def _game(game: GameLog) -> str:
    return f"game {game.id} ({game.game_key}, channel {game.channel_id})"
