"""The tick reads only the waits the store has as due: whatever moves a due time (a move,
an undo, a vacation and a return from it, an extension, a snooze, a new player in a seat,
an operator's fix by hand, an upgrade from a database without the index) must move it
there too, or a reminder, warning or deadline would come late or never. Each test checks
the minute before the moment (nothing) and the moment itself (it happens, once)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain.clocks import Clocks
from bot.service import Caller, Service
from bot.store import SQLiteStore
from tests.conftest import ADA, BOB, CY, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
MOD = Caller(1, "Mod", manager=True)
NEVER = 1000.0  # hours between reminders: none in these tests unless asked for


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def world(tmp_path, clock):
    store = await SQLiteStore.open(tmp_path / "due.db", clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    yield service, service.timers
    await store.close()


async def start(service: Service, clocks: Clocks) -> tuple[Caller, Caller]:
    """A two-player Skybridge game on ``clocks``: (who moves first, the other)."""
    await service.lobby.create(TABLE, ADA, "skybridge", clocks=clocks)
    await service.lobby.join(TABLE, BOB)
    reply = await service.lobby.start(TABLE, ADA)
    first = ADA if reply.mentions == (ADA.user_id,) else BOB
    return first, BOB if first == ADA else ADA


async def play(service: Service, caller: Caller) -> None:
    await service.play.move(TABLE, caller, (await service.play.legal_moves(TABLE, caller))[0])


async def notices(service: Service) -> list[tuple[int, str]]:
    """(user, kind) of every notice queued so far, oldest first."""
    async with service.store.transaction() as db:
        rows = await db.execute_fetchall("SELECT user_id, kind FROM outbox ORDER BY id")
    return [(user, kind) for user, kind in rows]


async def nothing_until(service: Service, clock: Clock, hours: float) -> None:
    """A tick a minute before ``hours`` (from the start) does nothing; then the clock
    stands at ``hours``."""
    before = await notices(service)
    clock.at(hours=hours, minutes=-1)
    assert await service.timers.tick() == []
    assert await notices(service) == before, f"something came before hour {hours}"
    clock.at(hours=hours)


async def test_the_next_player_is_warned_and_played_for_on_their_own_clock(world, clock):
    service, scheduler = world
    first, other = await start(service, Clocks(move_hours=24, remind_hours=NEVER))
    clock.at(hours=10)
    await play(service, first)
    await nothing_until(service, clock, 10 + 18)  # warned a quarter of 24 h before
    assert await scheduler.tick() == []
    assert await notices(service) == [(other.user_id, "warning")]
    await nothing_until(service, clock, 10 + 24)
    (played,) = await scheduler.tick()
    assert f"{other.name} ran out of time" in played.reply.text


async def test_an_undone_move_gives_its_player_a_fresh_clock(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=24, remind_hours=NEVER))
    clock.at(hours=10)
    await play(service, first)
    clock.at(hours=12)
    await service.undo.ask(TABLE, first)
    await nothing_until(service, clock, 12 + 18)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")]


async def test_back_early_from_a_vacation_a_paused_reminder_comes_at_once(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(remind_hours=24))
    clock.at(hours=1)
    await service.postal.vacation(first, 3)  # nothing is due until hour 73...
    clock.at(hours=30)
    assert await scheduler.tick() == [] and await notices(service) == []
    await service.postal.vacation(first, 0)  # ...but they are back at hour 30
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "reminder")]


async def test_back_early_from_a_vacation_the_deadline_and_its_warning_come_sooner(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=48, remind_hours=NEVER))
    clock.at(hours=1)
    await service.postal.vacation(first, 3)  # the deadline moves from hour 48 to hour 120...
    clock.at(hours=10)
    await service.postal.vacation(first, 0)  # ...and back by the 63 hours not taken: hour 57
    await nothing_until(service, clock, 57 - 12)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")]
    await nothing_until(service, clock, 57)
    (played,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in played.reply.text


async def test_a_vacation_holds_reminders_until_it_ends(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(remind_hours=24))
    clock.at(hours=1)
    await service.postal.vacation(first, 2)
    await nothing_until(service, clock, 1 + 48)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "reminder")]


async def test_an_extension_after_the_warning_warns_again_before_the_new_deadline(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=24, remind_hours=NEVER))
    clock.at(hours=18)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")]
    clock.at(hours=19)
    await service.postal.extend(TABLE, MOD, 24)
    await nothing_until(service, clock, 48 - 6)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")] * 2
    await nothing_until(service, clock, 48)
    (played,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in played.reply.text


async def test_a_snoozed_turn_is_still_warned_and_played_for_on_time(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=48, remind_hours=6))
    await service.postal.snooze(TABLE, first)
    await nothing_until(service, clock, 48 - 12)
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")], "no reminder: snoozed"
    await nothing_until(service, clock, 48)
    (played,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in played.reply.text


async def test_a_new_player_in_a_seat_is_reminded_a_whole_interval_after_taking_it(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(remind_hours=24))
    clock.at(hours=20)
    await service.postal.replace_player(TABLE, MOD, first.user_id, CY)
    await nothing_until(service, clock, 20 + 24)
    await scheduler.tick()
    assert await notices(service) == [(CY.user_id, "reminder")]


async def test_a_player_on_vacation_taking_over_a_seat_is_reminded_after_it(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(remind_hours=24))
    await service.postal.vacation(CY, 2)  # away until hour 48
    clock.at(hours=1)
    await service.postal.replace_player(TABLE, MOD, first.user_id, CY)
    await nothing_until(service, clock, 48)
    await scheduler.tick()
    assert await notices(service) == [(CY.user_id, "reminder")]


async def test_a_seat_handed_from_a_player_away_to_one_at_home_is_reminded_on_time(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(remind_hours=24))
    clock.at(hours=1)
    await service.postal.vacation(first, 3)  # nothing due for this seat until hour 73
    clock.at(hours=30)
    await service.postal.replace_player(TABLE, MOD, first.user_id, CY)
    await nothing_until(service, clock, 30 + 24)
    await scheduler.tick()
    assert await notices(service) == [(CY.user_id, "reminder")]


async def test_a_finished_game_has_nothing_due_however_late(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=24, remind_hours=1))
    await service.play.resign(TABLE, first)
    clock.at(days=30)
    assert await scheduler.tick() == [] and await notices(service) == []


async def test_a_deadline_an_operator_brings_forward_by_hand_is_kept(world, clock):
    service, scheduler = world
    first, _ = await start(service, Clocks(move_hours=48, remind_hours=NEVER))
    async with service.store.transaction() as db:  # as with the sqlite3 shell
        await db.execute(
            "UPDATE seats SET deadline = '2026-11-03T12:00:00.000000+00:00' WHERE awaiting = 1"
        )
    await nothing_until(service, clock, 24 - 12)  # a quarter of the 48 hours before
    await scheduler.tick()
    assert await notices(service) == [(first.user_id, "warning")]
    await nothing_until(service, clock, 24)
    (played,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in played.reply.text


async def _as_before_migration_12(path) -> None:
    """Take ``path`` back to the schema before migration 12, rows kept, as a database
    written by the previous Bridgekeeper would be."""
    store = await SQLiteStore.open(path)
    try:
        async with store.transaction() as db:
            for (trigger,) in await db.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%due%'"
            ):
                await db.execute(f"DROP TRIGGER {trigger}")
            await db.execute("DROP INDEX seats_due")
            await db.execute("ALTER TABLE seats DROP COLUMN due_at")
            await db.execute("DELETE FROM schema_migrations WHERE number = 12")
    finally:
        await store.close()


async def test_an_upgraded_database_fires_its_running_timers_as_before(tmp_path, clock):
    path = tmp_path / "old.db"
    store = await SQLiteStore.open(path, clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    first, _ = await start(service, Clocks(move_hours=24, remind_hours=5))
    clock.at(hours=5)
    await service.timers.tick()  # the old version sent the first reminder
    await store.close()
    await _as_before_migration_12(path)

    store = await SQLiteStore.open(path, clock=clock)
    try:
        service = Service(store, images=False, seed=lambda: 12345)
        scheduler = service.timers
        await nothing_until(service, clock, 10)
        await scheduler.tick()
        assert await notices(service) == [(first.user_id, "reminder")] * 2
        await nothing_until(service, clock, 15)
        await scheduler.tick()
        await nothing_until(service, clock, 18)
        await scheduler.tick()
        assert await notices(service) == [(first.user_id, "reminder")] * 3 + [
            (first.user_id, "warning")
        ]
        await nothing_until(service, clock, 24)
        (played,) = await scheduler.tick()
        assert f"{first.name} ran out of time" in played.reply.text
    finally:
        await store.close()
