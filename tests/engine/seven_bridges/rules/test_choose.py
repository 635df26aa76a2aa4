"""The advanced rule (rules/choose.py, rulebook end of "Scoring"): each bridge crossed
chooses at once the item it scores."""

from __future__ import annotations

from engine.seven_bridges.scoring import cards
from tests.engine.seven_bridges.conftest import g, play, refusal


def test_advanced_rule_each_crossing_chooses_the_item_it_scores():
    state = g.new(2, {"start": "r3c5", "advanced": True}, 6)  # Smith's Bridge itself
    assert state.setup and g.to_play(state) == (0, 1)
    assert {g.format(a) for a in g.legal(state, 0)} == {
        "score loop",
        "score bridges",
        "score landmarks",
        "score buildings",
        "score trees",
        "score grid",
        "score drafting",
    }
    assert "choose the item" in refusal(state, 0, "reserve reroll")
    state = play(play(state, 0, "score trees"), 1, "score grid")
    assert state.seats[0].chosen == ("trees",)
    card = cards(state)[0]
    assert card.total == card.items[4]
    standard = g.new(2, {"start": "r3c5"}, 6)
    assert standard.seats[0].pending_items == 0
