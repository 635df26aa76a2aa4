"""The result: soldiers crossed against the coins the defender holds."""

from __future__ import annotations

import pytest

from tests.engine.bridges_and_boats.conftest import dom, g, play, position


@pytest.mark.parametrize(
    ("crossed", "coins", "places", "words"),
    [(4, 3, (1, 2), "attacker wins"), (3, 3, (1, 1), "a tie"), (2, 3, (2, 1), "defender wins")],
)
def test_the_attacker_wins_with_more_soldiers_crossed_than_the_defender_has_coins(
    crossed, coins, places, words
):
    state = position(pool=(dom("4-4"),), coins=(2, coins), crossed=crossed)
    state = play(state, "buy")
    result = g.result(state)
    assert result.scores == (crossed, coins)
    assert result.places == places
    assert words in result.detail
    assert g.view(state, None).places == places
