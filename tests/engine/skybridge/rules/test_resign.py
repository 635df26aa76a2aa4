"""Resigning: at any time, finishing last, and ending a game of two."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Resign
from tests.engine.skybridge.conftest import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    g,
    play,
    position,
    refusal,
)


def test_resign_any_time_and_finish_last():
    state = position(4, turn=RED, a1="BT YT GR", b1="RT")  # green leads with 6
    step = g.apply(state, GREEN, Resign())  # not green's turn
    state, events = step.state, step.events
    assert any(e.kind == "resign" for e in events)
    assert g.to_play(state) == (RED,)
    assert GREEN in state.resigned
    assert g.result(state).places[GREEN] == 4
    assert "already resigned" in refusal(state, GREEN, "resign")
    state = play(state, RED, "red tall c1")
    state = play(state, BLUE, "blue tall a2")
    state = play(state, YELLOW, "yellow tall b2")
    assert g.to_play(state) == (RED,), "a resigned seat is skipped"
    assert g.result(state).scores[GREEN] == 6 and g.result(state).places[GREEN] == 4


def test_resign_on_turn_passes_the_turn():
    state = replace(g.new(3, None, 1), turn=1)
    state = play(state, 1, "resign")
    assert g.to_play(state) == (2,)
    assert not g.is_over(state)
    state = play(state, 2, "yellow tall a1")
    assert g.to_play(state) == (0,)
    state = play(state, 0, "resign")
    assert g.is_over(state), "one player left: the game is over"
    assert g.result(state).places[2] == 1


def test_2p_game_ends_at_once_when_one_resigns():
    state = position(2, turn=0, a1="BT RR")  # seat 0 leads 3 to 0
    state = play(state, 0, "resign")
    assert g.is_over(state)
    assert g.to_play(state) == ()
    result = g.result(state)
    assert result.places == (2, 1)
    assert result.winners == (1,)


def test_resign_by_waiting_seat_in_2p_also_ends_the_game():
    state = replace(g.new(2, None, 1), turn=0)
    state = play(state, 1, "resign")
    assert g.is_over(state)
    assert g.result(state).winners == (0,)
