"""The PostgreSQL store on a real server: migrations, the faults a host meets (no server, a
wrong password, no database, a connection lost mid-move), processes racing on one
database, and the command line on a postgresql:// URL. What every store does is in
test_store_contract.py; the service end to end is in test_postgres_service.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.config import Shards, Web, load_settings
from bot.hosting import running
from bot.store import (
    CannotOpen,
    CannotSave,
    SchemaTooNew,
    StaleGame,
    StoreFault,
    dumps,
    open_store,
)
from bot.store.migrations import migrations
from bot.tools import load_processes
from tests.bot.store.test_store_contract import moved, started_game
from tests.conftest import run_bot


def _with(url: str, **parts: str) -> str:
    """``url`` with its password, port or database changed."""
    split = urlsplit(url)
    user = split.username or "postgres"
    password = parts.get("password", split.password)
    host = f"{split.hostname}:{parts.get('port', split.port)}"
    netloc = f"{user}:{password}@{host}" if password else f"{user}@{host}"
    return urlunsplit(split._replace(netloc=netloc, path=parts.get("path", split.path)))


async def _fetch(url: str, sql: str, *args):
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


# -- schema ----------------------------------------------------------------------------


async def test_migrations_are_recorded_once_and_a_newer_schema_is_refused(postgres_url):
    shipped = migrations("postgres")
    recorded = await _fetch(postgres_url, "SELECT number, name FROM schema_migrations")
    assert [(r[0], r[1]) for r in recorded] == [(m.number, m.name) for m in shipped]
    await _fetch(postgres_url, "CREATE EXTENSION amcheck")  # the check reads indexes too
    store = await open_store(postgres_url)  # a second start applies nothing again
    try:
        assert await store.schema_version() == shipped[-1].number
        assert await store.integrity() == "ok"
    finally:
        await store.close()
    assert len(await _fetch(postgres_url, "SELECT * FROM schema_migrations")) == len(shipped)

    newer = shipped[-1].number + 1
    await _fetch(
        postgres_url,
        "INSERT INTO schema_migrations VALUES ($1, 'from-the-future.sql', now())",
        newer,
    )
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}.*knows migrations only up"):
        await open_store(postgres_url)


# -- faults at start-up ----------------------------------------------------------------


async def test_no_server_names_the_url_without_its_password(postgres_url):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = _with(postgres_url, port=str(port), password="hunter2")
    with pytest.raises(CannotOpen) as refused:
        await open_store(url)
    said = str(refused.value)
    assert "cannot be reached" in said and f"127.0.0.1:{port}" in said
    assert "BRIDGEKEEPER_DB" in said and "hunter2" not in said and "***" in said


async def test_a_wrong_password_is_refused_clearly(postgres_url):
    url = _with(postgres_url, password="not-the-password")
    try:
        await (await asyncpg.connect(url)).close()
    except asyncpg.InvalidPasswordError:
        pass
    else:
        pytest.skip("this server trusts every connection: no password is checked")
    with pytest.raises(CannotOpen, match="refused the password") as refused:
        await open_store(url)
    assert "not-the-password" not in str(refused.value)


async def test_a_missing_database_says_to_create_it(postgres_url):
    url = _with(postgres_url, path="/no_such_database")
    with pytest.raises(CannotOpen, match="does not exist.*createdb") as refused:
        await open_store(url)
    assert "no_such_database" in str(refused.value)


# -- faults while running --------------------------------------------------------------


async def test_a_connection_lost_mid_move_saves_nothing_and_play_resumes(postgres_url):
    """The server drops the move's connection between its statements: the asker hears
    that nothing could be saved, nothing of the move is kept, and the same move then
    goes through on a fresh connection."""
    store = await open_store(postgres_url)
    try:
        game_id = await started_game(store)
        before = await store.game(game_id)

        async def kill_the_store_connections() -> None:
            await _fetch(
                postgres_url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'bridgekeeper' AND datname = current_database() "
                "AND pid <> pg_backend_pid()",
            )

        def rate_while_the_server_drops_us(ratings, places):
            # called inside the move's transaction, after its first statement
            with concurrent.futures.ThreadPoolExecutor(1) as other:
                other.submit(asyncio.run, kill_the_store_connections()).result()
            return ratings

        with pytest.raises(CannotSave, match="can't save anything right now"):
            await store.record(
                game_id,
                before.version,
                moved(
                    0,
                    1,
                    "resign",
                    [],
                    results=[(2, 0), (1, 5)],
                    rate=rate_while_the_server_drops_us,
                ),
            )
        assert await store.game(game_id) == before
        assert await store.moves(game_id) == []
        assert [s.place for s in await store.seats(game_id)] == [None, None]
        seq = (
            await store.record(
                game_id, before.version, moved(0, 1, "resign", [], results=[(2, 0), (1, 5)])
            )
        ).seq
        assert seq == 1 and (await store.game(game_id)).status == "finished"
    finally:
        await store.close()


async def test_a_game_held_too_long_by_another_process_saves_nothing(postgres_url, monkeypatch):
    """Another connection holds the game's row (a stuck process, an operator's open
    transaction): the move gives up after the lock timeout, saying nothing was saved."""
    monkeypatch.setattr("bot.store.postgres.opening.LOCK_TIMEOUT_S", 0.2)
    store = await open_store(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        game_id = await started_game(store)
        version = (await store.game(game_id)).version
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            with pytest.raises(CannotSave, match="another process is holding the database"):
                await store.record(game_id, version, moved(0, 1, "x", [1]))
        assert await store.moves(game_id) == []
        await store.record(game_id, version, moved(0, 1, "x", [1]))
    finally:
        await other.close()
        await store.close()


# -- several processes on one database -------------------------------------------------


async def test_of_two_stores_racing_one_move_exactly_one_wins(postgres_url):
    """Two pools, as two bot processes would hold: the same move at the same version."""
    first, second = await open_store(postgres_url), await open_store(postgres_url)
    try:
        game_id = await started_game(first)
        version = (await first.game(game_id)).version

        async def move(store, action):
            return await store.record(game_id, version, moved(0, 1, action, [1]))

        outcomes = await asyncio.gather(
            *[move(s, a) for s, a in [(first, "a1"), (second, "b1")] * 3], return_exceptions=True
        )
        won = [o for o in outcomes if not isinstance(o, BaseException)]
        assert [o.seq for o in won] == [1]
        assert all(isinstance(o, StaleGame) for o in outcomes if o not in won)
        assert len(await second.moves(game_id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_a_move_waits_for_a_reminder_claimed_meanwhile_and_keeps_it(postgres_url):
    """Another process claims a reminder for a seat that stays waiting while this one
    records a move: the move reads the seat as the claim left it, so the reminder count
    is not written back to what it was (which would send that reminder again)."""
    store = await open_store(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        game_id = await started_game(store)  # waits for seat 0
        version = (await store.game(game_id)).version
        claim = other.transaction()
        await claim.start()
        await other.execute(
            "UPDATE seats SET reminders = 1 WHERE game_id = $1 AND seat = 0", game_id
        )
        move = asyncio.create_task(store.record(game_id, version, moved(1, 2, "x", [0])))
        await asyncio.sleep(0.3)
        assert not move.done(), "the move waits for the seat the claim holds"
        await claim.commit()
        await move
        later = datetime(2999, 1, 1, tzinfo=UTC)
        (wait,) = await store.claim_due_waits(later, later, 10)
        assert (wait.seat, wait.reminders) == (0, 1)
    finally:
        await other.close()
        await store.close()


async def test_notices_claimed_by_processes_at_once_are_each_handed_out_once(postgres_url):
    stores = [await open_store(postgres_url) for _ in range(3)]
    try:
        game_id = await started_game(stores[0])
        for n in range(30):
            await stores[0].queue_turn_notice(game_id, 1, f"notice {n}", "2000-01-01T00:00:00Z")
        claiming = (s.claim_notices(f"process {n}") for n, s in enumerate(stores * 2))
        claimed = await asyncio.gather(*claiming)
        texts = [notice.text for batch in claimed for notice in batch]
        assert sorted(texts) == sorted(f"notice {n}" for n in range(30))
    finally:
        for store in stores:
            await store.close()


# -- the command line ------------------------------------------------------------------


async def test_bots_share_a_postgres_database_without_the_one_file_lock(tmp_path, monkeypatch):
    """The one-process lock is SQLite's: processes on PostgreSQL share it by design, each
    connecting its own shards."""
    served = []

    async def serve(db, token: str, shards: Shards, web: Web | None = None) -> None:
        served.append((db, shards))

    monkeypatch.setattr(running, "serve", serve)
    monkeypatch.chdir(tmp_path)
    url = "postgresql://bk:secret@db.example:5432/bk"
    env = {"BRIDGEKEEPER_DB": url, "BRIDGEKEEPER_SHARD_COUNT": "2"}
    first = load_settings({**env, "BRIDGEKEEPER_SHARDS": "0"}, tmp_path / ".env")
    second = load_settings({**env, "BRIDGEKEEPER_SHARDS": "1"}, tmp_path / ".env")
    assert first.db_path == url, "a URL stays a URL, not a path"
    await running.run_bot(first)
    await running.run_bot(second)
    assert served == [(url, Shards((0,), 2)), (url, Shards((1,), 2))]
    assert list(tmp_path.iterdir()) == []


def test_a_database_url_of_another_scheme_stops_the_start_naming_the_setting(tmp_path):
    done = run_bot("console", cwd=tmp_path, env={"BRIDGEKEEPER_DB": "mysql://bk:pw@db/bk"})
    assert done.returncode != 0
    assert "BRIDGEKEEPER_DB" in done.stderr and "mysql://" in done.stderr
    assert ":pw@" not in done.stderr and list(tmp_path.iterdir()) == []


def test_a_sqlite_host_never_imports_asyncpg(tmp_path):
    done = run_bot_python(
        tmp_path,
        "import sys; from bot.__main__ import main; "
        "main(['selfplay', 'skybridge', '--games', '1', '--db', 'self.db']); "
        "print('asyncpg' in sys.modules)",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"


def run_bot_python(cwd, code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_the_console_plays_on_postgres_and_backup_runs_pg_dump(postgres_url, tmp_path):
    script = "ada: /new skybridge\nbob: /join\nada: /start\nbob: /move blue tall b2\n"
    played = run_bot("console", "--db", postgres_url, "--seed", "3", cwd=tmp_path, stdin=script)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "To play: ada." in played.stdout

    rows = asyncio.run(_fetch(postgres_url, "SELECT action FROM moves ORDER BY seq"))
    assert [r[0] for r in rows] == ["blue tall b2"]

    backup = run_bot("backup", str(tmp_path / "games.dump"), "--db", postgres_url, cwd=tmp_path)
    assert backup.returncode == 0, backup.stderr
    assert "(pg_dump, custom format): 1 game\n" in backup.stdout
    password = urlsplit(postgres_url).password
    assert not password or password not in backup.stdout + backup.stderr
    assert (tmp_path / "games.dump").read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format

    resigned = run_bot("console", "--db", postgres_url, cwd=tmp_path, stdin="ada: /resign\n")
    assert "resigned" in resigned.stdout, resigned.stdout
    refused = run_bot("restore", str(tmp_path / "games.dump"), "--db", postgres_url, cwd=tmp_path)
    assert refused.returncode == 1 and "--force" in refused.stderr
    restored = run_bot(
        "restore", str(tmp_path / "games.dump"), "--db", postgres_url, "--force", cwd=tmp_path
    )
    assert restored.returncode == 0, restored.stderr
    assert "restored 1 game from" in restored.stdout
    rows = asyncio.run(_fetch(postgres_url, "SELECT status FROM games"))
    assert [r[0] for r in rows] == ["active"], "the game as it was when backed up"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--timers", "--db", "postgresql://bk@db.example/bk"), "--timers builds its own"),
        (("--load", "--db", "elsewhere.db"), "--db with --load takes a PostgreSQL URL"),
        (("--bot-processes", "2"), "--bot-processes goes with --load --db postgresql://"),
        (("--load", "--bot-processes", "0,2"), "give counts of processes, e.g. 1,2,4"),
        (("--web", "--load"), "--web is a bench of its own"),
    ],
)
def test_bench_refuses_options_it_would_not_use(tmp_path, args, says):
    done = run_bot("bench", *args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr


def test_without_pg_dump_backup_says_exactly_what_to_run(tmp_path, monkeypatch):
    monkeypatch.setattr("bot.store.dumps.shutil.which", lambda tool: None)
    url = "postgresql://bk:secret@db.example:5432/bk"
    with pytest.raises(StoreFault) as told:
        dumps.dump(url, tmp_path / "b.dump")
    said = str(told.value)
    assert "pg_dump is not installed here" in said and "secret" not in said
    command = f"pg_dump --format=custom --file={tmp_path / 'b.dump'} "
    assert said.endswith(command + "postgresql://bk@db.example:5432/bk"), "runnable as shown"
    with pytest.raises(StoreFault, match="pg_restore is not installed.*pg_restore --clean"):
        dumps.restore(tmp_path / "b.dump", url)
    assert list(tmp_path.iterdir()) == []


async def test_processes_claiming_due_waits_at_once_each_get_different_ones(postgres_url):
    """FOR UPDATE SKIP LOCKED: three processes' ticks at one moment share out the due
    waits between them, each exactly once, none waiting for another."""
    stores = [await open_store(postgres_url) for _ in range(3)]
    try:
        games = [await started_game(stores[0], channel=300 + n) for n in range(30)]
        later = datetime(2100, 1, 1, tzinfo=UTC)
        lease = later + timedelta(minutes=5)
        batches = await asyncio.gather(
            *(s.claim_due_waits(later, lease, 4) for s in stores for _ in range(4))
        )
        claimed = [w.game_id for batch in batches for w in batch]
        assert len(claimed) == len(set(claimed)) == 30
        assert sorted(claimed) == games
    finally:
        for store in stores:
            await store.close()


async def test_the_load_bench_shares_games_between_bot_processes_on_postgres(postgres_url):
    """The whole of ``bench --load --db URL --bot-processes 1,2`` at its smallest: SQLite's
    figures and PostgreSQL's at each count, every line labelled, into an empty database."""
    url = postgres_url  # migrated, and empty of rows: what migrate-store copies into
    lines: list[str] = []
    await load_processes.run(lines.append, url, [1, 2], games=4, seconds=1.0, rate=40.0, stored=120)
    rows = [json.loads(line) for line in lines]
    capacity = {
        (r.get("store"), r.get("bot_processes")): r["value"]
        for r in rows
        if r["metric"] == "load.capacity_norender_moves_per_s"
    }
    assert set(capacity) == {("sqlite", 1), ("postgres", 1), ("postgres", 2)}
    assert all(value > 0 for value in capacity.values())
    floors = [r for r in rows if r["metric"] == "postgres.commit_p50_ms"]
    assert len(floors) == 1 and floors[0]["value"] > 0
    store = await open_store(url)
    try:
        assert await store.count_games() > 120, "the seeded games were copied, then played on"
    finally:
        await store.close()
