"""Ratings: updated when a rated game ends, per server and game, rebuilt bit for bit."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from bot.ratings import PROVISIONAL_GAMES, Rating, rate
from bot.selfplay import play_random, robots
from bot.service import Refused, Service, Table
from bot.store import Store

from conftest import ADA, BOB, TABLE


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
    reply = await service.leaderboard(TABLE.guild_id, "skybridge")
    assert reply.text.splitlines()[1].startswith(f"1. {winner.name} — ")
    assert "?" in reply.text, "one game: provisional"
    mine = await service.rating(TABLE.guild_id, robots(3)[0], None)
    assert mine.private and "Skybridge: **" in mine.text and "of 3" in mine.text


async def test_ratings_are_per_server_and_casual_games_leave_them_alone(service):
    await finish(service, TABLE, 2, 1)
    await finish(service, Table(channel_id=77, guild_id=8888), 2, 2)
    assert len(await service.store.ratings(TABLE.guild_id, "skybridge")) == 2
    assert len(await service.store.ratings(8888, "skybridge")) == 2
    before = await service.store.ratings(TABLE.guild_id, "skybridge")
    await service.create(TABLE, ADA, "skybridge", rated=False)
    await service.join(TABLE, BOB)
    reply = await service.start(TABLE, ADA)
    while reply.playable:
        who = ADA if reply.awaiting == (ADA.user_id,) else BOB
        reply = await service.move(TABLE, who, (await service.legal_moves(TABLE, who))[0])
    assert await service.store.ratings(TABLE.guild_id, "skybridge") == before
    with pytest.raises(Refused, match="Ada has no rated games here yet"):
        await service.rating(TABLE.guild_id, ADA, "skybridge")
    with pytest.raises(Refused, match="No rated Bridge Wars games"):
        await service.leaderboard(TABLE.guild_id, "bridge-wars")


async def test_rebuild_from_stored_results_gives_exactly_the_stored_numbers(tmp_path):
    store = await Store.open(tmp_path / "r.db")
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

    store = await Store.open(tmp_path / "r.db")
    try:
        assert {g: await store.ratings(g, "skybridge") for g in (1, 2)} == stored
        async with store.transaction() as db:  # tamper, and the rebuild says so and repairs
            await db.execute("UPDATE ratings SET mu = mu + 1 WHERE rowid = 1")
        games, same = await store.rebuild_ratings()
        assert (games, same) == (12, False)
        assert {g: await store.ratings(g, "skybridge") for g in (1, 2)} == stored
    finally:
        await store.close()
