"""Whole Seven Bridges games: random play from every seat count ends, replays exactly and
scores; and through the service, as `python -m bot selfplay` plays."""

from __future__ import annotations

import random

import pytest

from bot.service import Table
from bot.tools.selfplay import play_random
from engine.seven_bridges import euler
from engine.seven_bridges.lines import bits
from engine.seven_bridges.scoring import cards
from tests.engine.seven_bridges.conftest import g, random_game


@pytest.mark.parametrize("players", [1, 2, 4, 5, 6])
def test_whole_random_games_end_and_replay_exactly(players):
    final, log, _ = random_game(players, 30 + players)
    assert g.is_over(final) and g.to_play(final) == ()
    replayed = g.replay(players, None, 30 + players, log)
    assert g.to_json(replayed) == g.to_json(final)
    assert g.to_json(g.from_json(g.to_json(final))) == g.to_json(final)
    result = g.result(final)
    assert len(result.scores) == players
    if players == 1:
        them = euler.total(cards(final)[0])
        assert "Euler scores" in result.detail
        assert result.places == ((2,) if result.scores[0] < them else (1,))
    else:
        assert 1 in result.places
    view = g.view(final, None)
    assert view.over and view.places == result.places
    assert all(bits(final.seats[s].drawn) == list(view.seats[s].drawn) for s in range(players))


def test_advanced_whole_game_scores_the_chosen_items():
    final, _, _ = random_game(3, 8, {"advanced": "on"})
    for seat, card in zip(final.seats, cards(final), strict=True):
        assert len(seat.chosen) == card.crossed
        assert card.total == sum(card.items[i] for i in card.counted)


# -- through the service, as `python -m bot selfplay` plays ---------------------------------------


async def test_whole_games_through_the_service_for_1_2_4_5_and_6_players(service):
    rnd = random.Random(7)
    for n, players in enumerate((1, 2, 4, 5, 6)):
        played = await play_random(
            service, Table(channel_id=7000 + n, guild_id=1), "seven-bridges", players, rnd, seed=n
        )
        assert not played.final.playable
        assert "Game over" in played.final.text
        assert played.moves >= 30
        if players == 1:  # random play loses to Euler, and the announcement says so
            assert "\n2nd P1 — " in played.final.text and "1st" not in played.final.text
            assert ": Euler wins by " in played.final.text
