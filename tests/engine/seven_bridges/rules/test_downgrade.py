"""Stuck: downgrade and discard (rulebook "Drafting: Downgrade", RULINGS §1.8 [P]).

A seat none of whose dice fits anywhere is asked to downgrade the lowest die, or, while a
horse is out, to discard one; a downgraded die is drawn before anything else.
"""

from __future__ import annotations

from engine.seven_bridges.actions import Downgrade, Pick
from engine.seven_bridges.dice import KINDS
from engine.seven_bridges.lines import ALL_ARMS
from tests.engine.seven_bridges.conftest import START, arms, g, play, position, refusal

BOXED = arms("r2c9:W", "r2c8:E")  # a line from r2c9's centre west to r2c8's centre


def test_downgrade_turns_the_lowest_die_up_until_it_fits_and_then_it_must_be_used():
    # only half faces and horses fit a lone line; no horse is out: cross -> ... -> half
    state = position(BOXED, dice=(1, 1, 2, 1, 2, 1))
    assert [g.format(a) for a in g.legal(state, 0)] == ["downgrade cross2", "downgrade cross3"]
    assert "lowest" in refusal(state, 0, "downgrade tee2")
    step = g.apply(state, 0, Downgrade(3, 1))
    after, events = step.state, step.events
    die = after.committed
    assert KINDS[die] == 3 and after.dice[die] == 5  # only a half fits beside a lone line
    legal = g.legal(after, 0)
    assert legal and all(isinstance(a, Pick) and (a.kind, a.value) == (3, 5) for a in legal)
    assert refusal(after, 0, "tee2 r2c8 new").startswith("Continuity")
    assert any("downgrades cross3" in e.text for e in events)


def test_the_downgraded_die_is_drawn_before_anything_else():
    state = play(position(BOXED, dice=(1, 1, 2, 1, 2, 1)), 0, "downgrade cross3")
    reason = "Continuity: you have drafted a die by downgrading; draw it first."
    for text in ("downgrade cross2", "reroll", "discard cross2", "roll"):
        assert refusal(state, 0, text) == reason


def test_downgrade_only_when_nothing_fits_and_no_horse_is_out():
    fits = position(START, dice=(2, 1, 1, 1, 1, 1))
    assert "the tee2 fits on your map" in refusal(fits, 0, "downgrade cross2")
    assert "the tee2 fits on your map" in refusal(fits, 0, "discard cross2")
    full = position(ALL_ARMS, dice=(1, 2, 6, 3, 4, 5))
    reason = refusal(full, 0, "downgrade cross2")
    assert reason.startswith("Downgrade") and "horse" in reason
    # nothing fits, not even the horse: discard a die instead
    assert {g.format(a) for a in g.legal(full, 0)} == {
        "discard cross2",
        "discard tee2",
        "discard horse2",
        "discard corner3",
        "discard straight3",
        "discard half3",
    }
    after = play(full, 0, "discard horse2")
    assert after.seats[0].wasted == 1 and after.slot == 1


def test_a_stuck_seat_is_told_to_downgrade_or_discard_rather_than_draw():
    stuck = position(BOXED, dice=(1, 1, 2, 1, 2, 1))
    assert refusal(stuck, 0, "cross2 ii-2-2") == (
        "None of your dice fits on your map: downgrade the lowest (`downgrade cross2`)."
    )
    full = position(ALL_ARMS, dice=(1, 2, 6, 3, 4, 5))
    assert "not even the horse: discard" in refusal(full, 0, "horse2 ii-2-3 w1")
    boxed = position(BOXED, dice=(1, 1, 1, 1, 1, 1))
    assert refusal(boxed, 0, "discard cross2").startswith("Downgrade: nothing fits")


def test_a_downgrade_that_never_fits_wastes_the_die():
    full = position(ALL_ARMS, dice=(1, 1, 1, 1, 1, 1))
    step = g.apply(full, 0, Downgrade(2, 1))
    after, events = step.state, step.events
    assert after.seats[0].wasted == 1 and after.slot == 1
    assert any("wasted" in e.text for e in events)


def test_downgrade_chain_ends_on_the_first_face_that_fits():
    # no cross fits beside the rulebook's start square, a tee does
    state = position(START, dice=(1, 1, 1, 1, 1, 1))
    assert not [a for a in g.legal(state, 0) if isinstance(a, Pick)]
    after = g.apply(state, 0, Downgrade(2, 1)).state
    assert after.dice[after.committed] == 2  # a tee fits against either arm
    assert [g.format(a) for a in g.legal(after, 0)] == ["tee2 ii-1-3 esw", "tee2 ii-2-2 new"]
