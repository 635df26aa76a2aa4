"""The writes a league's step and a daily attempt are made of, on every store: each is
one transaction that is made once however often it is run, and a league's is refused,
writing nothing, once its writer holds the league's lease no more (a process that stalled
past it, as another took the league over)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import Drawn, Fence, LeagueRow, LeaseLost, Opening, StaleGame, Store
from tests.conftest import Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
LEASE = timedelta(minutes=5)


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def store(open_store, clock):
    return await open_store(clock=clock)


async def a_league(store: Store) -> int:
    return await store.create_league(
        LeagueRow(
            guild_id=77,
            channel_id=4242,
            name="Cup",
            game_key="skybridge",
            format="round-robin",
            table_size=2,
            rounds=None,
            points=(2, 0),
            bye_points=1,
            round_hours=168.0,
            move_hours=48.0,
            seed=7,
            created_by=1,
        )
    )


DRAW = (Drawn("played", (1, 2)), Drawn("played", (3, 4)), Drawn("bye", (5,), (1,)))


async def held(store: Store, holder: str) -> Fence:
    until = store.clock() + LEASE
    assert await store.take_lease("league:1", holder, until)
    return Fence("league:1", holder, until)


async def opened(store: Store, match: int, channel: int, fence: Fence | None = None) -> int:
    """The match's game, opened whole: seated, started and linked."""
    return await store.create_game(
        guild_id=77,
        channel_id=channel,
        game_key="skybridge",
        options={},
        seed=1,
        creator_id=1,
        creator_name="Ada",
        others=[(2, "Bob", None)],
        opening=Opening('{"s": 0}', (0,), match=match, fence=fence),
    )


async def live_games(store: Store) -> list[int]:
    rows = await store.rows("SELECT id FROM games WHERE status IN ('lobby', 'active')")
    return sorted(r[0] for r in rows)


async def test_a_round_is_drawn_once_and_each_match_opened_once(store):
    league_id = await a_league(store)
    fence = await held(store, "a")
    assert await store.draw_round(league_id, 1, DRAW, fence, rounds=5)
    assert not await store.draw_round(league_id, 1, DRAW, fence), "drawn already"
    assert not await store.draw_round(league_id, 2, DRAW, fence, rounds=5), "started already"
    matches = await store.matches(league_id)
    assert [(m.round, m.kind, m.players, m.settled) for m in matches] == [
        (1, "played", (1, 2), False),
        (1, "played", (3, 4), False),
        (1, "bye", (5,), True),
    ]
    league = await store.league(77, "Cup")
    assert (league.status, league.rounds) == ("running", 5)
    first = matches[0]
    game_id = await opened(store, first.id, 9001, fence)
    with pytest.raises(StaleGame):  # a second try, in a thread of its own: nothing opens
        await opened(store, first.id, 9002, fence)
    assert await live_games(store) == [game_id]
    (linked, *_rest) = await store.matches(league_id)
    assert (linked.game_id, linked.game_status, linked.post_pending) == (game_id, "active", True)
    assert await store.league_match_of(game_id) == first.id
    assert [s.user_id for s in await store.seats(game_id)] == [1, 2]
    assert await store.match_posted(first.id) and not await store.match_posted(first.id)
    assert await store.open_round(league_id, 1, "2026-11-09T12:00:00.000000+00:00", fence)
    assert not await store.open_round(league_id, 1, "2026-11-10T12:00:00.000000+00:00", fence)
    league = await store.league(77, "Cup")
    assert (league.round, league.news_pending) == (1, True)
    assert league.round_deadline.startswith("2026-11-09")
    assert await store.news_posted(league_id) and not await store.news_posted(league_id)


async def test_a_lost_lease_refuses_every_write_of_the_step_and_nothing_is_written(store, clock):
    league_id = await a_league(store)
    stale = await held(store, "a")
    assert await store.draw_round(league_id, 1, DRAW, stale, rounds=5)
    clock.at(minutes=6)  # a stalled past its lease; b takes the league over
    current = await held(store, "b")
    (first, second, _bye) = await store.matches(league_id)
    with pytest.raises(LeaseLost):
        await opened(store, first.id, 9001, stale)
    with pytest.raises(LeaseLost):
        await store.open_round(league_id, 1, "2026-11-09T12:00:00.000000+00:00", stale)
    with pytest.raises(LeaseLost):
        await store.finish_league(league_id, stale)
    assert await live_games(store) == [], "no game opened"
    league = await store.league(77, "Cup")
    assert (league.status, league.round, league.news_pending) == ("running", 0, False)
    await opened(store, second.id, 9002, current)
    await store.drop_lease("league:1", "b")  # b is done: a, its lease gone, still may not
    with pytest.raises(LeaseLost):
        await opened(store, first.id, 9001, stale)
    assert len(await live_games(store)) == 1


async def test_a_daily_attempt_is_recorded_with_its_game_and_once(store):
    async def attempt(channel: int) -> int:
        return await store.create_game(
            guild_id=None,
            channel_id=channel,
            game_key="seven-bridges",
            options={},
            seed=1,
            creator_id=1,
            creator_name="Ada",
            rated=False,
            opening=Opening('{"s": 0}', (0,), entry=("2026-11-02", 77)),
        )

    game_id = await attempt(555)
    (entry,) = await store.entries(user_id=1)
    assert (entry.day, entry.game_id, entry.guild_id, entry.status) == (
        "2026-11-02",
        game_id,
        77,
        "playing",
    )
    assert entry.game_status == "active"
    with pytest.raises(StaleGame):  # the same day again, elsewhere: neither game nor entry
        await attempt(556)
    assert await live_games(store) == [game_id]
    assert len(await store.entries(user_id=1)) == 1
