"""The terminal's people (:class:`bot.store.interface.TerminalUsers`) on every store: a
name is one user in every session on a database, never a Discord user, and a database
from before they were kept keeps each name's last id. The terminal itself, across
sessions, is tested in test_console.py."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import open_store as open_target
from bot.store.migrations import migrations
from bot.store.shared.terminal import TERMINAL_IDS_BELOW
from tests.bot.store.test_store_contract import started_game
from tests.conftest import STORES

#: a Discord user's id: a snowflake, as large as Discord's earliest users' already
SNOWFLAKE = 80351110224678912


async def test_a_name_is_one_user_in_every_session_and_never_a_discord_user(open_store):
    store = await open_store()
    await started_game(store, channel=77, users=(SNOWFLAKE, 3))  # a terminal user of old: 3
    (ada, new_ada), (bob, new_bob) = [await store.terminal_user(n) for n in ("ada", "bob")]
    assert (ada, bob) == (4, 5), "past every id a terminal user has had, never a snowflake"
    assert new_ada and new_bob
    again = await open_store()  # another session on the same database
    assert [await again.terminal_user(n) for n in ("bob", "ada")] == [(bob, False), (ada, False)]
    assert max(ada, bob) < TERMINAL_IDS_BELOW <= SNOWFLAKE


async def test_a_name_given_out_for_a_refused_line_is_forgotten_unless_something_is_kept(
    open_store,
):
    store = await open_store()
    cy, _ = await store.terminal_user("cy")
    await store.forget_terminal_user("cy", cy)
    dee, _ = await store.terminal_user("dee")
    assert dee == cy, "nothing was kept under it: the id is free again"
    await started_game(store, channel=78, users=(SNOWFLAKE, dee))
    await store.forget_terminal_user("dee", dee)
    assert await store.terminal_user("dee") == (dee, False), "dee has a seat: dee stays"


async def test_terminals_naming_people_at_once_give_each_name_one_id(open_store):
    first, second = await open_store(), await open_store()
    names = [f"player{n}" for n in range(12)]
    ids = await asyncio.gather(
        *(store.terminal_user(name) for name in names for store in (first, second))
    )
    assert [i for i, _ in ids[0::2]] == [i for i, _ in ids[1::2]], "both agree on every name"
    assert len({i for i, _ in ids}) == len(names)
    assert sorted(new for _, new in ids) == [False] * 12 + [True] * 12, "each given out once"


@pytest.fixture(params=STORES)
async def unmigrated(request, tmp_path):
    """An empty database of each store, for a test to migrate as far as it likes."""
    if request.param == "sqlite":
        yield tmp_path / "old.db"
        return
    cluster = request.getfixturevalue("postgres")
    admin = await asyncpg.connect(cluster.url)
    await admin.execute("CREATE DATABASE bk_terminal_old")
    try:
        yield cluster.database_url("bk_terminal_old")
    finally:
        await admin.execute("DROP DATABASE bk_terminal_old WITH (FORCE)")
        await admin.close()


def before_terminal_users(dialect: str) -> int:
    """The number of the migration just before the one that keeps the terminal's people."""
    numbers = [m.number for m in migrations(dialect)]
    keeping = next(i for i, m in enumerate(migrations(dialect)) if "terminal_users" in m.name)
    return numbers[keeping - 1]


async def test_a_database_from_before_keeps_each_names_last_id(unmigrated):
    """Sessions numbered people in the order they first typed: each name keeps the id it
    last played under, unless someone else has played under that id since."""
    dialect = "" if hasattr(unmigrated, "stem") else "postgres"
    old = await open_target(unmigrated, migrate_to=before_terminal_users(dialect))
    sessions = [  # each session's seats, (id, name), as its games were opened
        [(1, "Ada"), (2, "bob")],
        [(1, "bob"), (2, "ada")],  # bob typed first: the mix-up
        [(1, "cy")],
    ]
    for channel, seats in enumerate(sessions, start=1):
        (creator, name), *others = seats
        game = await old.create_game(
            guild_id=1, channel_id=channel, game_key="skybridge", options={}, seed=1,
            creator_id=creator, creator_name=name,
        )  # fmt: skip
        for version, (user, joiner) in enumerate(others):
            await old.join(game, version, user, joiner)
    await old.close()
    store = await open_target(unmigrated)
    try:
        assert await store.terminal_user("cy") == (1, False), "cy played last as 1"
        assert await store.terminal_user("ada") == (2, False), "ada's last game was as 2"
        assert await store.terminal_user("bob") == (3, True), "1, bob's last id, is cy's now"
    finally:
        await store.close()
