"""Resigning (the core's, then ``flow.resigned``): any time, even during setup; the
resigned finish last."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove, Resign
from tests.engine.bridge_wars.conftest import (
    BLUE,
    drop_in,
    g,
    play,
    play_first_legal,
    red_blue,
    seat_of,
    started,
)


def test_resigning_passes_the_turn_and_finishes_last():
    state = started("red sw", "blue ne", "green nw", players=3)
    mover = g.to_play(state)[0]
    step = g.apply(state, mover, Resign())
    state, events = step.state, step.events
    assert events[0].text == f"{{seat{mover}}} resigned."
    assert g.to_play(state) == ((mover + 1) % 3,)
    assert not g.is_over(state)
    state = drop_in(state, state.colours[mover], "I3 h e6")  # their blocks stay in play
    assert g.result(state).places[mover] == 3
    for _ in range(4):  # the resigned seat is skipped
        assert g.to_play(state)[0] != mover
        state = play_first_legal(state)


def test_resigning_with_two_players_ends_the_game():
    state = red_blue()
    blue = seat_of(state, BLUE)
    state = g.apply(state, blue, Resign()).state  # not blue's turn: still allowed
    assert g.is_over(state) and state.ending == "resign"
    assert g.result(state).places[blue] == 2
    with pytest.raises(IllegalMove, match="over"):
        g.apply(state, blue, Resign())


def test_a_seat_resigns_only_once():
    state = started("red sw", "blue ne", "green nw", players=3)
    quitter = (g.to_play(state)[0] + 1) % 3
    state = g.apply(state, quitter, Resign()).state
    assert g.refusal(state, quitter, Resign()) == "You have already resigned."


def test_resigning_during_setup_skips_the_seat():
    state = g.new(3, None, 0)
    first = state.turn
    state = play(state, "red sw")
    quitter = g.to_play(state)[0]
    state = g.apply(state, quitter, Resign()).state
    last = (first + 2) % 3
    assert g.to_play(state) == (last,)
    state = play(state, "blue ne")
    assert g.to_play(state) == (first,), "setup is over and the first chooser plays"
    assert state.colours[quitter] == -1
