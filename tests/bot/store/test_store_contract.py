"""The store's interface, tested once for every implementation (``STORES`` in
tests/conftest.py): games, seats, the move log, "my turns". Each test runs on a fresh
database of each store; nothing here knows SQL."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import MoveRecord, Opening, Rematch, SQLiteStore, StaleGame, Store, UndoRequest
from bot.store.postgres import PostgresStore

#: every store class, by the name ``STORES`` in tests/conftest.py gives it
CLASSES = {"sqlite": SQLiteStore, "postgres": PostgresStore}


@pytest.fixture
async def store(open_store):
    """A fresh store of each implementation in turn."""
    return await open_store()


class Clock:
    """A clock that moves on by ``step`` every time it is read."""

    def __init__(self, step: timedelta = timedelta(minutes=1)) -> None:
        self.t = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
        self.step = step

    def __call__(self) -> datetime:
        self.t += self.step
        return self.t


async def new_game(store: Store, channel: int = 77, creator: int = 1) -> int:
    return await store.create_game(
        guild_id=9,
        channel_id=channel,
        game_key="skybridge",
        options={},
        seed=123,
        creator_id=creator,
        creator_name=f"user{creator}",
    )


def moved(
    seat: int, user_id: int, action: str, awaiting: list[int], state: str = "{}", **more
) -> MoveRecord:
    """A move by ``seat`` (``user_id``) that leaves ``awaiting`` waiting, with whatever else
    ``more`` records (:class:`MoveRecord`'s fields)."""
    return MoveRecord(
        seat=seat, user_id=user_id, action=action, state=state, awaiting=awaiting, **more
    )


async def started_game(store: Store, channel: int = 77, users=(1, 2)) -> int:
    """A game in ``channel`` with ``users`` seated and started, awaiting seat 0 (version 2+)."""
    game_id = await new_game(store, channel, users[0])
    version = 0
    for user in users[1:]:
        await store.join(game_id, version, user, f"user{user}")
        version += 1
    await store.start(game_id, version, '{"s":0}', [0])
    return game_id


def _interface() -> dict[str, inspect.Signature]:
    """Every method the application layer may call on a store, with its signature."""
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(Store, inspect.isfunction)
        if not name.startswith("_")
    }


@pytest.mark.parametrize("kind", sorted(CLASSES))
@pytest.mark.parametrize("name", sorted(_interface()))
def test_every_store_offers_the_interface_method(name, kind):
    """A store is usable wherever the application expects one: every method of the
    interface, with the same parameters, async where the interface's is."""
    promised = getattr(Store, name)
    offered = getattr(CLASSES[kind], name)
    assert inspect.signature(offered) == _interface()[name], name
    assert inspect.iscoroutinefunction(offered) == inspect.iscoroutinefunction(promised)


@pytest.mark.parametrize("kind", sorted(CLASSES))
def test_the_interface_names_every_public_method_the_application_calls(kind):
    """Nothing a store offers publicly is missing from the interface, except what is a
    store's own (its opening, raw SQL for tools and tests)."""
    own = {
        "open",
        "open_checked",
        "migrate",
        "transaction",
        "read",
        "write",
        "rows",
        "row",
        "execute",
    }
    offered = {n for n, _ in inspect.getmembers(CLASSES[kind], callable) if not n.startswith("_")}
    assert offered - own - set(_interface()) == set()


# -- games -----------------------------------------------------------------------------


async def test_one_live_game_per_channel(store):
    first = await new_game(store, channel=10)
    with pytest.raises(StaleGame):
        await new_game(store, channel=10, creator=2)
    assert await store.count_games() == 1
    other = await new_game(store, channel=11)  # another channel is fine
    assert other != first
    await store.abandon(first, 0)
    again = await new_game(store, channel=10, creator=2)
    assert (await store.live_game(10)).id == again
    assert (await store.latest_game(10)).id == again


async def test_a_finished_game_frees_the_channel(store):
    game_id = await started_game(store, channel=12)
    await store.record(game_id, 2, moved(0, 1, "resign", [], results=[(2, 0), (1, 5)]))
    game = await store.game(game_id)
    assert game.status == "finished"
    assert [(s.place, s.score, s.awaiting) for s in await store.seats(game_id)] == [
        (2, 0, False),
        (1, 5, False),
    ]
    assert await store.live_game(12) is None
    await new_game(store, channel=12, creator=3)


async def test_join_and_leave_keep_seats_numbered(store):
    game_id = await new_game(store, creator=1)
    await store.join(game_id, 0, 2, "B")
    await store.join(game_id, 1, 3, "C")
    await store.join(game_id, 2, 4, "D")
    await store.leave(game_id, 3, 2)
    assert [(s.seat, s.user_id) for s in await store.seats(game_id)] == [(0, 1), (1, 3), (2, 4)]
    with pytest.raises(StaleGame):
        await store.join(game_id, 3, 5, "E")  # version 3 is old now
    assert len(await store.seats(game_id)) == 3


async def test_record_appends_the_move_and_stores_the_state(store):
    game_id = await started_game(store)
    game = await store.game(game_id)
    recorded = await store.record(
        game_id, game.version, moved(0, 1, "red tall a1", [1], state='{"n":1}')
    )
    assert recorded.seq == 1
    assert recorded.seats == await store.seats(game_id), "the seats as the move left them"
    recorded = await store.record(
        game_id, game.version + 1, moved(1, 2, "blue tall b1", [0], state='{"n":2}')
    )
    assert recorded.seq == 2
    assert recorded.seats == await store.seats(game_id)
    assert [s.awaiting for s in recorded.seats] == [True, False]
    after = await store.game(game_id)
    assert (after.state, after.version, after.status) == ('{"n":2}', game.version + 2, "active")
    assert [(m.seq, m.seat, m.user_id, m.kind, m.action) for m in await store.moves(game_id)] == [
        (1, 0, 1, "move", "red tall a1"),
        (2, 1, 2, "move", "blue tall b1"),
    ]
    assert [s.awaiting for s in await store.seats(game_id)] == [True, False]


async def test_record_with_a_stale_version_changes_nothing(store):
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    await store.record(game_id, version, moved(0, 1, "red tall a1", [1], state='{"n":1}'))
    before_game = await store.game(game_id)
    before_moves = await store.moves(game_id)
    before_seats = await store.seats(game_id)
    with pytest.raises(StaleGame):
        await store.record(
            game_id,
            version,
            moved(0, 1, "red tall b1", [0], state='{"n":"x"}', results=[(1, 9), (2, 0)]),
        )
    assert await store.game(game_id) == before_game
    assert await store.moves(game_id) == before_moves
    assert await store.seats(game_id) == before_seats


async def test_record_refuses_a_move_decided_on_seats_that_changed(store):
    """A seat changes hands without moving the version: a move decided on the seats as
    they were (``seen``) is stale, and nothing of it is stored; decided on the seats as
    they are, it is stored, and its answer says where the status is pinned now."""
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    seen = tuple(await store.seats(game_id))
    await store.replace_player(game_id, version, 1, 3, "user3")
    await store.set_status_message(game_id, 555)
    before = (await store.game(game_id), await store.moves(game_id), await store.seats(game_id))
    with pytest.raises(StaleGame):
        await store.record(game_id, version, moved(0, 1, "red tall a1", [1], seen=seen))
    assert (
        await store.game(game_id),
        await store.moves(game_id),
        await store.seats(game_id),
    ) == before
    seen = tuple(await store.seats(game_id))
    recorded = await store.record(game_id, version, moved(0, 1, "red tall a1", [1], seen=seen))
    assert recorded.seq == 1 and recorded.status_message_id == 555
    assert recorded.seats == await store.seats(game_id)


async def test_record_cancels_a_pending_undo_request(store):
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    request = UndoRequest(user_id=1, moves=2, version=version, agreed=frozenset({2}))
    await store.put_undo_request(game_id, request)
    assert await store.undo_request(game_id) == request
    await store.record(game_id, version, moved(0, 1, "x", [1]))
    assert await store.undo_request(game_id) is None


async def test_awaiting_lists_active_games_for_a_user_oldest_first(open_store):
    store = await open_store(clock=Clock())
    older = await started_game(store, channel=1, users=(1, 2))  # waits for user 1
    newer = await started_game(store, channel=2, users=(1, 3))  # waits for user 1
    lobby = await new_game(store, channel=3, creator=1)  # not started: never listed
    assert lobby
    # in the older game user 1 moves, then user 2: it waits for user 1 again, now newest
    await store.record(older, 2, moved(0, 1, "m1", [1]))
    assert [w.game_id for w in await store.awaiting(1)] == [newer]
    assert [w.game_id for w in await store.awaiting(2)] == [older]
    await store.record(older, 3, moved(1, 2, "m2", [0]))
    waiting = await store.awaiting(1)
    assert [w.game_id for w in waiting] == [newer, older]
    assert [w.channel_id for w in waiting] == [2, 1]
    assert waiting[0].since < waiting[1].since
    # the position each waits in, for the Play button /turns offers with it
    assert [w.version for w in waiting] == [(await store.game(g)).version for g in (newer, older)]
    assert waiting[1].version == 4
    assert await store.awaiting(2) == []
    assert await store.awaiting(3) == []
    # now the same happens in the newer game: the order turns round
    await store.record(newer, 2, moved(0, 1, "m1", [1]))
    await store.record(newer, 3, moved(1, 3, "m2", [0]))
    assert [w.game_id for w in await store.awaiting(1)] == [older, newer]
    # finished and abandoned games wait for nobody
    await store.abandon(newer, 4)
    assert [w.game_id for w in await store.awaiting(1)] == [older]
    await store.record(older, 4, moved(0, 1, "resign", [0], results=[(2, 0), (1, 0)]))
    assert await store.awaiting(1) == []


async def test_awaiting_order_holds_for_updates_within_one_second(open_store):
    """Two games updated a few hundredths of a second apart still list the longer-waiting first.

    Timestamps are written with whole seconds, so updates in the same second tie and
    the tie falls back to the game id (creation order), not to how long each waited.
    """
    store = await open_store(clock=Clock(timedelta(milliseconds=10)))
    older = await started_game(store, channel=1, users=(1, 2))
    newer = await started_game(store, channel=2, users=(1, 3))
    await store.record(older, 2, moved(0, 1, "m1", [1]))
    await store.record(older, 3, moved(1, 2, "m2", [0]))
    # ``newer`` has waited for user 1 since before ``older``'s last move
    assert [w.game_id for w in await store.awaiting(1)] == [newer, older]


async def test_record_is_one_transaction_a_late_failure_undoes_the_move_row(store):
    game_id = await started_game(store)
    before = await store.game(game_id)

    def broken(ratings, places):
        raise RuntimeError("the ratings feature failed")

    with pytest.raises(RuntimeError, match="ratings feature failed"):
        # the version bump and the move row are written, then rating the game fails
        await store.record(
            game_id,
            before.version,
            moved(0, 1, "resign", [], state='{"n":1}', results=[(2, 0), (1, 5)], rate=broken),
        )
    assert await store.game(game_id) == before
    assert await store.ratings(9, "skybridge") == []
    assert await store.moves(game_id) == []
    assert [s.awaiting for s in await store.seats(game_id)] == [True, False]


async def test_a_moves_turn_dms_are_stored_with_it_and_only_with_it(store):
    """A "your turn" DM queued by a move is part of the move's transaction: the move that
    loses a race leaves none behind, the one stored queues its own, for the new wait."""
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    due = "2000-01-01T00:00:00.000000+00:00"
    await store.record(game_id, version, moved(0, 1, "x", [0]))
    with pytest.raises(StaleGame):
        await store.record(
            game_id, version, moved(0, 1, "y", [1], notices=[(2, "Your turn (lost).", due)])
        )
    assert await store.claim_notices("test") == []
    await store.record(
        game_id, version + 1, moved(0, 1, "y", [1], notices=[(2, "Your turn.", due)])
    )
    (notice,) = await store.claim_notices("test")
    assert (notice.user_id, notice.via, notice.kind, notice.text) == (2, "dm", "turn", "Your turn.")


async def test_agreeing_to_a_rematch_gathers_each_player_once(store):
    game_id = await started_game(store)
    assert await store.agree_rematch(game_id, 1) == {1}
    assert await store.agree_rematch(game_id, 2) == {1, 2}
    assert await store.agree_rematch(game_id, 1) == {1, 2}, "asking twice counts once"
    assert await store.agree_rematch(await started_game(store, channel=78), 2) == {2}


async def test_a_rematch_opens_once_whole_in_one_transaction_or_not_at_all(store):
    game_id = await started_game(store)  # still live: the channel is busy
    due = "2025-01-01T00:00:00.000000+00:00"
    opening = Opening('{"s":1}', (0,), notices=((2, "Your turn.", due),), rematch=(game_id, 1))

    async def rematch(channel: int = 77) -> int:
        return await store.create_game(
            guild_id=9, channel_id=channel, game_key="skybridge", options={}, seed=5,
            creator_id=2, creator_name="user2", others=[(1, "user1", None)], opening=opening,
        )  # fmt: skip

    with pytest.raises(StaleGame):
        await rematch()
    assert await store.rematch(game_id) == Rematch(), "nothing of it was stored"
    assert await store.count_games() == 1 and await store.claim_notices("test") == []
    await store.abandon(game_id, 2)
    new = await rematch()
    assert await store.rematch(game_id) == Rematch(frozenset({1}), new)
    row = await store.game(new)
    assert (row.status, row.state, row.creator_id) == ("active", '{"s":1}', 2)
    seats = await store.seats(new)
    assert [(s.user_id, s.awaiting) for s in seats] == [(2, True), (1, False)]
    (notice,) = await store.claim_notices("test")
    assert (notice.game_id, notice.user_id, notice.text) == (new, 2, "Your turn.")
    with pytest.raises(StaleGame):
        await store.agree_rematch(game_id, 2)
    with pytest.raises(StaleGame):
        await rematch(channel=78)  # a free channel: refused all the same, nothing kept
    assert await store.count_games() == 2
    assert await store.rematch(game_id) == Rematch(frozenset({1}), new)


async def test_an_ai_seat_keeps_its_level_and_a_game_with_one_is_never_rated(store):
    game_id = await new_game(store)
    await store.join(game_id, 0, -1, "AI Telford (hard)", ai="hard")
    seats = await store.seats(game_id)
    assert [(s.user_id, s.ai) for s in seats] == [(1, None), (-1, "hard")]
    await store.start(game_id, 1, "{}", [1])
    assert not await store.is_rated(game_id)
    later = datetime(2100, 1, 1, tzinfo=UTC)
    (wait,) = await store.claim_due_waits(later, later, 10)
    assert (wait.user_id, wait.ai) == (-1, "hard"), "its wait says it is an AI's"
    await store.replace_player(game_id, 2, 1, 2, "Bob")
    assert [s.ai for s in await store.seats(game_id)] == [None, None]
    assert await store.is_rated(game_id), "a person took the seat over"


async def test_a_due_wait_is_claimed_by_one_caller_until_its_lease_runs_out(store):
    """The scheduler's claim: whoever claims a due wait has it until ``until``; if it dies
    without doing what is due, the wait falls due again then, for anyone."""
    first, second = await started_game(store, channel=81), await started_game(store, channel=82)
    later = datetime(2100, 1, 1, tzinfo=UTC)
    lease = later + timedelta(minutes=5)
    (oldest,) = await store.claim_due_waits(later, lease, 1)
    assert oldest.game_id == first, "the longest due is claimed first"
    (other,) = await store.claim_due_waits(later, lease, 10)
    assert other.game_id == second, "a claimed wait is nobody else's"
    assert await store.claim_due_waits(later + timedelta(minutes=4), lease, 10) == []
    retaken = await store.claim_due_waits(lease, lease + timedelta(minutes=5), 10)
    assert [w.game_id for w in retaken] == [first, second], "claims run out"


async def test_a_wait_whose_game_moves_on_leaves_its_claim_for_its_next_due_time(store):
    game_id = await started_game(store, channel=83)
    later = datetime(2100, 1, 1, tzinfo=UTC)
    (claimed,) = await store.claim_due_waits(later, later + timedelta(days=30), 10)
    await store.record(game_id, claimed.version, moved(0, 1, "x", [1]))
    (next_wait,) = await store.claim_due_waits(later, later, 10)
    assert (next_wait.seat, next_wait.version) == (1, claimed.version + 1), (
        "a move stores its waits' real due times, whatever claim the old one had"
    )


async def test_a_lease_is_one_holders_until_it_runs_out_or_is_let_go(store):
    now = store.clock()
    assert await store.take_lease("league:1", "a", now + timedelta(minutes=5))
    assert not await store.take_lease("league:1", "b", now + timedelta(minutes=5))
    assert await store.take_lease("league:2", "b", now + timedelta(minutes=5)), "by name"
    assert await store.take_lease("league:1", "a", now + timedelta(minutes=9)), "renewed"
    await store.drop_lease("league:1", "b")  # not b's to drop
    assert not await store.take_lease("league:1", "b", now + timedelta(minutes=5))
    await store.drop_lease("league:1", "a")
    assert await store.take_lease("league:1", "b", now + timedelta(seconds=1))
    assert not await store.take_lease("league:1", "a", now + timedelta(minutes=5))


async def test_a_lease_whose_holder_died_is_taken_once_it_runs_out(open_store):
    clock = Clock(step=timedelta(0))
    store = await open_store(clock=clock)
    assert await store.take_lease("league:1", "dead", clock.t + timedelta(minutes=5))
    clock.t += timedelta(minutes=4)
    assert not await store.take_lease("league:1", "alive", clock.t + timedelta(minutes=5))
    clock.t += timedelta(minutes=1)
    assert await store.take_lease("league:1", "alive", clock.t + timedelta(minutes=5))
