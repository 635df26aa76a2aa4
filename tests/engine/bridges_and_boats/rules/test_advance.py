"""Advancing (attacker, step 4): one space a turn, front first, never past a gap."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.bridges_and_boats.conftest import (
    A,
    bridge,
    events_of,
    legal,
    play,
    position,
    public,
    refusal,
    spaces,
)


def test_soldiers_advance_one_space_front_first_and_a_file_moves_up_together():
    state = position(bridge=bridge("111111"), spaces=spaces(1, 2, 3))
    assert [t for t in legal(state) if t.startswith("advance")] == [
        "advance 1",
        "advance 2",
        "advance 3",
    ]
    assert play(state, "advance 3").spaces == spaces(2, 3, 4)
    assert play(state, "advance 1").spaces == spaces(1, 2, 4), "the one furthest ahead moves first"
    assert play(state, "advance 2").spaces == spaces(1, 3, 4)


def test_a_soldier_waits_at_a_gap_and_those_behind_still_move():
    state = position(bridge=bridge("110111"), spaces=spaces(4, 1))
    # space 5 is on the missing section 3: the soldier on 4 waits, the one on 1 moves
    assert legal(state).count("advance 1") == 1 and "advance 2" not in legal(state)
    assert play(state, "advance 1").spaces == spaces(4, 2)


def test_moving_off_space_twelve_is_crossing():
    state = position(bridge=bridge("111111"), spaces=spaces(12, 11), crossed=2)
    state, events = events_of(state, "advance 2")
    assert state.spaces == spaces(12)
    assert state.crossed == 3
    assert "1 soldier crossed the river (3 in all)" in public(events)


def test_soldiers_advance_once_a_turn():
    state = play(position(bridge=bridge("111111"), spaces=spaces(3)), "advance 1")
    assert "already advanced" in refusal(state, A, "advance 1")


def test_nobody_can_advance_past_a_destroyed_section():
    state = position(bridge=bridge("100000"), bombed=frozenset({1}), spaces=spaces(2))
    assert "No soldier on the bridge can move" in refusal(state, A, "advance 1")
    assert not [t for t in legal(state) if t.startswith("advance")]


def test_soldiers_advance_before_new_ones_enter():
    state = position(bridge=bridge("111111"), spaces=spaces(1))
    moved = play(state, "advance 1", "enter")
    assert moved.spaces == spaces(1, 2)
    entered = play(replace(state, spaces=spaces(2)), "enter")
    reason = refusal(entered, A, "advance 1")
    assert "advancing soldiers on the bridge (step 4) comes before sending a soldier" in reason
