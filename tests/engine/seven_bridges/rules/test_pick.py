"""Drafting a die and drawing it (engine/seven_bridges/rules/pick.py, RULINGS §1.3, §1.8):
what a seat is offered, which die it may name, and how a pick is announced."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_bridges.actions import Distribute
from engine.seven_bridges.state import available
from tests.engine.seven_bridges.conftest import START, g, position, refusal


def test_legal_offers_each_die_once_per_type_and_face():
    state = position(START, dice=(3, 3, 5, 3, 5, 6))
    texts = [g.format(a) for a in g.legal(state, 0)]
    dies = sorted({t.split()[0] for t in texts if not t.startswith(("reroll", "distribute"))})
    assert dies == ["corner2", "corner3", "half2", "half3", "horse3"]
    assert len(texts) == len(set(texts))
    for text in texts:
        assert g.format(g.parse(text)) == text
    assert available(state, 0) == (0, 1, 2, 3, 4, 5)


def test_pick_must_name_a_die_that_is_out():
    state = position(START, dice=(3, 3, 5, 3, 5, 6))
    assert refusal(state, 0, "tee2 r2c8 new") == (
        "There is no tee2 left; the dice you may take: corner2, corner2, half2, corner3, "
        "half3, horse3."
    )


def test_the_dice_once_rolled_are_drafted_not_rolled_again():
    state = position(START, dice=(3, 3, 5, 3, 5, 6))
    assert refusal(state, 0, "roll") == (
        "The dice are already rolled, and the corner2 fits on your map: draft a die you can draw."
    )


def test_each_pick_is_announced_with_the_die_and_where_it_was_drawn():
    state = replace(g.new(2, {"start": "ii-2-3"}, 11), first=0, rolling=False)
    state = replace(state, dice=(1, 2, 3, 4, 5, 6))
    move = next(m for m in g.legal(state, 0) if not isinstance(m, Distribute))
    events = g.apply(state, 0, move).events
    token, *where = g.format(move).split(" ")
    line = f"Ada took {token} and drew it at {' '.join(where)}."
    assert events[0].describe(["Ada", "Bob"]) == line
