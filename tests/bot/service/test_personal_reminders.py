"""Reminders as each player asks for them (``/settings``), through the real service and
scheduler with the clock in the test's hands, on SQLite and on PostgreSQL: a cadence of
their own, a daily digest at an hour of their own time zone (held by quiet hours, once,
across processes and restarts), and the "you're next" heads-up, once a turn."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.domain.clocks import Clocks
from bot.service import Caller, Refused, Service, Table
from bot.service.marks import plain
from bot.service.timers import Timers
from bot.store import Notice, Settings
from bot.store import open_store as open_target
from bot.store.backends import POSTGRES, backend
from tests.conftest import ADA, BOB, CY, DEE, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC; Berlin is UTC+1
TUESDAY_8_BERLIN = datetime(2026, 11, 3, 7, 0, tzinfo=UTC)
OTHER = Table(channel_id=5002, guild_id=9001)
THIRD = Table(channel_id=5003, guild_id=9001)


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def where(database, tmp_path):
    """The database each test runs on, once a SQLite file and once a PostgreSQL one."""
    return database if backend(database) is POSTGRES else tmp_path / "reminders.db"


@pytest.fixture
async def world(where, clock):
    store = await open_target(where, clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    yield service, service.timers
    await store.close()


async def game(service: Service, table: Table, players, clocks: Clocks | None = None):
    """A Skybridge game at ``table`` waiting for ``players[0]``: its first move is played
    by whoever the draw picked, if that is someone else."""
    await service.lobby.create(table, players[0], "skybridge", clocks=clocks)
    for p in players[1:]:
        await service.lobby.join(table, p)
    reply = await service.lobby.start(table, players[0])
    (awaited,) = reply.awaiting
    if awaited != players[0].user_id:
        mover = next(p for p in players if p.user_id == awaited)
        await service.play.move(table, mover, (await service.play.legal_moves(table, mover))[0])


async def sent(scheduler: Timers) -> list[Notice]:
    """The notices due now, delivered (marked sent)."""
    notices = await scheduler.deliveries()
    for notice in notices:
        await scheduler.sent(notice)
    return notices


async def reminders_at(scheduler: Timers, clock: Clock, hours: float) -> list[int]:
    """Who is reminded by a tick ``hours`` after the start."""
    clock.at(hours=hours)
    await scheduler.tick()
    return [n.user_id for n in await sent(scheduler) if n.kind == "reminder"]


# -- the settings ------------------------------------------------------------------------


async def test_reminder_settings_are_checked_stored_and_shown(world):
    service, _ = world
    shown = await service.postal.settings(ADA)
    assert "Reminders: each game's own (`remind_every`)" in shown.text
    assert '"you\'re next" heads-up: off.' in shown.text
    for typed, why in (
        ("30m", "reminders must be between 1 hour and 14 days; `30m` is not."),
        ("15d", "reminders must be between 1 hour and 14 days; `15d` is not."),
        ("0", "reminders must be between 1 hour and 14 days; `0` is not."),
        ("weekly", "reminders: `weekly` is not a choice; write a duration like `12h`"),
        ("nan", "`nan` is not a choice"),
    ):
        with pytest.raises(Refused) as refused:
            await service.postal.settings(ADA, reminders=typed, heads_up=True)
        assert why in str(refused.value)
    with pytest.raises(Refused, match="digest_hour is the hour of your daily digest"):
        await service.postal.settings(ADA, digest_hour=8)
    with pytest.raises(Refused, match="ask for the digest with it"):
        await service.postal.settings(ADA, reminders="12h", digest_hour=8)
    with pytest.raises(Refused, match="digest_hour must be a whole number from 0 to 23"):
        await service.postal.settings(ADA, reminders="digest", digest_hour=24)
    with pytest.raises(Refused, match="heads_up is on or off"):
        await service.postal.settings(ADA, heads_up="yes")
    assert await service.store.settings(ADA.user_id) == Settings(), "refusals changed nothing"

    shown = await service.postal.settings(ADA, reminders="1d 12h", heads_up=True)
    assert "Reminders: every 36 hours (in every game)" in shown.text
    assert '"you\'re next" heads-up: on.' in shown.text
    assert await service.store.settings(ADA.user_id) == Settings(remind_hours=36, heads_up=True)

    shown = await service.postal.settings(ADA, reminders="DIGEST", timezone="Europe/Berlin")
    assert (
        "Reminders: one digest a day instead, at 8:00 Europe/Berlin, next 2026-11-03 07:00 UTC"
        in plain(shown.text)
    ), "8 o'clock unless asked otherwise, in the player's own time zone"
    shown = await service.postal.settings(ADA, digest_hour=6, quiet_start=22, quiet_end=7)
    assert (
        "at 6:00 Europe/Berlin (in your quiet hours: it comes at 7:00, when they end), "
        "next 2026-11-03 06:00 UTC" in plain(shown.text)
    )
    assert await service.store.settings(ADA.user_id) == Settings(
        timezone="Europe/Berlin", quiet_start=22, quiet_end=7, digest_hour=6, heads_up=True
    )
    await service.postal.settings(ADA, notify="off")
    shown = await service.postal.settings(ADA, reminders="game")
    assert "Reminders: each game's own" in shown.text
    assert "heads-up: on, but your turn notices are off, so it reaches you nowhere" in shown.text
    assert (await service.store.settings(ADA.user_id)).digest_hour is None


# -- a cadence of one's own ----------------------------------------------------------------


async def test_a_players_own_cadence_overrides_the_games_for_them_alone(world, clock):
    service, scheduler = world
    await game(service, TABLE, (ADA, BOB), Clocks(remind_hours=24, reminder_limit=3))
    await sent(scheduler)  # the turn notices
    await service.postal.settings(ADA, reminders="12h")  # during the wait: it moves its reminders
    assert await reminders_at(scheduler, clock, 11.9) == []
    assert await reminders_at(scheduler, clock, 12) == [ADA.user_id]
    assert await reminders_at(scheduler, clock, 12) == [], "once"
    assert await reminders_at(scheduler, clock, 24) == [ADA.user_id]
    assert await reminders_at(scheduler, clock, 36) == [ADA.user_id]
    assert await reminders_at(scheduler, clock, 48) == [], "the game's limit of 3 still holds"
    await service.play.move(TABLE, ADA, (await service.play.legal_moves(TABLE, ADA))[0])
    assert await reminders_at(scheduler, clock, 48 + 12) == [], "Bob keeps the game's 24 hours"
    assert await reminders_at(scheduler, clock, 48 + 24) == [BOB.user_id]


async def test_back_to_each_games_own_cadence(world, clock):
    service, scheduler = world
    await service.postal.settings(ADA, reminders="3d")
    await game(service, TABLE, (ADA, BOB), Clocks(remind_hours=24))
    assert await reminders_at(scheduler, clock, 24) == []
    await service.postal.settings(ADA, reminders="game")
    assert await reminders_at(scheduler, clock, 25) == [ADA.user_id], "the game's day is past"


# -- the daily digest ----------------------------------------------------------------------


async def test_a_digest_lists_every_game_waiting_at_the_players_hour_instead_of_reminders(
    world, clock
):
    service, scheduler = world
    await service.postal.settings(ADA, timezone="Europe/Berlin", reminders="digest", digest_hour=8)
    await game(service, TABLE, (ADA, BOB), Clocks(move_hours=48, remind_hours=12))
    await game(service, OTHER, (ADA, CY))  # no time per move
    await game(service, THIRD, (DEE, ADA))  # waits for Dee, not Ada
    await sent(scheduler)

    assert await reminders_at(scheduler, clock, 12) == [], "the digest replaces reminders"
    clock.now = TUESDAY_8_BERLIN - timedelta(minutes=1)
    await scheduler.tick()
    assert await sent(scheduler) == []
    clock.now = TUESDAY_8_BERLIN  # 08:00 in Berlin
    await scheduler.tick()
    await scheduler.tick()
    (digest,) = await sent(scheduler)
    assert (digest.user_id, digest.kind, digest.via) == (ADA.user_id, "digest", "dm")
    assert digest.game_id is None and digest.channel_id is None, "it belongs to no one game"
    assert plain(digest.text).splitlines() == [
        "📬 Your daily digest: 2 games wait for your move.",
        "• **Skybridge** in channel 5001 — waiting since 2026-11-02 12:00 UTC (19 hours), "
        "due 2026-11-04 12:00 UTC",
        "• **Skybridge** in channel 5002 — waiting since 2026-11-02 12:00 UTC (19 hours)",
    ]
    clock.at(hours=36)  # 12 hours before the deadline: the warning protects the player
    await scheduler.tick()
    (warning,) = [n for n in await sent(scheduler) if n.user_id == ADA.user_id]
    assert warning.kind == "warning" and "Your move in **Skybridge #1** is due" in warning.text
    clock.now = TUESDAY_8_BERLIN + timedelta(days=1)
    await scheduler.tick()
    assert [n.kind for n in await sent(scheduler) if n.user_id == ADA.user_id] == ["digest"]


async def test_no_digest_when_nothing_waits_or_on_vacation(world, clock):
    service, scheduler = world
    await service.postal.settings(BOB, reminders="digest", digest_hour=7)  # UTC
    await game(service, TABLE, (ADA, BOB))
    await sent(scheduler)
    clock.now = datetime(2026, 11, 3, 7, tzinfo=UTC)
    await scheduler.tick()
    assert await sent(scheduler) == [], "nothing waits for Bob"
    await service.play.move(TABLE, ADA, (await service.play.legal_moves(TABLE, ADA))[0])
    await sent(scheduler)
    await service.postal.vacation(BOB, 2)  # until Thursday 07:00
    clock.now = datetime(2026, 11, 4, 7, tzinfo=UTC)
    await scheduler.tick()
    assert await sent(scheduler) == [], "on vacation: no digest, as no reminder"
    clock.now = datetime(2026, 11, 5, 7, tzinfo=UTC)
    await scheduler.tick()
    (digest,) = await sent(scheduler)
    assert digest.user_id == BOB.user_id and "1 game waits" in digest.text


async def test_a_digest_hour_in_quiet_hours_comes_when_they_end(world, clock):
    service, scheduler = world
    await service.postal.settings(
        ADA, timezone="Europe/Berlin", quiet_start=6, quiet_end=9, reminders="digest",
        digest_hour=8, notify="dm",
    )  # fmt: skip
    await game(service, TABLE, (ADA, BOB))
    await sent(scheduler)
    for moment in (TUESDAY_8_BERLIN, TUESDAY_8_BERLIN + timedelta(minutes=59)):
        clock.now = moment  # 08:00 and 08:59 in Berlin: quiet
        await scheduler.tick()
        assert await sent(scheduler) == []
    clock.now = TUESDAY_8_BERLIN + timedelta(hours=1)  # 09:00: the quiet hours are over
    await scheduler.tick()
    (digest,) = await sent(scheduler)
    assert digest.kind == "digest"


async def test_a_digest_comes_once_from_two_passes_at_once_and_after_a_restart(where, clock):
    first = await open_target(where, clock=clock)
    second = await open_target(where, clock=clock)  # another process on the same database
    try:
        service = Service(first, images=False, seed=lambda: 12345)
        await service.postal.settings(ADA, reminders="digest", digest_hour=7)
        await game(service, TABLE, (ADA, BOB))
        one, two = service.timers, Service(second, images=False).timers
        await sent(one)
        clock.now = datetime(2026, 11, 3, 7, tzinfo=UTC)
        await asyncio.gather(one.tick(), two.tick())
        assert [n.kind for n in await sent(one)] == ["digest"]
    finally:
        await first.close()
        await second.close()
    again = await open_target(where, clock=clock)  # the bot starts again, the same minute
    try:
        scheduler = Service(again, images=False).timers
        await scheduler.tick()
        assert await sent(scheduler) == []
        clock.now = datetime(2026, 11, 6, 9, tzinfo=UTC)  # down for three days: one digest
        await scheduler.tick()
        await scheduler.tick()
        assert [n.kind for n in await sent(scheduler)] == ["digest"]
    finally:
        await again.close()


# -- the heads-up --------------------------------------------------------------------------


async def three_players(service: Service, heads_up: bool = True) -> list[Caller]:
    """A Skybridge game of Ada, Bob and Cy, who all asked for heads-ups by DM; the
    players in turn order from the first to play."""
    for p in (ADA, BOB, CY):
        await service.postal.settings(p, notify="dm", heads_up=heads_up)
    await service.lobby.create(TABLE, ADA, "skybridge")
    for p in (BOB, CY):
        await service.lobby.join(TABLE, p)
    reply = await service.lobby.start(TABLE, ADA)
    seats = (ADA, BOB, CY)
    first = next(i for i, p in enumerate(seats) if p.user_id in reply.awaiting)
    return [seats[(first + i) % 3] for i in range(3)]


async def heads_ups(scheduler: Timers) -> list[Notice]:
    return [n for n in await sent(scheduler) if n.kind == "heads_up"]


async def test_the_player_after_the_one_whose_turn_begins_hears_once_that_they_are_next(world):
    service, scheduler = world
    order = await three_players(service)
    (told,) = await heads_ups(scheduler)
    assert told.user_id == order[1].user_id, "at the start, the second to play"
    assert (told.via, told.game_id) == ("dm", 1)
    assert told.text == f"⏭️ You're next in **Skybridge #1**: {order[0].name} is playing now."
    for turn in range(6):
        mover, nxt, after = order[turn % 3], order[(turn + 1) % 3], order[(turn + 2) % 3]
        await service.play.move(TABLE, mover, (await service.play.legal_moves(TABLE, mover))[0])
        (told,) = await heads_ups(scheduler)
        assert told.user_id == after.user_id, f"{nxt.name} plays: {after.name} is next"
        assert f"{nxt.name} is playing now." in told.text


async def test_no_heads_up_unless_asked_nor_with_two_players(world):
    service, scheduler = world
    order = await three_players(service, heads_up=False)
    await service.play.move(TABLE, order[0], (await service.play.legal_moves(TABLE, order[0]))[0])
    assert await heads_ups(scheduler) == []
    await service.postal.settings(ADA, heads_up=True, notify="both")
    await service.postal.settings(BOB, heads_up=True)
    await service.lobby.create(OTHER, ADA, "skybridge")
    await service.lobby.join(OTHER, BOB)
    reply = await service.lobby.start(OTHER, ADA)
    for _ in range(4):  # with two, your turn always follows the other's, which you played
        (awaited,) = reply.awaiting
        mover = ADA if awaited == ADA.user_id else BOB
        reply = await service.play.move(
            OTHER, mover, (await service.play.legal_moves(OTHER, mover))[0]
        )
    assert await heads_ups(scheduler) == []


async def test_no_heads_up_for_or_after_an_ai_seat(world):
    """Ada, an AI, Bob, in that order: Ada is told when Bob begins; Bob never is (the AI
    before him plays within seconds), and the AI never is."""
    service, scheduler = world
    for p in (ADA, BOB):
        await service.postal.settings(p, notify="channel", heads_up=True)
    await service.lobby.create(TABLE, ADA, "skybridge", ai=1)
    await service.lobby.join(TABLE, BOB)
    assert [s.name for s in await service.store.seats(1)][::2] == ["Ada", "Bob"]
    reply = await service.lobby.start(TABLE, ADA)
    told, bob_began = [], 0
    for _ in range(9):
        ai = await service.seats.waiting_ai(TABLE)
        if ai is not None:
            reply = await service.seats.ai_move(TABLE, ai)
        else:
            mover = ADA if reply.awaiting == (ADA.user_id,) else BOB
            reply = await service.play.move(
                TABLE, mover, (await service.play.legal_moves(TABLE, mover))[0]
            )
        bob_began += reply.awaiting == (BOB.user_id,)
        told += await heads_ups(scheduler)
    assert bob_began >= 2
    assert [(n.user_id, n.via) for n in told] == [(ADA.user_id, "channel")] * bob_began


async def test_a_heads_up_held_for_quiet_hours_is_dropped_once_the_turn_has_come(world, clock):
    service, scheduler = world
    order = await three_players(service)
    await sent(scheduler)
    later = order[2]  # told when the second begins, in their quiet hours all day long
    await service.postal.settings(later, quiet_start=0, quiet_end=23)
    await service.play.move(TABLE, order[0], (await service.play.legal_moves(TABLE, order[0]))[0])
    assert await heads_ups(scheduler) == [], "held"
    await service.play.move(TABLE, order[1], (await service.play.legal_moves(TABLE, order[1]))[0])
    clock.at(hours=24)  # the quiet hours are over, but it is their turn already
    assert [n.kind for n in await sent(scheduler) if n.user_id == later.user_id] == ["turn"]


async def test_heads_ups_in_seven_cities_skip_reaction_windows_and_come_once_a_turn(world):
    """Random moves of a four-player game, reaction windows and all: each heads-up goes
    to a player not awaited, when a single other player begins a turn of their own, and
    nobody is told twice without a turn of their own in between."""
    service, scheduler = world
    players = (ADA, BOB, CY, DEE)
    for p in players:
        await service.postal.settings(p, notify="dm", heads_up=True)
    await service.lobby.create(TABLE, ADA, "seven-cities")
    for p in players[1:]:
        await service.lobby.join(TABLE, p)
    by_id = {p.user_id: p for p in players}
    users = [s.user_id for s in await service.store.seats(1)]
    rules, rng = engine.get("seven-cities"), random.Random(11)
    reply = await service.lobby.start(TABLE, ADA)
    told_since_turn = dict.fromkeys(by_id, False)
    awaited_before: tuple[int, ...] = ()
    windows = told = 0
    for _ in range(400):
        step = rules.step(None, (await service.games.latest(TABLE)).state, ())
        windows += step.reaction_open
        for notice in await heads_ups(scheduler):  # what the last move (or the start) did
            told += 1
            assert not step.reaction_open, "never while a reaction window is open"
            (playing,) = step.awaited
            assert users[playing] not in awaited_before, "only as a turn begins"
            assert notice.user_id != users[playing]
            assert not told_since_turn[notice.user_id], "once a turn"
            told_since_turn[notice.user_id] = True
        if not step.reaction_open:  # a turn of one's own: one may be told again
            told_since_turn.update(dict.fromkeys((users[s] for s in step.awaited), False))
        if not reply.playable:
            break
        awaited_before = reply.awaiting
        caller = by_id[rng.choice(reply.awaiting)]
        move = rng.choice(await service.play.legal_moves(TABLE, caller))
        reply = await service.play.move(TABLE, caller, move)
    assert windows and told > 5


async def by_hand(where, sql: str) -> None:
    """``sql`` as an operator would type it into ``sqlite3`` or ``psql``."""
    if backend(where) is POSTGRES:
        import asyncpg

        conn = await asyncpg.connect(str(where))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    import sqlite3

    with sqlite3.connect(where) as conn:
        conn.execute(sql)
    conn.close()


async def test_a_cadence_changed_by_hand_moves_the_reminders_all_the_same(world, where, clock):
    service, scheduler = world
    await service.postal.settings(ADA, notify="channel")
    await game(service, TABLE, (ADA, BOB), Clocks(remind_hours=24))
    await sent(scheduler)
    await by_hand(where, f"UPDATE user_settings SET remind_hours = 2 WHERE user_id = {ADA.user_id}")
    assert await reminders_at(scheduler, clock, 1.95) == []
    assert await reminders_at(scheduler, clock, 2) == [ADA.user_id]
