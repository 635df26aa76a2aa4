"""Leagues stepped by several processes sharing one database (on every store; on SQLite
two stores on one file stand for the processes PostgreSQL allows): each league moves on
under its lease, so a round is drawn, opened and announced once, whoever ticks."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime

import pytest

from bot.service import LEASE, Caller, Refused, Service, Table
from tests.conftest import Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
HOME = Table(channel_id=4242, guild_id=77)
MOD = Caller(1, "Mod", manager=True)
PLAYERS = [Caller(100 + i, name) for i, name in enumerate(["Ada", "Bob", "Cy", "Dee"])]


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def organisers(open_store, clock):
    """Two organisers, as two processes would have them: each its own store and service."""
    made = []
    for _ in range(2):
        store = await open_store(clock=clock)
        made.append(Service(store, images=False, seed=itertools.count(1).__next__))
    return made


async def signed_up(organiser: Service, starts: str | None = None) -> None:
    await organiser.leagues.create(HOME, MOD, "Cup", "skybridge", "round-robin", starts=starts)
    for player in PLAYERS:
        await organiser.leagues.join(HOME.guild_id, player, "Cup")


async def test_a_league_due_to_start_is_started_once_by_two_ticking_processes(organisers, clock):
    one, two = organisers
    await signed_up(one, starts="1h")
    clock.at(hours=1, minutes=1)
    first, second = await asyncio.gather(one.league_rounds.tick(), two.league_rounds.tick())
    announced = [p for p in first + second if "round 1 of 3" in p.reply.text]
    assert len(announced) == 1, "one process opened round 1"
    games = [p for p in first + second if p.reply.playable]
    assert len(games) == 2, "two tables of two, opened once"
    matches = await one.store.matches((await one.store.league(77, "Cup")).id)
    assert len(matches) == 2 and all(m.game_id is not None for m in matches)
    assert await one.league_rounds.tick() == [] and await two.league_rounds.tick() == []


async def test_a_process_that_died_stepping_a_league_leaves_it_to_the_next(organisers, clock):
    one, two = organisers
    await signed_up(one, starts="1h")
    league = await one.store.league(77, "Cup")
    clock.at(hours=1, minutes=1)
    assert await one.league_rounds.book.hold(league.id), (
        "the first process takes the league, then dies"
    )
    assert await two.league_rounds.tick() == [], "the lease keeps the others off meanwhile"
    with pytest.raises(Refused, match="moving on right now"):
        await two.league_rounds.start(HOME.guild_id, MOD, "Cup")
    clock.at(hours=1, minutes=1, seconds=LEASE.total_seconds())
    posted = await two.league_rounds.tick()
    assert sum("round 1 of 3" in p.reply.text for p in posted) == 1


async def test_a_start_by_hand_and_the_minutes_tick_in_one_process_open_the_round_once(
    organisers, clock
):
    """A lease is a process's own: within one process, the league's lock keeps a
    /league start and the tick that finds the league due from both opening round 1."""
    one, _two = organisers
    await signed_up(one, starts="1h")
    clock.at(hours=1, minutes=1)
    by_hand, ticked = await asyncio.gather(
        one.league_rounds.start(HOME.guild_id, MOD, "Cup"),
        one.league_rounds.tick(),
        return_exceptions=True,
    )
    posts = [p for p in (by_hand, ticked) if isinstance(p, list)]
    refused = [p for p in (by_hand, ticked) if isinstance(p, Refused)]
    assert sum("round 1 of 3" in p.reply.text for batch in posts for p in batch) == 1
    assert len(posts) + len(refused) == 2
    matches = await one.store.matches((await one.store.league(77, "Cup")).id)
    assert len(matches) == 2, "one draw"


async def test_a_process_frozen_past_its_lease_cannot_commit_its_step(organisers, clock):
    """One process stalls inside opening round 1 (frozen while Discord makes a match's
    thread) until its lease has run out and the other process has opened the whole round.
    Woken, its next commit is refused: three matches, three games, nothing opened twice."""
    one, two = organisers
    await signed_up(one, starts="1h")
    for player in (Caller(200, "Eve"), Caller(201, "Fay")):
        await one.leagues.join(HOME.guild_id, player, "Cup")
    frozen, woken = asyncio.Event(), asyncio.Event()

    async def thread_then_freeze(league, match_id: int, title: str) -> Table:
        if match_id == 2:  # the second match's thread: the process stops here
            frozen.set()
            await woken.wait()
        return Table(channel_id=20_000_000 + match_id, guild_id=league.guild_id)

    one.league_rounds.open_table = thread_then_freeze
    clock.at(hours=1, minutes=1)
    stalled = asyncio.create_task(one.league_rounds.tick())
    await frozen.wait()
    clock.at(hours=1, minutes=2, seconds=LEASE.total_seconds())
    taken_over = await two.league_rounds.tick()
    woken.set()
    late = await stalled
    league = await one.store.league(77, "Cup")
    matches = await one.store.matches(league.id)
    live = await one.store.rows("SELECT id FROM games WHERE status IN ('lobby', 'active')")
    assert sorted(r[0] for r in live) == sorted(m.game_id for m in matches), "no orphan game"
    assert len(matches) == 3 and len({m.game_id for m in matches}) == 3
    assert sum("round 1 of 5" in p.reply.text for p in taken_over) == 1
    assert [p for p in late if p.reply.playable] == [], "the stale process posts no game"


async def test_a_round_post_discord_refused_is_posted_by_the_next_pass_and_none_twice(
    organisers, clock
):
    """Round 1 opens while Discord refuses the first match's board: the pass posts the
    rest and the next pass (here another process's) posts only that board."""
    one, two = organisers
    await signed_up(one, starts="1h")
    clock.at(hours=1, minutes=1)
    made: list[str] = []
    refused_once: list[int] = []

    async def post(item) -> bool:
        if item.reply.playable and not refused_once:
            refused_once.append(item.reply.game_id)
            return False  # Discord's servers failed: to be tried again
        made.append(item.reply.text.splitlines()[0])
        return True

    assert await one.league_rounds.tick(post) == []
    clock.at(hours=1, minutes=2, seconds=LEASE.total_seconds())
    assert await two.league_rounds.tick(post) == []
    assert await one.league_rounds.tick(post) == [] and await two.league_rounds.tick(post) == []
    boards = [line for line in made if "your league match" in line]
    assert sum("round 1 of 3" in line for line in made) == 1, made
    assert len(boards) == 2 and len(set(boards)) == 2, "each board once, the refused one too"
