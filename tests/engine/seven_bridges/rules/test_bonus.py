"""Landmark bonuses (rules/bonus.py and rules/reserve.py, RULINGS §1.7): a visit's choice
of an immediate shape or a reserved bonus, chained visits, and visits with nothing left."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_bridges.bonuses import RESERVED, USED, Bonuses
from engine.seven_bridges.state import State
from tests.engine.seven_bridges.conftest import g, play, refusal, with_seat


def bonus_position(players: int = 2) -> State:
    """Seat 0 to choose a landmark bonus, drawing from the start square ii-1-1 (r1c7)."""
    state = g.new(players, {"start": "ii-1-1"}, 4)
    state = replace(state, first=0)
    return with_seat(state, 0, pending=1)


def test_a_visit_offers_unused_immediate_shapes_and_reserves_before_anything_else():
    state = bonus_position()
    texts = [g.format(a) for a in g.legal(state, 0)]
    assert "reserve reroll" in texts and "reserve footpaths" in texts
    assert any(t.startswith("bonus horse") for t in texts)
    assert "first choose its bonus" in refusal(state, 0, "tee2 ii-1-1 sw")
    # outside a visit a bonus is refused, and the seat told what it is asked for instead
    calm = with_seat(state, 0, pending=0)
    assert refusal(calm, 0, "reserve reroll") == "Roll the dice first: `roll`."
    rolled = play(calm, 0, "roll")
    assert refusal(rolled, 0, "bonus half r1c7 e").startswith("The dice are already rolled")


def test_bonus_chain_a_bonus_that_passes_a_letter_gives_another_choice():
    state = bonus_position()
    step = g.apply(state, 0, g.parse("bonus straight r1c6 ew"))
    after, events = step.state, step.events
    assert "C" in [e.text.split()[-1].rstrip(".") for e in events if e.kind == "landmark"]
    assert after.seats[0].pending == 1  # one used, one gained
    assert after.seats[0].bonuses.immediate == 1 << 4
    assert g.to_play(after) == (0,)
    assert "already used" in refusal(after, 0, "bonus straight r1c5 ew")
    after = play(after, 0, "reserve reroll")
    assert after.seats[0].pending == 0


def test_reserved_bonuses_are_taken_top_to_bottom_and_footpaths_once():
    state = bonus_position()
    for n in (1, 2, 3):
        state = with_seat(play(state, 0, "reserve reroll"), 0, pending=1)
        assert state.seats[0].bonuses.reserved == n
    assert "all three" in refusal(state, 0, "reserve reroll")
    state = with_seat(play(state, 0, "reserve footpaths"), 0, pending=1)
    assert state.seats[0].bonuses.footpaths == RESERVED
    assert "already" in refusal(state, 0, "reserve footpaths")


def test_a_visit_with_nothing_left_to_take_gives_nothing():
    spent = Bonuses(immediate=0b1111110, reserved=3, spent=3, footpaths=USED)
    state = g.new(2, {"start": "ii-1-1"}, 4)
    state = replace(state, first=0, dice=(4, 5, 5, 5, 5, 5), rolling=False)
    state = with_seat(state, 0, bonuses=spent)
    step = g.apply(state, 0, g.parse("straight2 r1c6 ew"))  # passes C's letter
    after, events = step.state, step.events
    assert after.seats[0].pending == 0
    assert any("no landmark bonus left" in e.text for e in events)
    assert g.to_play(after) == (1,)
