"""Move and time travel: what entering a tile costs, railways, walls, the other era."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.seven_cities.conftest import T, play, public, refused, table


def test_travel_pays_the_entered_tiles_cost_and_time_travel_costs_one():
    state = table(hands=[("points4",), ()], at="f1a")
    state, _ = play(state, 0, "ap points4")
    assert state.ap == 4 and state.blue == ("points4",)
    state, _ = play(state, 0, "move f1b", "move f2a")  # future soil: 1 each
    assert state.positions[0] == T("f2a") and state.ap == 2
    assert "Entering f2b costs 3 AP and you have 2" in refused(state, 0, "move f2b")


def test_moving_costs_travel_values_railways_are_free_and_walls_stop_entry():
    state = table(at="f2a", ap=3)
    state, _ = play(state, 0, "move f2b")  # future mountain: 3
    assert state.ap == 0
    state = table(at="p1a", ap=2)
    state, _ = play(state, 0, "move p1c")  # past forest: 2
    assert state.ap == 0
    rail = table(at="f2a", ap=0, railways=((T("f2b"), T("f2c"), T("f2d")),))
    rail, _ = play(rail, 0, "move f2b", "move f2c")
    assert rail.positions[0] == T("f2c") and rail.ap == 0
    wall = table(at="f2a", ap=9, walls=((T("f2b"), T("f2c"), T("f2d")),))
    assert "wall" in refused(wall, 0, "move f2b")
    walled_in = table(at="p2b", ap=1, walls=((T("f2b"), T("f2c"), T("f2d")),))
    walled_in, _ = play(walled_in, 0, "time")
    assert walled_in.positions[0] == T("f2b"), "time travel still reaches a walled tile"
    out, _ = play(replace(walled_in, ap=1), 0, "move f2a")
    assert out.positions[0] == T("f2a"), "leaving a walled tile is allowed"


def test_time_travel_lands_on_the_matching_tile():
    state = table(at="f3c", ap=1)
    state, events = play(state, 0, "time")
    assert state.positions[0] == T("p3c") and state.ap == 0
    assert "to the past" in public(events)
    assert "none" in refused(state, 0, "time")
