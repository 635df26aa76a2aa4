"""A game's page, its exports and its boards show the public view only: whole games of
the two games with secrets, every page and export read over HTTP after every move."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import aiohttp
import pytest

import engine
from bot.config import Web
from bot.service import Service, Table
from bot.service.games import Loaded
from bot.service.pages import record_json, record_text
from bot.tools.selfplay import robots
from bot.web.html import game_page
from bot.web.serving import serving
from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from renders import render
from tests.engine.bridges_and_boats.test_view import _hidden_in

EXPORTS = ("", "/record.txt", "/record.json")
#: what names no domino but could read as one (``11-28`` holds ``1-2``): moments and
#: page addresses
NOT_DOMINOES = re.compile(r"\d{4}-\d\d-\d\d[T ][\d:.+]+|/g/\d+-[a-z2-7]{16}")


@pytest.fixture
async def site(store):
    service = Service(store, images=False, seed=lambda: 77)
    async with serving(service, Web(port=0)) as served, aiohttp.ClientSession() as http:
        yield service, served.listening, http


async def read(http: aiohttp.ClientSession, url: str) -> bytes:
    async with http.get(url) as resp:
        assert resp.status == 200, url
        return await resp.read()


async def play_through(service: Service, table: Table, key: str, players: int, seed: int):
    """Open and start a game of robots; yield each position as it is stored, the
    start's too, until the game is over."""
    seats = robots(players)
    by_id = {c.user_id: c for c in seats}
    await service.lobby.create(table, seats[0], key)
    for caller in seats[1:]:
        await service.lobby.join(table, caller)
    reply = await service.lobby.start(table, seats[0])
    rng = random.Random(seed)
    while True:
        yield await service.games.latest(table)
        if not reply.playable:
            return
        caller = by_id[rng.choice(reply.awaiting)]
        moves = await service.play.legal_moves(table, caller)
        busy = [m for m in moves if m != "end"]  # Bridges and Boats: get on with it
        text = rng.choice(busy) if busy and rng.random() < 0.75 else rng.choice(moves)
        reply = await service.play.move(table, caller, text)


async def test_no_page_or_export_of_a_whole_game_names_a_face_down_domino(site):
    service, base, http = site
    table = Table(channel_id=71, guild_id=1)
    revealed: set = set()
    positions = 0
    async for game in play_through(service, table, "bridges-and-boats", 2, 3):
        state = game.state
        revealed |= set(state.planes) | set(state.cannons) | set(state.discard)
        revealed |= {d for d in state.bridge if d is not None}
        revealed |= {b.domino for b in state.boats if b.soldiers}
        hidden = set(DOUBLE_SIX) - revealed
        assert hidden
        path = await service.pages.path(game.row.id)
        for export in EXPORTS:
            text = NOT_DOMINOES.sub("", (await read(http, base + path + export)).decode())
            assert not _hidden_in(text, hidden), (export, _hidden_in(text, hidden))
        positions += 1
    assert positions > 20 and game.row.status == "finished"
    await board_is_public(service, base, http, game)


async def test_no_page_or_export_of_a_whole_game_depends_on_the_hands_or_the_deck(site):
    """Battle for Seven Cities: every page and export, read over HTTP, is exactly what
    the same position gives with every hand and the deck swapped for other cards (in
    more than 20 positions with cards in hand)."""
    service, base, http = site
    table = Table(channel_id=72, guild_id=1)
    positions = 0
    async for game in play_through(service, table, "seven-cities", 3, 5):
        positions += any(game.state.hands)
        other = swapped(game)
        path = await service.pages.path(game.row.id)
        page, twin = await service.pages.page(game), await service.pages.page(other)
        assert (await read(http, base + path)).decode() == game_page(twin, path)
        assert (await read(http, base + path + "/record.txt")).decode() == record_text(twin)
        assert record_json(page) == record_json(twin)
    assert positions > 20 and game.row.status == "finished"
    await board_is_public(service, base, http, game, swapped(game))


def swapped(game: Loaded) -> Loaded:
    """``game`` with what no spectator sees changed: each hand other cards, the decks
    turned over."""
    state = game.state
    hands = tuple(("points2",) * len(hand) for hand in state.hands)
    state = replace(state, hands=hands, deck=state.deck[::-1], past_deck=state.past_deck[::-1])
    return replace(game, state=state)


async def board_is_public(service, base, http, game: Loaded, twin: Loaded | None = None):
    """The board now and the first move's are pictures of the public view (and the same
    as the twin's, whose secrets differ)."""
    service.context.images = True
    rules, key = engine.get(game.row.game_key), game.row.game_key
    path = await service.pages.path(game.row.id)
    now = await read(http, base + path + "/board.png")
    assert now == render(key, rules.view(game.state, None), game.names)
    if twin is not None:
        assert now == render(key, rules.view(twin.state, None), game.names)
    log = await service.store.moves(game.row.id)
    first = rules.play(rules.new(len(game.seats), game.row.options, game.row.seed),
                       log[0].seat, log[0].action).state  # fmt: skip
    assert await read(http, base + path + "/board/1.png") == render(
        key, rules.view(first, None), game.names
    )
