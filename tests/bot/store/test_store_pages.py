"""What the web's league, player and server pages read from the store, on every store
(``STORES`` in tests/conftest.py): a player's games, moves and ratings, a server's games
in progress and its page's switch, a league by id."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.domain.ratings import Rating
from bot.store import Store
from tests.bot.store.test_fenced_writes import a_league
from tests.bot.store.test_store_contract import Clock, moved, new_game, started_game


@pytest.fixture
async def store(open_store):
    return await open_store(clock=Clock(timedelta(minutes=10)))


async def test_a_players_games_are_theirs_only_the_latest_first(store: Store):
    first = await started_game(store, channel=1, users=(1, 2))
    second = await started_game(store, channel=2, users=(3, 1))
    await new_game(store, channel=3, creator=2)  # not theirs
    await store.record(first, 2, moved(0, 1, "m1", [1]))
    played = await store.played_games(1)
    assert [g.game_id for g in played] == [first, second]
    assert [(g.game_key, g.status, g.name, g.place) for g in played] == [
        ("skybridge", "active", "user1", None),
        ("skybridge", "active", "user1", None),
    ]
    await store.record(first, 3, moved(1, 2, "resign", [], results=[(1, 5), (2, 3)]))
    played = await store.played_games(1)
    assert [(g.game_id, g.status, g.place) for g in played] == [
        (first, "finished", 1),
        (second, "active", None),
    ]
    assert await store.played_games(99) == []


async def test_a_players_move_waits_run_from_the_entry_before_each_move(store: Store):
    """The clock moves ten minutes at each reading: a move's wait is from the entry
    before it in its game's log to the move itself; a game's first move has none."""
    game = await started_game(store, channel=1, users=(1, 2))
    await store.record(game, 2, moved(0, 1, "a", [1]))
    await store.record(game, 3, moved(1, 2, "b", [0]))
    await store.record(game, 4, moved(0, 1, "c", [1]))
    log = await store.moves(game)
    assert await store.move_waits(1) == [(log[1].created_at, log[2].created_at)]
    assert await store.move_waits(2) == [(log[0].created_at, log[1].created_at)]
    assert log[1].created_at < log[2].created_at
    assert await store.move_waits(3) == []


async def test_a_players_ratings_in_every_game_and_server(store: Store):
    table = {
        (5, "skybridge", 1): ("Ada", Rating(27.0, 4.0, 3)),
        (6, "bridge-wars", 1): ("Ada", Rating(30.0, 3.0, 9)),
        (5, "skybridge", 2): ("Bob", Rating(20.0, 5.0, 2)),
    }
    await store.rebuild_ratings(lambda results: table)
    assert await store.player_ratings(1) == [
        (6, "bridge-wars", Rating(30.0, 3.0, 9)),
        (5, "skybridge", Rating(27.0, 4.0, 3)),
    ]
    assert await store.player_ratings(3) == []


async def test_a_servers_games_in_play_and_its_page_switch(store: Store):
    playing = await started_game(store, channel=1)  # guild 9, as every game here
    await new_game(store, channel=2)  # a lobby: not in play
    over = await started_game(store, channel=3)
    await store.abandon(over, 2)
    assert await store.games_in_play(9) == [playing]
    assert await store.games_in_play(10) == []
    assert await store.server_page(9) is False, "off until the managers turn it on"
    await store.set_organiser_role(9, 1234)
    assert await store.server_page(9) is False
    await store.set_server_page(9, True)
    assert await store.server_page(9) is True and await store.server_page(10) is False
    assert await store.organiser_role(9) == 1234, "the other setting is kept"
    await store.set_server_page(9, False)
    assert await store.server_page(9) is False


async def test_a_league_by_its_id_and_the_league_of_a_game(store: Store):
    league_id = await a_league(store)
    league = await store.league_by_id(league_id)
    assert league is not None and (league.id, league.name) == (league_id, "Cup")
    assert league.points == (2, 0)
    assert await store.league_by_id(league_id + 1) is None
    game = await started_game(store)
    assert await store.league_of_game(game) is None
