"""Re-roll (rules/reroll.py, RULINGS §1.7): a reserved bonus re-rolls every die still
available, once per turn."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_bridges.actions import Reroll
from tests.engine.seven_bridges.conftest import g, next_faces, refusal, turn_start


def test_reroll_rerolls_every_available_die_once_per_turn():
    # dice 0 and 2 were drafted by the first two picks; seat 0 has the third pick
    state = replace(turn_start(2, (2, 0)), dice=(0, 2, 0, 4, 5, 6), slot=2)
    assert g.to_play(state) == (0,)
    step = g.apply(state, 0, Reroll())
    after, events = step.state, step.events
    # the four dice still out take the generator's next four faces, in die order
    new = next_faces(state.rng, 4)
    assert after.dice == (0, new[0], 0, new[1], new[2], new[3])
    assert after.dice != state.dice
    assert after.seats[0].bonuses.spent == 1
    assert 0 in after.rerolled and g.to_play(after) == (0,)
    assert any("re-roll #1" in e.text for e in events)
    assert "one re-roll/distribute bonus per turn" in refusal(after, 0, "reroll")
    nothing = turn_start(2, (0, 0))
    assert "no reserved" in refusal(nothing, 0, "reroll")
