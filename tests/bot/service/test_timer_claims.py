"""Timers shared by several processes on one database: each due wait is claimed by one
scheduler, whatever is due fires once, and a scheduler that dies holding claims loses
nothing: its claims run out and another scheduler does the work. Run on every store (on
SQLite, two stores on one file stand for what would be two processes on PostgreSQL)."""

from __future__ import annotations

import asyncio
import os
import signal
from datetime import UTC, datetime

import pytest

from bot.domain.clocks import Clocks
from bot.processes.drawing import drawers
from bot.service import LEASE, Caller, Service
from bot.service.minute import MinutePass
from bot.service.play import ANNOUNCE_AFTER
from bot.service.timers import BATCH, Posted
from bot.store import Notice, Store
from bot.store.shared.notices import CLAIM_LEASE
from tests.conftest import ADA, BOB, Clock, Table

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
GAMES = 6


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def processes(open_store, clock):
    """Two processes' services, each with its own store on the same database."""
    stores = [await open_store(clock=clock), await open_store(clock=clock)]
    return [Service(s, images=False, seed=lambda: 12345) for s in stores]


async def open_games(service: Service, count: int = GAMES) -> list[Table]:
    """Games on a 1-hour clock, warned 15 minutes before, played for at the hour."""
    tables = [Table(channel_id=7000 + n, guild_id=9001) for n in range(count)]
    for table in tables:
        await service.lobby.create(table, ADA, "skybridge", clocks=Clocks(move_hours=1))
        await service.lobby.join(table, BOB)
        await service.lobby.start(table, ADA)
    return tables


async def rows(store: Store, sql: str) -> list[tuple]:
    """Parameterless SQL both dialects read alike, on either store."""
    return [tuple(r) for r in await store.rows(sql)]


async def test_two_schedulers_ticking_at_once_do_each_timer_once(processes, clock):
    one, two = processes
    await open_games(one)
    clock.at(minutes=46)  # every game's warning is due
    await asyncio.gather(one.timers.tick(), two.timers.tick())
    warnings = await rows(one.store, "SELECT game_id, user_id FROM outbox WHERE kind = 'warning'")
    assert len(warnings) == len(set(warnings)) == GAMES
    clock.at(minutes=61)  # every deadline
    first, second = await asyncio.gather(one.timers.tick(), two.timers.tick())
    assert len(first) + len(second) == GAMES, "each deadline played once, by one of them"
    played = await rows(one.store, "SELECT game_id FROM moves WHERE seq > 0 ORDER BY game_id")
    assert len(played) == GAMES and len(set(played)) == GAMES


async def test_a_scheduler_that_dies_holding_claims_loses_nothing(processes, clock):
    one, two = processes
    await open_games(one)
    clock.at(minutes=46)
    # the first process claims every due warning, then is killed before sending any
    dead = await one.store.claim_due_waits(clock(), clock() + LEASE, 100)
    assert len(dead) == GAMES
    await two.timers.tick()
    assert await rows(two.store, "SELECT id FROM outbox") == [], "claims hold meanwhile"
    clock.at(minutes=46, seconds=LEASE.total_seconds())
    await two.timers.tick()
    warned = await rows(two.store, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert len(warned) == len(set(warned)) == GAMES, "once the claims ran out, all were sent"
    clock.at(minutes=61)
    posted = await two.timers.tick()
    assert len(posted) == GAMES and all("ran out of time" in p.reply.text for p in posted)
    assert await one.timers.tick() == [] and await two.timers.tick() == [], "each done once"
    assert len(await rows(one.store, "SELECT id FROM outbox WHERE kind = 'warning'")) == GAMES


async def test_a_scheduler_claims_a_burst_in_batches_and_does_all_of_it(open_store, clock):
    store = await open_store(clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    scheduler = service.timers
    tables = [Table(channel_id=7100 + n, guild_id=9001) for n in range(30)]
    for table in tables:
        await service.lobby.create(table, ADA, "skybridge", clocks=Clocks(move_hours=1))
        await service.lobby.join(table, BOB)
        await service.lobby.start(table, ADA)
    clock.at(hours=2)  # the bot was down: 30 missed deadlines, more than a batch
    assert await scheduler.tick() == [], "a deadline missed while down is warned first"
    warned = await rows(store, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert len(warned) == len(set(warned)) == len(tables) > BATCH, "all in one tick"
    clock.at(hours=3)
    posted = await scheduler.tick()
    assert sorted(p.table.channel_id for p in posted) == [t.channel_id for t in tables]


def minute(service: Service) -> MinutePass:
    """The whole minute's pass a process runs, over its ``service``."""
    return MinutePass(service.timers, service.league_rounds, service.daily)


async def sink(_item: object) -> bool:
    """Posts and notices that go nowhere: the test looks at the database instead."""
    return True


class Killed(BaseException):
    """The process dies: nothing after this point of the tick happens."""


async def test_a_move_stored_by_a_process_that_died_before_posting_it_is_posted_later(
    processes, clock
):
    one, two = processes
    await open_games(one, 1)
    clock.at(minutes=46)
    await minute(one).run(sink, sink)  # the warning, sent
    clock.at(minutes=61)
    lost = []

    async def dies_posting(item: Posted) -> None:
        lost.append(item.reply)
        raise Killed

    with pytest.raises(Killed):
        await one.timers.tick(dies_posting)
    (unposted,) = lost
    assert "ran out of time" in unposted.text and unposted.playable

    async def nowhere(item: Posted) -> None:
        raise AssertionError(f"posted twice: {item}")

    assert await minute(two).run(nowhere, nowhere) == 0, "nothing due before its time"
    clock.at(minutes=61 + ANNOUNCE_AFTER.total_seconds() / 60)
    delivered = []

    async def send(notice: Notice) -> None:
        reply = await two.play.announcement(notice.game_id, notice.seq, notice.text)
        delivered.append(reply)
        await two.timers.sent(notice)

    await minute(two).run(nowhere, send)
    (rebuilt,) = delivered
    assert rebuilt.text == unposted.text, "the post it would have had"
    assert (rebuilt.mentions, rebuilt.version, rebuilt.playable) == (
        unposted.mentions,
        unposted.version,
        True,
    )
    assert await minute(two).run(nowhere, send) == 0 and len(delivered) == 1


async def test_a_move_posted_by_its_process_is_never_posted_again(processes, clock):
    one, two = processes
    await open_games(one)
    clock.at(minutes=46)
    await minute(one).run(sink, sink)
    clock.at(minutes=61)
    posted = []

    async def post(item: Posted) -> bool:
        posted.append(item)
        return True

    await minute(one).run(post, sink)
    assert len(posted) == GAMES
    clock.at(hours=2)
    sent = []

    async def send(notice: Notice) -> None:
        sent.append(notice.kind)
        await two.timers.sent(notice)

    await minute(two).run(post, send)
    assert "board" not in sent and len(posted) == GAMES


async def test_the_daily_post_of_a_process_that_died_before_posting_it_is_not_lost(
    processes, clock
):
    one, two = (s.daily for s in processes)
    await one.setup(Table(channel_id=7300, guild_id=9001), Caller(1, "Mod", manager=True))

    async def dies_posting(_item: Posted) -> None:
        raise Killed

    with pytest.raises(Killed):
        await one.rollover(dies_posting)
    posted: list[Posted] = []

    async def post(item: Posted) -> bool:
        posted.append(item)
        return True

    await two.rollover(post)
    assert posted == [], "the dying process's lease keeps the others off meanwhile"
    clock.at(seconds=LEASE.total_seconds())
    await two.rollover(post)
    (made,) = posted
    assert made.table.channel_id == 7300 and "Daily challenge" in made.reply.text
    await two.rollover(post)
    await one.rollover(post)
    assert len(posted) == 1, "posted once, whoever holds the lease next"


async def test_a_timer_move_discord_would_not_take_is_posted_by_its_stand_in(processes, clock):
    """Discord's servers fail the post of a deadline move: the move stands, and its
    stand-in posts the board a few minutes later, once."""
    one, two = processes
    await open_games(one, 1)
    clock.at(minutes=46)
    await minute(one).run(sink, sink)
    clock.at(minutes=61)
    tried: list[Posted] = []

    async def failing(item: Posted) -> bool:
        tried.append(item)
        return False  # not posted: may yet be

    await minute(one).run(failing, sink)
    assert len(tried) == 1 and "ran out of time" in tried[0].reply.text
    clock.at(minutes=61 + ANNOUNCE_AFTER.total_seconds() / 60)
    boards = []

    async def send(notice: Notice) -> bool:
        if notice.kind == "board":
            boards.append(await two.timers.board(notice))
        await two.timers.sent(notice)
        return True

    await minute(two).run(sink, send)
    (board,) = boards
    assert board.reply.text == tried[0].reply.text


def sent_by(service: Service, name: str, sent: list[tuple[str, int]]):
    """A process's way of sending a notice, for the test: noted as ``(name, id)``, and
    marked sent as the bot marks it."""

    async def send(notice: Notice) -> None:
        sent.append((name, notice.id))
        await service.timers.sent(notice)

    return send


async def test_notices_a_process_stalled_past_its_claim_are_sent_once(processes, clock):
    """One process claims the due notices, then stalls (frozen) for longer than its claim
    lasts; another takes them over and sends them; thawed, the first sends none."""
    one, two = processes
    await open_games(one)
    clock.at(minutes=46)
    await one.timers.tick()  # every game's warning is queued
    held = await one.timers.deliveries()  # claimed, and then the process stalls
    assert len(held) == GAMES
    clock.at(minutes=46 + CLAIM_LEASE.total_seconds() / 60 + 1)
    sent: list[tuple[str, int]] = []
    assert await minute(two).run(sink, sent_by(two, "two", sent)) == GAMES
    assert await minute(one).send_claimed(held, sent_by(one, "one", sent)) == 0, "thawed"
    assert sorted(sent) == sorted(("two", n.id) for n in held), "each sent once, by two"


async def test_a_stalled_process_whose_notices_nobody_took_over_still_sends_them(processes, clock):
    one, two = processes
    await open_games(one, 2)
    clock.at(minutes=46)
    await one.timers.tick()
    held = await one.timers.deliveries()
    clock.at(minutes=46 + CLAIM_LEASE.total_seconds() / 60 + 1)  # its claims ran out
    sent: list[tuple[str, int]] = []
    assert await minute(one).send_claimed(held, sent_by(one, "one", sent)) == 2
    assert await minute(two).run(sink, sent_by(two, "two", sent)) == 0, "sent, so not again"
    assert sorted(sent) == sorted(("one", n.id) for n in held)


async def test_a_timer_move_whose_process_stalled_before_posting_it_is_posted_once(
    open_store, clock
):
    """The process that made a deadline move freezes while its board is drawn (its
    drawing worker stopped with SIGSTOP), past the move's stand-in's due time; another
    process posts the stand-in; thawed, the first posts nothing."""
    stores = [await open_store(clock=clock), await open_store(clock=clock)]
    with drawers(1) as workers:
        one = Service(stores[0], drawers=workers, seed=lambda: 12345)
        two = Service(stores[1], images=False, seed=lambda: 12345)
        (table,) = await open_games(one, 1)
        clock.at(minutes=46)
        await minute(one).run(sink, sink)  # the warning
        clock.at(minutes=61)
        posted: list[tuple[str, int | None]] = []

        def post_by(name: str):
            async def post(item: Posted) -> bool:
                posted.append((name, item.reply.seq))
                return True

            return post

        async def send(notice: Notice) -> None:
            if notice.kind == "board":
                await post_by("two")(await two.timers.board(notice))
            await two.timers.sent(notice)

        (worker,) = workers.pids
        os.kill(worker, signal.SIGSTOP)
        try:
            stalled = asyncio.create_task(minute(one).run(post_by("one"), sink))
            game = await stores[1].latest_game(table.channel_id)
            async with asyncio.timeout(30):
                while not await stores[1].moves(game.id):  # until the move is stored
                    await asyncio.sleep(0.01)
            clock.at(minutes=61 + ANNOUNCE_AFTER.total_seconds() / 60 + 1)
            await minute(two).run(post_by("two"), send)
        finally:
            os.kill(worker, signal.SIGCONT)
        await stalled
        assert posted == [("two", 1)], "posted once, by the process that took it over"
