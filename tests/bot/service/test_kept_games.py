"""A move decided on the game as this process's last move of it left it (issue 35, item
4): one trip to the database, loading included, and never a move by a seat that has
changed since. Each test runs on every store (``STORES`` in tests/conftest.py), with a
second store on the same database standing for another process."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.clocks import Clocks
from bot.service import Refused, Service
from bot.service.picker import walk
from bot.store import Settings, Store, iso, open_store
from bot.store.rows import parse_time
from tests.conftest import ADA, BOB, CY, TABLE


@pytest.fixture
async def two(database):
    """Two stores on one database, as two processes of the bot would have."""
    stores = [await open_store(database), await open_store(database)]
    yield stores
    for store in stores:
        await store.close()


async def started(service: Service) -> tuple[int, int]:
    """A two-player Skybridge game at :data:`TABLE`, started: its id and the user it awaits."""
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    reply = await service.lobby.start(TABLE, ADA)
    game = await service.games.live(TABLE)
    return game.row.id, reply.awaiting[0]


def first_choices(moves: list[str]) -> tuple[int, ...]:
    """The picker path that takes the first choice at every step, to a move."""
    path: tuple[int, ...] = ()
    while walk(moves, path).move is None:
        path = (*path, 0)
    return path


def counted(store: Store, into: list[int]):
    """``store.record``, noting the trips each transaction makes in ``into``."""
    record = store.record

    async def recording(*args):
        before = store.round_trips
        try:
            return await record(*args)
        finally:
            into.append(store.round_trips - before)

    return recording


async def test_a_move_after_this_processes_own_is_its_transaction_alone(two, monkeypatch):
    """Once the game is kept, a move reads nothing: its trips are its transaction's (one
    on SQLite), typed or clicked in the picker."""
    store = two[0]
    service = Service(store, images=False, seed=lambda: 12345)
    _, awaited = await started(service)
    by_id = {ADA.user_id: ADA, BOB.user_id: BOB}
    transactions: list[int] = []
    monkeypatch.setattr(store, "record", counted(store, transactions))
    for n in range(8):
        mover = by_id[awaited]
        move = (await service.play.legal_moves(TABLE, mover))[0]
        game = await service.games.live(TABLE)  # each player's settings read once, first
        trips = store.round_trips
        if n % 2:
            picker = await service.play.pick(game.row.id, game.row.version, mover, play=False)
            path = first_choices(picker.moves)
            trips = store.round_trips
            picked = await service.play.pick(game.row.id, game.row.version, mover, path)
            assert picked.reply is not None
            reply = picked.reply
        else:
            reply = await service.play.move(TABLE, mover, move)
        if n >= 2:
            assert store.round_trips - trips == transactions[-1], n
        awaited = reply.awaiting[0]
    assert transactions[-1] == 1


async def test_a_seat_handed_over_by_another_process_is_seen(two):
    """Another process gives Bob's seat to Cy between two moves: this process, which
    kept the game as its last move left it, lets Cy play the seat and refuses Bob."""
    here = Service(two[0], images=False, seed=lambda: 12345)
    there = Service(two[1], images=False, seed=lambda: 12345)
    game_id, awaited = await started(here)
    first = ADA if awaited == ADA.user_id else BOB
    reply = await here.play.move(TABLE, first, (await here.play.legal_moves(TABLE, first))[0])
    if reply.awaiting != (BOB.user_id,):  # Bob's turn next, whoever began
        reply = await here.play.move(TABLE, ADA, (await here.play.legal_moves(TABLE, ADA))[0])
    assert here.games.kept(game_id) is not None
    game = await there.games.live(TABLE)
    await two[1].replace_player(game_id, game.row.version, 1, CY.user_id, CY.name)
    move = (await there.play.legal_moves(TABLE, CY))[0]
    with pytest.raises(Refused, match="not playing"):
        await here.play.move(TABLE, BOB, move)
    with pytest.raises(Refused, match="not playing"):
        await here.play.pick(game_id, game.row.version, BOB, ())
    assert len(await two[0].moves(game_id)) == len(await two[1].moves(game_id))
    reply = await here.play.move(TABLE, CY, move)
    assert (await two[1].moves(game_id))[-1].user_id == CY.user_id
    assert reply.status is not None and "Cy" in reply.status.text


async def test_a_move_pins_its_status_where_another_process_pinned_it(two):
    """Where the channel's status is pinned changes without moving the version: the
    move's answer says where it is now, though this process kept the game."""
    here = Service(two[0], images=False, seed=lambda: 12345)
    game_id, awaited = await started(here)
    by_id = {ADA.user_id: ADA, BOB.user_id: BOB}
    reply = await here.play.move(
        TABLE, by_id[awaited], (await here.play.legal_moves(TABLE, by_id[awaited]))[0]
    )
    await two[1].set_status_message(game_id, 4242)
    mover = by_id[reply.awaiting[0]]
    reply = await here.play.move(TABLE, mover, (await here.play.legal_moves(TABLE, mover))[0])
    assert reply.status is not None and reply.status.message_id == 4242


async def test_a_vacation_begun_in_another_process_gives_the_whole_move_time_after_it(two):
    """A player's vacation begins in another process while the other player thinks: the
    move that starts their turn, decided on the game kept here, still gives them their
    whole time after the vacation, as a move with the game read would."""
    here = Service(two[0], images=False, seed=lambda: 12345)
    await here.lobby.create(TABLE, ADA, "skybridge", clocks=Clocks(move_hours=24))
    await here.lobby.join(TABLE, BOB)
    reply = await here.lobby.start(TABLE, ADA)
    by_id = {ADA.user_id: ADA, BOB.user_id: BOB}
    for _ in range(3):
        mover = by_id[reply.awaiting[0]]
        reply = await here.play.move(TABLE, mover, (await here.play.legal_moves(TABLE, mover))[0])
    mover = by_id[reply.awaiting[0]]
    other = ADA if mover == BOB else BOB
    until = datetime.now(UTC) + timedelta(days=5)
    await two[1].put_settings(other.user_id, Settings(vacation_until=iso(until)))
    await here.play.move(TABLE, mover, (await here.play.legal_moves(TABLE, mover))[0])
    seat = next(s for s in await two[1].seats(reply.game_id) if s.user_id == other.user_id)
    assert seat.awaiting and seat.deadline is not None
    assert parse_time(seat.deadline) >= until + timedelta(hours=24)
