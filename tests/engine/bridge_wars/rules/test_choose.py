"""Setup (rules/choose.py and the setup stage): colours, corners and starters."""

from __future__ import annotations

from engine.bridge_wars.actions import Choose, Place
from engine.bridge_wars.blocks import NAMES
from engine.bridge_wars.board import STARTERS, name
from tests.engine.bridge_wars.conftest import (
    BLUE,
    GREEN,
    RED,
    g,
    level_of,
    owner_of,
    play,
    refusal,
    seat_of,
    started,
)


def test_setup_goes_in_seat_order_from_a_seat_drawn_at_random():
    firsts = {g.new(3, None, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2}
    state = g.new(3, None, 5)
    first = state.turn
    assert len(g.legal(state, first)) == 16  # 4 colours x 4 corners
    assert {type(a) for a in g.legal(state, first)} == {Choose}
    state = play(state, "green se")
    assert g.to_play(state) == ((first + 1) % 3,)
    assert all(a.colour != GREEN and a.corner != "se" for a in g.legal(state, g.to_play(state)[0]))
    assert len(g.legal(state, g.to_play(state)[0])) == 9


def test_claiming_a_corner_puts_the_starter_in_its_outer_2x2():
    state = started("red ne", "blue sw")
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert state.corners[red] == "ne" and state.corners[blue] == "sw"
    for where in ("j10", "k10", "j11", "k11"):
        assert level_of(state, where) == 1 and owner_of(state, where) == RED
    for where in ("a1", "b1", "a2", "b2"):
        assert level_of(state, where) == 1 and owner_of(state, where) == BLUE
    assert {name(STARTERS[c]) for c in STARTERS} == {"j10", "a10", "j1", "a1"}
    for seat in (red, blue):
        assert state.stock[seat][NAMES.index("O4")] == 0
        assert sum(state.stock[seat]) == 19


def test_a_taken_colour_or_corner_is_refused_naming_who_has_it():
    state = g.new(3, None, 2)
    first = state.turn
    state = play(state, "yellow nw")
    assert refusal(state, "yellow se") == f"Yellow is taken: {{seat{first}}} plays it."
    assert refusal(state, "red nw") == (
        f"The north-west corner is taken: {{seat{first}}} starts there."
    )


def test_the_last_of_four_gets_the_last_colour_and_corner_without_asking():
    state = started("red ne", "blue nw", "yellow se", players=4, seed=3)
    last = (state.first + 3) % 4
    assert state.colours[last] == GREEN and state.corners[last] == "sw"
    assert g.to_play(state) == (state.first,), "setup is over: the first chooser plays"
    moves = g.legal(state, state.first)
    assert moves and all(isinstance(a, Place) for a in moves)


def test_setup_and_play_moves_are_not_mixed_up():
    state = g.new(2, None, 1)
    assert refusal(state, "I2 h f6") == "First choose your colour and corner, e.g. `red ne`."
    state = started("red sw", "blue ne")
    assert refusal(state, "green se") == (
        "Colours and corners are chosen: now put a block into play."
    )


def test_setup_is_its_own_stage():
    state = g.new(2, None, 1)
    assert [stage.name for stage in g.awaited(state).values()] == ["setup"]
    state = started("red sw", "blue ne")
    assert [stage.name for stage in g.awaited(state).values()] == ["turn"]
