"""Battle for Seven Cities by post, through the real service and scheduler: reaction
windows that are answered, passed and timed out, whole games of random legal moves,
and hands that never show in anything posted publicly."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.domain.clocks import Clocks
from bot.service import Service, Table
from bot.store import SQLiteStore
from bot.tools.selfplay import play_random, robots
from engine.seven_cities.cards import CARDS, name
from renders import render
from tests.conftest import TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
g = engine.get("seven-cities")
CARD_NAMES = tuple(c.name for c in CARDS)
#: named in every reaction prompt, whoever holds them
PROMPTED = ("Defend City", "Sands of Time", "Metropolis")


@pytest.fixture
async def world(tmp_path):
    clock = Clock(T0)
    store = await SQLiteStore.open(tmp_path / "cities.db", clock=clock)
    service = Service(store, images=False, seed=lambda: 4)
    yield service, service.timers, clock
    await store.close()


async def _until_window(service: Service, players, rng: random.Random, holder: bool = False):
    """Random legal moves until a Burn City / Hostile Takeover window opens (and, with
    ``holder``, one where an asked seat holds Defend City)."""
    by_id = {c.user_id: c for c in players}
    reply = await service.lobby.start(TABLE, players[0])
    for _ in range(20_000):
        if not reply.playable:
            return None, None
        state = (await service.games.active(TABLE)).state
        if g.reaction_open(state) and state.windows[0].kind == "defend":
            asked = state.windows[0].waiting
            if not holder or any("defend" in state.hands[s] for s in asked):
                return reply, state
        caller = by_id[rng.choice(reply.awaiting)]
        reply = await service.play.move(
            TABLE, caller, rng.choice(await service.play.legal_moves(TABLE, caller))
        )
    raise AssertionError("no window")


async def test_a_defend_city_window_pings_every_other_player_and_times_out_into_passes(world):
    service, scheduler, clock = world
    players = robots(3)
    await service.lobby.create(
        TABLE, players[0], "seven-cities", clocks=Clocks(move_hours=72, reaction_hours=6)
    )
    for p in players[1:]:
        await service.lobby.join(TABLE, p)
    reply, state = await _until_window(service, players, random.Random(3))
    window = state.windows[0]
    others = {players[s].user_id for s in range(3) if s != window.by}
    assert set(reply.awaiting) == others, "everyone else may react, holder or not"
    assert set(reply.mentions) == others
    assert "Defend City, or `pass`" in reply.text
    first, second = window.waiting
    answered = await service.play.move(TABLE, players[first], "pass")
    assert answered.mentions == (), "the other is still thinking: nobody new to ping"
    opened = clock.now
    clock.now = opened + timedelta(hours=5)
    assert await scheduler.tick() == [], "first a private warning, nothing in the channel"
    warned = [(n.user_id, n.kind) for n in await scheduler.deliveries()]
    assert warned == [(players[second].user_id, "warning")]
    clock.now = opened + timedelta(hours=6)
    (posted,) = await scheduler.tick()
    assert f"{players[second].name} did not answer in time: the bot passed for them." in (
        posted.reply.text
    )
    log = await service.store.moves(1)
    assert (log[-1].user_id, log[-1].action) == (players[second].user_id, "pass")
    after = (await service.games.active(TABLE)).state
    attacked = window.tile
    assert not g.reaction_open(after) or after.windows[0].kind != "defend"
    if window.card == "burn":
        assert all(c.tile != attacked for c in after.cities), "nobody defended: it burned"
    else:
        assert any(c.tile == attacked and c.owner == window.by for c in after.cities)


async def test_defend_city_answered_by_post_negates_the_attack(world):
    service, _scheduler, _clock = world
    players = robots(3)
    for attempt in range(10):
        await service.lobby.create(TABLE, players[0], "seven-cities", seed=100 + attempt)
        for p in players[1:]:
            await service.lobby.join(TABLE, p)
        reply, state = await _until_window(service, players, random.Random(attempt), holder=True)
        if state is not None:
            break  # otherwise that game ended without one: open another
    assert state is not None, "no game in ten had a defended attack"
    window = state.windows[0]
    defender = next(s for s in window.waiting if "defend" in state.hands[s])
    answered = await service.play.move(TABLE, players[defender], "play defend")
    assert "answers with Defend City" in answered.text
    for seat in window.waiting:
        if seat != defender:
            answered = await service.play.move(TABLE, players[seat], "pass")
    assert "Defend City negates" in answered.text
    after = (await service.games.active(TABLE)).state
    assert window.card in after.blue[-1:], "the negated attack goes to the blue pile"
    assert any(c.tile == window.tile for c in after.cities), "the city stands"


def _public_names(text: str) -> set[str]:
    return {n for n in CARD_NAMES if n in text}


async def test_no_public_reply_of_a_whole_game_names_a_card_still_in_a_hand(service):
    """Every card name in a public reply is the card the move played or discarded, the
    attack a window is about, or a reaction card named in a prompt to all who may react."""
    players = robots(4)
    await service.lobby.create(TABLE, players[0], "seven-cities")
    for p in players[1:]:
        await service.lobby.join(TABLE, p)
    by_id = {c.user_id: c for c in players}
    rng = random.Random(8)
    reply = await service.lobby.start(TABLE, players[0])
    assert not _public_names(reply.text), "the opening draw is private"
    moves = 0
    while reply.playable:
        before = (await service.games.active(TABLE)).state
        caller = by_id[rng.choice(reply.awaiting)]
        text = rng.choice(await service.play.legal_moves(TABLE, caller))
        reply = await service.play.move(TABLE, caller, text)
        moves += 1
        allowed = {name(w) for w in text.split() if w in {c.slug for c in CARDS}}
        allowed |= set(PROMPTED)
        if before.windows and before.windows[0].card:
            allowed.add(name(before.windows[0].card))
        leaked = _public_names(reply.text) - allowed
        assert not leaked, f"move {moves} `{text}` posted {leaked}: {reply.text}"
        assert reply.followup is not None and reply.followup.private
        assert not re.search(r"You draw", reply.text)
    history = await service.looking.history(TABLE)
    assert "draw" not in history.text.lower()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
async def test_random_legal_play_always_finishes(service, players):
    played = await play_random(
        service,
        Table(channel_id=7000 + players, guild_id=1),
        "seven-cities",
        players,
        random.Random(players),
    )
    assert not played.final.playable and "Game over" in played.final.text
    assert played.moves > players * 3


async def test_public_images_do_not_depend_on_what_the_hands_hold(service):
    """Each public picture is the one drawn with every hand swapped for other cards."""
    service.context.images = True
    players = robots(3)
    await service.lobby.create(TABLE, players[0], "seven-cities")
    for p in players[1:]:
        await service.lobby.join(TABLE, p)
    by_id = {c.user_id: c for c in players}
    rng = random.Random(5)
    reply = await service.lobby.start(TABLE, players[0])
    for _ in range(40):
        state = (await service.games.active(TABLE)).state
        swapped = replace(state, hands=tuple(("points2",) * len(h) for h in state.hands))
        names = [p.name for p in players]
        assert reply.image == render("seven-cities", g.view(swapped, None), names)
        caller = by_id[rng.choice(reply.awaiting)]
        reply = await service.play.move(
            TABLE, caller, rng.choice(await service.play.legal_moves(TABLE, caller))
        )
        assert reply.followup.image != reply.image, "the mover's own picture shows the hand"


async def test_the_clock_cards_read_the_time_the_game_is_opened_on_the_openers_clock(world):
    """RULINGS §4.2: the first player comes from the game's start time, in the opener's zone."""
    service, _scheduler, clock = world
    players = robots(2)
    await service.postal.settings(players[0], timezone="Asia/Tokyo")
    clock.now = datetime(2026, 11, 23, 1, 30, tzinfo=UTC)  # 10:30 in Tokyo
    await service.lobby.create(TABLE, players[0], "seven-cities")
    row = await service.store.live_game(TABLE.channel_id)
    assert row.options == {"clock": "10:30"}
    await service.lobby.abandon(TABLE, players[0])
    await service.lobby.create(TABLE, players[1], "seven-cities", {"clock": "05:15"})
    assert (await service.store.live_game(TABLE.channel_id)).options == {"clock": "05:15"}
