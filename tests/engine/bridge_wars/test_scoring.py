"""Scoring from the top (scoring.py, RULINGS §2.5) and our [P] tie-breaks."""

from __future__ import annotations

from tests.engine.bridge_wars.conftest import BLUE, RED, drop_in, g, red_blue, seat_of, started


def test_each_rod_scores_for_the_colour_on_top_and_brass_scores_5():
    state = red_blue()
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert g.result(state).scores[red] == 4 and g.result(state).scores[blue] == 4
    state = drop_in(state, RED, "I3 h e6")  # e6, f6 (brass), g6
    assert g.result(state).scores[red] == 4 + 1 + 5 + 1
    state = drop_in(state, BLUE, "I2 h f6")  # blue covers f6 and g6
    assert g.result(state).scores[red] == 4 + 1
    assert g.result(state).scores[blue] == 4 + 5 + 1


def test_most_points_wins():
    state = drop_in(red_blue(), RED, "I3 h c1")
    result = g.result(state)
    assert result.places[seat_of(state, RED)] == 1 and result.places[seat_of(state, BLUE)] == 2
    assert result.detail == ""


def test_ties_go_to_the_brass_rod_then_to_rods_held_at_the_top_layer():
    state = drop_in(red_blue(), RED, "I2 h f6")  # red: 4 + brass 5 + 1 = 10
    state = drop_in(state, BLUE, "I3 h c1", "I3 h c2")  # blue: 4 + 6 = 10
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    result = g.result(state)
    assert result.scores[red] == result.scores[blue] == 10
    assert result.places[red] == 1 and result.places[blue] == 2
    assert "brass" in result.detail

    state = started("red sw", "blue ne", height=4)
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    state = drop_in(state, RED, *["I2 h c1"] * 4)  # c1, d1 red at level 4, the top
    state = drop_in(state, BLUE, "I2 h h10")  # h10, i10 blue at level 1
    result = g.result(state)
    assert result.scores[red] == result.scores[blue] == 6
    assert result.places[red] == 1, "red holds 2 rods at the top layer, blue none"

    state = started("red sw", "blue ne")
    result = g.result(state)
    assert result.places == (1, 1), "a complete tie is shared"
