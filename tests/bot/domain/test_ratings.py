"""Ratings: updated when a rated game ends, per server and game, rebuilt bit for bit."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from bot.domain.ratings import PROVISIONAL_GAMES, Rating, rate, replay
from bot.service import Refused, Service, Table
from bot.store import SQLiteStore
from bot.tools.selfplay import play_random, robots
from tests.conftest import ADA, BOB, TABLE


def test_plackett_luce_rewards_the_winner_and_shares_ties():
    after = rate([Rating(), Rating(), Rating()], [1, 2, 2])
    assert after[0].mu > 25 > after[1].mu
    assert after[1] == after[2], "tied places move alike"
    assert all(r.sigma < Rating().sigma and r.games == 1 for r in after)
    assert Rating().shown == pytest.approx(0.0)
    assert Rating(games=PROVISIONAL_GAMES - 1).label().endswith("?")
    assert not Rating(games=PROVISIONAL_GAMES).label().endswith("?")


async def finish(service: Service, table: Table, players: int, seed: int) -> None:
    """A whole random game at ``table`` (robots P1..Pn), through the service."""
    await play_random(service, table, "skybridge", players, random.Random(seed), seed=seed)


async def test_a_finished_game_updates_ratings_and_the_leaderboard(service):
    await finish(service, TABLE, 3, 1)
    board = await service.store.ratings(TABLE.guild_id, "skybridge")
    assert len(board) == 3 and all(r.games == 1 for _u, _n, r in board)
    shown = [r.shown for _u, _n, r in board]
    assert shown == sorted(shown, reverse=True)
    seats = await service.store.seats(1)
    winner = next(s for s in seats if s.place == 1)
    assert board[0][0] == winner.user_id
    reply = await service.ratings.leaderboard(TABLE.guild_id, "skybridge")
    assert reply.text.splitlines()[1].startswith(f"1. {winner.name} — ")
    assert "?" in reply.text, "one game: provisional"
    mine = await service.ratings.rating(TABLE.guild_id, robots(3)[0], None)
    assert mine.private and "Skybridge: **" in mine.text and "of 3" in mine.text


async def test_ratings_are_per_server_and_casual_games_leave_them_alone(service):
    await finish(service, TABLE, 2, 1)
    await finish(service, Table(channel_id=77, guild_id=8888), 2, 2)
    assert len(await service.store.ratings(TABLE.guild_id, "skybridge")) == 2
    assert len(await service.store.ratings(8888, "skybridge")) == 2
    before = await service.store.ratings(TABLE.guild_id, "skybridge")
    await service.lobby.create(TABLE, ADA, "skybridge", rated=False)
    await service.lobby.join(TABLE, BOB)
    reply = await service.lobby.start(TABLE, ADA)
    while reply.playable:
        who = ADA if reply.awaiting == (ADA.user_id,) else BOB
        reply = await service.play.move(TABLE, who, (await service.play.legal_moves(TABLE, who))[0])
    assert await service.store.ratings(TABLE.guild_id, "skybridge") == before
    with pytest.raises(Refused, match="Ada has no rated games here yet"):
        await service.ratings.rating(TABLE.guild_id, ADA, "skybridge")
    with pytest.raises(Refused, match="No rated Bridge Wars games"):
        await service.ratings.leaderboard(TABLE.guild_id, "bridge-wars")


async def test_rebuild_from_stored_results_gives_exactly_the_stored_numbers(tmp_path):
    store = await SQLiteStore.open(tmp_path / "r.db")
    service = Service(store, images=False)
    for n in range(12):
        await finish(service, Table(channel_id=300 + n, guild_id=1 + n % 2), 2 + n % 3, n)
    stored = {g: await store.ratings(g, "skybridge") for g in (1, 2)}
    assert all(len(b) >= 2 for b in stored.values())
    await store.close()

    done = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "--rebuild", "--db", str(tmp_path / "r.db")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "replayed 12 rated games: identical to the stored ratings" in done.stdout

    store = await SQLiteStore.open(tmp_path / "r.db")
    try:
        assert {g: await store.ratings(g, "skybridge") for g in (1, 2)} == stored
        async with store.transaction() as db:  # tamper, and the rebuild says so and repairs
            await db.execute("UPDATE ratings SET mu = mu + 1 WHERE rowid = 1")
        games, same = await store.rebuild_ratings(replay)
        assert (games, same) == (12, False)
        assert {g: await store.ratings(g, "skybridge") for g in (1, 2)} == stored
    finally:
        await store.close()


async def test_games_finishing_in_the_same_instant_rebuild_in_the_order_they_were_rated(tmp_path):
    """Under a frozen clock the second game opened finishes first: Bob wins it, then Ada
    wins the first. Finish times are equal, so only the rating order can say which came
    first; replayed by game id instead, the numbers would come out different."""
    frozen = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
    store = await SQLiteStore.open(tmp_path / "same.db", clock=lambda: frozen)
    try:
        service = Service(store, images=False, seed=lambda: 7)
        first, second = Table(601, 1), Table(602, 1)
        for table in (first, second):
            await service.lobby.create(table, ADA, "skybridge")
            await service.lobby.join(table, BOB)
            await service.lobby.start(table, ADA)
        await service.play.resign(second, ADA)
        await service.play.resign(first, BOB)
        stored = {u: r for u, _n, r in await store.ratings(1, "skybridge")}
        bob_first = rate(rate([Rating(), Rating()], [2, 1]), [1, 2])
        assert stored == {ADA.user_id: bob_first[0], BOB.user_id: bob_first[1]}
        by_id = rate(rate([Rating(), Rating()], [1, 2]), [2, 1])
        assert by_id[0] != bob_first[0], "the order matters to the numbers"
        assert await store.rebuild_ratings(replay) == (2, True)
        assert {u: r for u, _n, r in await store.ratings(1, "skybridge")} == stored
    finally:
        await store.close()


async def test_upgrading_numbers_earlier_games_in_the_order_rebuilds_replayed_them(tmp_path):
    """A database from before rating numbers: games without a finish time (finished
    before ratings existed) come first, then by finish time, then by id. New games rate
    after them, and a rebuild is stable from then on."""
    path = tmp_path / "old.db"
    store = await SQLiteStore.open(path)
    service = Service(store, images=False, seed=lambda: 3)
    for n in range(3):
        await finish(service, Table(channel_id=700 + n, guild_id=1), 2, n)
    async with store.transaction() as db:  # back to schema 6, game 3 from before 0004
        await db.execute("UPDATE games SET finished_at = NULL WHERE id = 3")
        await db.execute("UPDATE games SET finished_at = '2026-01-01T00:00:00' WHERE id < 3")
        await db.execute("DROP INDEX games_rating_seq")
        await db.execute("ALTER TABLE games DROP COLUMN rating_seq")
        await db.execute("DELETE FROM schema_migrations WHERE number = 7")
    await store.close()

    store = await SQLiteStore.open(path)
    try:
        order = await store.rows("SELECT id FROM games ORDER BY rating_seq")
        assert [r[0] for r in order] == [3, 1, 2]
        service = Service(store, images=False, seed=lambda: 4)
        await finish(service, Table(channel_id=710, guild_id=1), 2, 9)
        (seq,) = await store.row("SELECT rating_seq FROM games WHERE id = 4")
        assert seq == 4, "the next game rates after every earlier one"
        assert (await store.rebuild_ratings(replay))[0] == 4
        assert await store.rebuild_ratings(replay) == (4, True)
    finally:
        await store.close()
