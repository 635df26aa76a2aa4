"""AI seats through the service and the play-by-post timers: filling a table, moving by
themselves after a short pause, exactly once, from their own view, and never rated."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import engine
from bot.domain.clocks import AI_PAUSE
from bot.domain.ratings import replay
from bot.hosting.offline import terminal_service
from bot.processes import thinking
from bot.service import Refused, Service, Table
from bot.store import SQLiteStore
from tests.conftest import ADA, BOB, CY, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def world(tmp_path, clock):
    store = await SQLiteStore.open(tmp_path / "ai.db", clock=clock)
    woken: list[float] = []
    service = Service(store, images=False, seed=lambda: 777, on_ai_waiting=woken.append)
    yield service, service.timers, woken
    await store.close()


async def person_to_move(service: Service, table: Table = TABLE) -> bool:
    return await service.seats.waiting_ai(table) is None


async def play_out(service, scheduler, clock, person, rng, table: Table = TABLE):
    """Play ``person``'s turns at random and let the timers play the AI's, to the end:
    the replies of the AI's moves, as the channel would see them."""
    posted, seconds = [], 0.0
    for _ in range(2000):
        if not await service.looking.is_live(table):
            return posted
        if await person_to_move(service, table):
            moves = [m for m in await service.play.legal_moves(table, person) if m != "resign"]
            await service.play.move(table, person, rng.choice(moves))
        else:
            seconds += AI_PAUSE[1] + 1
            clock.at(seconds=seconds)
            posted += await scheduler.tick()
    raise AssertionError("the game did not end")


async def test_a_person_plays_an_ai_to_the_end_and_nobody_is_rated(world, clock):
    service, scheduler, woken = world
    opened = await service.lobby.create(TABLE, ADA, "skybridge", ai=1, ai_level="easy")
    assert "AI players: AI Telford (easy)" in opened.text and "casual" in opened.text
    await service.lobby.start(TABLE, ADA)
    posted = await play_out(service, scheduler, clock, ADA, random.Random(3))
    assert posted, "the AI's moves were posted to the channel"
    assert all(item.table == TABLE for item in posted)
    assert not any(u < 0 for item in posted for u in item.reply.mentions), "an AI is not pinged"
    assert not await service.looking.is_live(TABLE)
    players = {s.user_id: s for s in await service.store.seats(1)}
    assert players[-1].ai == "easy" and players[-1].name == "AI Telford (easy)"
    assert all(s.place is not None for s in players.values())
    assert await service.store.ratings(TABLE.guild_id, "skybridge") == []
    assert await service.store.rebuild_ratings(replay) == (0, True)
    assert woken and all(AI_PAUSE[0] <= s <= AI_PAUSE[1] for s in woken)


async def test_the_ai_waits_its_pause_then_moves_once_however_many_timers_tick(
    world, clock, tmp_path
):
    service, scheduler, _ = world
    await service.lobby.create(TABLE, ADA, "skybridge", ai=1)
    await service.lobby.start(TABLE, ADA)
    if await person_to_move(service):
        await service.play.move(TABLE, ADA, (await service.play.legal_moves(TABLE, ADA))[0])
    before = len(await service.store.moves(1))
    clock.at(seconds=AI_PAUSE[0] - 1)
    assert await scheduler.tick() == [], "a person would not answer that fast either"
    assert len(await service.store.moves(1)) == before
    clock.at(seconds=AI_PAUSE[1] + 1)
    other = Service(service.store, images=False).timers  # a second loop, same database
    first, second = await scheduler.tick(), await other.tick()
    assert len(first) + len(second) == 1, "one of them moved, once"
    log = await service.store.moves(1)
    assert len(log) == before + 1 and log[-1].user_id == -1
    assert await person_to_move(service)


async def test_an_ai_waiting_when_the_bot_stopped_moves_after_the_restart(tmp_path, clock):
    store = await SQLiteStore.open(tmp_path / "restart.db", clock=clock)
    service = Service(store, images=False, seed=lambda: 5)
    await service.lobby.create(TABLE, ADA, "bridge-wars", ai=1, ai_level="easy")
    await service.lobby.start(TABLE, ADA)
    while await person_to_move(service):
        await service.play.move(TABLE, ADA, (await service.play.legal_moves(TABLE, ADA))[0])
    moves = len(await store.moves(1))
    await store.close()  # the bot stops before the AI's pause is over

    clock.at(minutes=30)
    store = await SQLiteStore.open(tmp_path / "restart.db", clock=clock)
    try:
        assert len(await Service(store, images=False).timers.tick()) == 1
        assert len(await store.moves(1)) == moves + 1
    finally:
        await store.close()


async def test_the_ai_decides_from_its_seats_view_never_the_state(world, clock, monkeypatch):
    service, scheduler, _ = world
    seen = []
    decide = thinking.decide

    def spying(game_key, view, legal, level, seed):
        seen.append((game_key, view, level))
        return decide(game_key, view, legal, level, seed)

    monkeypatch.setattr(thinking, "decide", spying)
    await service.lobby.create(TABLE, ADA, "seven-cities", ai=1, ai_level="normal")
    await service.lobby.start(TABLE, ADA)
    await play_out(service, scheduler, clock, ADA, random.Random(8))
    rules = engine.get("seven-cities")
    assert seen and all(key == "seven-cities" and level == "normal" for key, _, level in seen)
    assert all(isinstance(view, rules.kit.view.View) and view.seat == 1 for _, view, _ in seen)
    assert not any(isinstance(view, rules.kit.state.State) for _, view, _ in seen)


@pytest.mark.parametrize("game_key", sorted(engine.GAMES))
async def test_every_game_plays_to_the_end_against_ai_players(tmp_path, clock, game_key):
    """Out-of-turn answers included (Seven Cities' defence and sands, Bridges and Boats'
    cannon): whenever an AI seat is awaited, it answers by itself."""
    store = await SQLiteStore.open(tmp_path / f"{game_key}.db", clock=clock)
    try:
        service = Service(store, images=False, seed=lambda: 99)
        info = engine.get(game_key).info
        await service.lobby.create(
            TABLE, ADA, game_key, ai=max(1, info.min_players - 1), ai_level="easy"
        )
        await service.lobby.start(TABLE, ADA)
        await play_out(service, service.timers, clock, ADA, random.Random(1))
        log = await store.moves(1)
        assert any(m.user_id < 0 for m in log) and any(m.user_id == ADA.user_id for m in log)
    finally:
        await store.close()


async def test_adding_ai_players_is_checked_and_said(world):
    service, _, _ = world
    await service.lobby.create(TABLE, ADA, "skybridge")
    with pytest.raises(
        Refused, match="level: `genius` is not an AI level; choose easy, normal, hard"
    ):
        await service.seats.add_ai(TABLE, ADA, "genius")
    with pytest.raises(Refused, match="Only the player who opened the game"):
        await service.seats.add_ai(TABLE, BOB)
    added = await service.seats.add_ai(TABLE, ADA, "hard")
    assert "AI Telford (hard) joined" in added.text and "never rated" in added.text
    await service.seats.add_ai(TABLE, ADA)
    await service.seats.add_ai(TABLE, ADA)
    with pytest.raises(Refused, match="The game is full"):
        await service.seats.add_ai(TABLE, ADA)
    names = [s.name for s in await service.store.seats(1)]
    assert names == ["Ada", "AI Telford (hard)", "AI Brunel (normal)", "AI Roebling (normal)"]
    with pytest.raises(Refused, match="ai: `4` AI players is out of range"):
        await service.lobby.create(
            Table(channel_id=2, guild_id=TABLE.guild_id), ADA, "skybridge", ai=4
        )


async def test_a_seat_handed_to_an_ai_plays_on_and_a_table_of_only_ai_is_refused(world, clock):
    service, scheduler, _ = world
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.join(TABLE, CY)
    await service.lobby.start(TABLE, ADA)
    handed = await service.seats.hand_to_ai(TABLE, BOB, BOB.user_id, "easy")
    assert "AI Telford (easy) takes over seat 2 from Bob" in handed.text
    await service.seats.hand_to_ai(TABLE, CY, CY.user_id, "easy")
    with pytest.raises(Refused, match="only AI players, with nobody to watch"):
        await service.seats.hand_to_ai(TABLE, ADA, ADA.user_id)
    await play_out(service, scheduler, clock, ADA, random.Random(4))
    assert not await service.looking.is_live(TABLE)


async def test_a_game_against_an_ai_can_be_played_in_a_dm(world, clock):
    service, scheduler, _ = world
    dm = Table(channel_id=9)
    with pytest.raises(Refused, match="Nobody else can join a game in a DM"):
        await service.lobby.create(dm, ADA, "bridge-wars")
    await service.lobby.create(dm, ADA, "bridge-wars", ai=1, ai_level="easy")
    await service.lobby.start(dm, ADA)
    await play_out(service, scheduler, clock, ADA, random.Random(2), dm)
    assert not await service.looking.is_live(dm)


async def test_a_worker_process_decides_as_the_bot_itself_would():
    """Thinking in a worker keeps the event loop free and changes nothing: the same view,
    legal moves, level and seed give the same move there as here."""
    rules = engine.get("bridges-and-boats")
    state = rules.new(2, {}, 11)
    seat = rules.to_play(state)[0]
    view, legal = rules.view(state, seat), rules.legal(state, seat)
    here = await thinking.think(None, "bridges-and-boats", view, legal, "normal", 5)
    with thinking.thinkers(1) as pool:
        there = await thinking.think(pool, "bridges-and-boats", view, legal, "normal", 5)
    assert there == here and here in legal


async def test_an_ai_under_a_fixed_game_seed_still_draws_fresh_chance_at_every_decision(
    tmp_path,
):
    """The terminal fixes every new game's seed, so a script replays. An AI that drew its
    own chance from that seed decided alike at every position: in Seven Cities, where a
    railway makes a step free, an easy AI walked back and forth on it for ever (seed 2).
    Its chance comes from a stream of its own, one draw a decision (still replayable)."""
    store = await SQLiteStore.open(tmp_path / "seed.db")
    try:
        service = terminal_service(store, seed=2)
        await service.lobby.create(TABLE, ADA, "seven-cities", ai=1, ai_level="easy")
        await service.lobby.start(TABLE, ADA)
        rng = random.Random(5)
        for _ in range(3000):
            if not await service.looking.is_live(TABLE):
                return
            ai = await service.seats.waiting_ai(TABLE)
            if ai is None:
                moves = [m for m in await service.play.legal_moves(TABLE, ADA) if m != "resign"]
                await service.play.move(TABLE, ADA, rng.choice(moves))
            else:
                await service.seats.ai_move(TABLE, ai)
        raise AssertionError("the game did not end in 3,000 moves")
    finally:
        await store.close()
