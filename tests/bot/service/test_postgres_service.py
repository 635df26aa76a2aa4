"""The real service on PostgreSQL, end to end: every game to its end, undo, a deadline the
scheduler plays, a daily attempt, a league season and a ratings rebuild.

Each scenario runs twice, on a SQLite file and on a PostgreSQL database, with the same
seeds and the same clock, and what players would see must come out the same: the store
is an implementation detail, never a difference in play."""

from __future__ import annotations

import itertools
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest

import engine
from bot.domain.clocks import Clocks
from bot.domain.ratings import replay
from bot.service import Service
from bot.store import Store, open_store
from bot.tools.selfplay import play_random
from tests.bot.service.test_daily import dm, play_out
from tests.bot.service.test_league_service import HOME, MOD, PLAYERS, finish, games_in
from tests.conftest import ADA, BOB, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
Scenario = Callable[[Service, Clock], Awaitable[object]]


@pytest.fixture
def on_both(tmp_path, postgres_url, monkeypatch):
    """Run a scenario on SQLite, then on PostgreSQL, each on a fresh database, a clock
    standing at :data:`T0` and games seeded 1, 2, 3...; returns both outcomes."""
    monkeypatch.setattr("bot.service.leagues.signup.secrets.randbits", lambda bits: 2026)

    async def run(scenario: Scenario) -> tuple[object, object]:
        outcomes = []
        for where in (tmp_path / "same.db", postgres_url):
            clock = Clock(T0)
            store = await open_store(where, clock=clock)
            try:
                service = Service(store, images=False, seed=itertools.count(1).__next__)
                outcomes.append(await scenario(service, clock))
            finally:
                await store.close()
        return outcomes[0], outcomes[1]

    return run


async def _log(store: Store, game_id: int) -> list[tuple]:
    return [(m.seq, m.seat, m.user_id, m.kind, m.action) for m in await store.moves(game_id)]


@pytest.mark.parametrize("key", sorted(engine.GAMES))
async def test_a_random_game_plays_to_the_end_alike_on_both_stores(on_both, key):
    rules = engine.get(key)
    players = max(2, rules.info.min_players)

    async def scenario(service: Service, clock: Clock) -> tuple:
        played = await play_random(service, TABLE, key, players, random.Random(7))
        game = await service.store.latest_game(TABLE.channel_id)
        ratings = await service.store.ratings(TABLE.guild_id, key)
        return game.status, played.final.text, await _log(service.store, game.id), ratings

    sqlite, postgres = await on_both(scenario)
    assert postgres == sqlite
    status, _text, log, ratings = postgres
    assert status == "finished" and len(log) > players
    assert len(ratings) == players and all(r.games == 1 for _u, _n, r in ratings)


async def test_undo_takes_the_move_back_alike(on_both):
    async def scenario(service: Service, clock: Clock) -> tuple:
        await service.lobby.create(TABLE, ADA, "skybridge")
        await service.lobby.join(TABLE, BOB)
        started = await service.lobby.start(TABLE, ADA)
        first = ADA if started.mentions == (ADA.user_id,) else BOB
        before = await service.play.legal_moves(TABLE, first)
        await service.play.move(TABLE, first, before[3])
        undone = await service.undo.ask(TABLE, first)
        game = await service.store.live_game(TABLE.channel_id)
        after = await service.play.legal_moves(TABLE, first)
        return undone.text, await _log(service.store, game.id), after == before

    sqlite, postgres = await on_both(scenario)
    assert postgres == sqlite
    _text, log, same_moves = postgres
    assert [kind for _s, _seat, _u, kind, _a in log] == ["move", "undo"] and same_moves


async def test_a_deadline_fires_once_through_the_scheduler(on_both):
    async def scenario(service: Service, clock: Clock) -> tuple:
        scheduler = service.timers
        await service.lobby.create(
            TABLE, ADA, "skybridge", clocks=Clocks(move_hours=48, policy="random")
        )
        await service.lobby.join(TABLE, BOB)
        await service.lobby.start(TABLE, ADA)
        clock.at(hours=36)
        warned = [n.text for n in await scheduler.deliveries()] + [
            p.reply.text for p in await scheduler.tick()
        ]
        warned += [n.text for n in await scheduler.deliveries()]
        clock.at(hours=48)
        fired = [p.reply.text for p in await scheduler.tick()]
        again = await scheduler.tick()
        game = await service.store.live_game(TABLE.channel_id)
        return warned, fired, again, await _log(service.store, game.id)

    sqlite, postgres = await on_both(scenario)
    assert postgres == sqlite
    warned, fired, again, log = postgres
    assert any("Your move in **Skybridge #1** is due" in text for text in warned)
    assert len(fired) == 1 and "ran out of time" in fired[0] and again == []
    assert len(log) == 1


async def test_a_daily_attempt_is_settled_and_shared_once(on_both):
    """Each database makes its own secret, so the day's dice differ: what must match is
    how the attempt is kept, settled and shared."""

    async def scenario(service: Service, clock: Clock) -> tuple:
        daily = service.daily
        await daily.setup(HOME, MOD)
        await daily.play(dm(ADA), ADA, HOME.guild_id)
        await play_out(service, dm(ADA), ADA, random.Random(1))
        (shared,) = await daily.settle()
        again = await daily.settle()
        (entry,) = await service.store.entries(user_id=ADA.user_id)
        board = (await daily.leaderboard()).text
        return (
            shared.table,
            shared.reply.text.startswith("Bridgekeeper daily 2026-11-02 (Monday): Ada "),
            again,
            entry.status in ("won", "tied", "lost") and entry.total is not None,
            f"1. Ada {entry.margin:+d}" in board,
            await service.store.entries_to_share(),
        )

    sqlite, postgres = await on_both(scenario)
    assert postgres == sqlite == (HOME, True, [], True, True, [])


async def test_a_league_season_and_a_ratings_rebuild(on_both):
    async def scenario(service: Service, clock: Clock) -> tuple:
        await service.leagues.create(HOME, MOD, "Cup", "skybridge", "round-robin")
        for p in PLAYERS[:4]:
            await service.leagues.join(HOME.guild_id, p, "Cup")
        posted = await service.league_rounds.start(HOME.guild_id, MOD, "Cup")
        rng = random.Random(5)
        texts = []
        while posted:
            texts += [p.reply.text for p in posted]
            for table in games_in(posted):
                await finish(service, table, rng)
            posted = await service.league_rounds.tick()
        ratings = await service.store.ratings(HOME.guild_id, "skybridge")
        rebuilt = await service.store.rebuild_ratings(replay)
        return texts, ratings, rebuilt, await service.store.ratings(HOME.guild_id, "skybridge")

    sqlite, postgres = await on_both(scenario)
    assert postgres == sqlite
    texts, ratings, rebuilt, after = postgres
    assert "Cup is over" in texts[-1]
    assert rebuilt == (6, True), "four players, three rounds of two games, rebuilt exactly"
    assert after == ratings and all(r.games == 3 for _u, _n, r in ratings)
