"""The ghost pilot's re-roll: offered only when one die could change the roll."""

from __future__ import annotations

from tests.engine.bridges_and_boats.conftest import (
    D,
    airfield,
    events_of,
    legal,
    play,
    public,
    refusal,
    rolling,
)


def test_the_ghost_offers_a_reroll_of_one_die_when_it_could_turn_a_miss_into_a_hit():
    state = airfield("3-5", "0-0", rng=rolling(1, 2, 6, 3, 4))
    state, events = events_of(play(state, "fly 3-5", "fly 0-0"), "bomb")
    assert state.run is not None and state.run.dice == (1, 2)
    assert legal(state) == ["reroll 1", "reroll 2", "keep"]
    assert "may re-roll one die with the ghost pilot" in public(events)
    assert "waits for your dice" in refusal(state, D, "end")
    assert "No die shows 5" in refusal(state, D, "reroll 5")
    # re-rolling the 2 gives 6: 1 and 6 = 7, still a miss for 3-5
    state, events = events_of(state, "reroll 2")
    assert "re-rolls the 2: it comes up 6" in public(events)
    assert state.run is None
    assert state.dice[-1].dice == (1, 6) and state.dice[-1].rerolled


def test_the_ghosts_reroll_can_make_the_hit():
    # 3-5 rolls 2 and 4 (6); the ghost re-rolls the 4 into a 6: 8 hits; aim 6, 6: section 6
    state = airfield("3-5", "0-0", rng=rolling(2, 4, 6, 6, 6))
    state = play(state, "fly 0-0", "fly 3-5", "bomb", "reroll 4")
    assert state.bridge[5] is None
    assert [(r.dice, r.outcome, r.rerolled) for r in state.dice] == [
        ((2, 6), "hit", True),
        ((6, 6), "sect. 6 destroyed", False),
    ]


def test_no_reroll_is_offered_when_one_die_cannot_change_anything():
    # 6-6 needs two sixes: from 1 and 2 no single re-roll can hit, so the run goes on
    state = airfield("6-6", "0-0", rng=rolling(1, 2))
    state = play(state, "fly 6-6", "fly 0-0", "bomb")
    assert state.run is None
    assert legal(state) == ["end"]


def test_a_deadly_roll_is_not_offered_for_a_reroll_but_its_aim_is():
    state = airfield("3-5", "0-0", rng=rolling(3, 5, 3, 4))
    state = play(state, "fly 3-5", "fly 0-0", "bomb")
    assert state.run.stage == "aim" and state.run.deadly
