"""Whose turn it is and for what, what starts each turn (unloading, income), the turn
limit, and invariants over whole random games."""

from __future__ import annotations

from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.state import Boat
from tests.engine.bridges_and_boats.conftest import (
    A,
    D,
    dom,
    events_of,
    g,
    play,
    position,
    public,
    random_game,
    refusal,
)


def test_income_is_three_coins_at_the_start_of_every_turn():
    state = play(g.new(2, None, 1), "end")
    assert state.coins == (3, 3) and g.to_play(state) == (D,)
    state = play(state, "end")
    assert state.coins == (6, 3) and g.to_play(state) == (A,)


def test_not_your_turn():
    state = position()
    assert "not your turn" in refusal(state, D, "buy")
    assert g.legal(state, D) == []


def test_boats_that_arrive_unsunk_unload_before_the_attackers_next_income():
    state = position(
        turn=D,
        boats=(Boat(1, dom("2-5"), 2, True), Boat(2, dom("1-3"), 1)),
        boats_built=2,
        crossed=1,
        coins=(0, 0),
    )
    state, events = events_of(state, "end")
    assert state.crossed == 3
    assert state.boats == (Boat(2, dom("1-3"), 1),), "a boat still on the bank stays"
    assert state.discard == (dom("2-5"),)
    texts = [e.text for e in events]
    unload = next(i for i, t in enumerate(texts) if "unloads 2 soldiers" in t)
    income = next(i for i, t in enumerate(texts) if "income" in t)
    assert unload < income


def test_the_game_stops_after_one_hundred_turns():
    state = g.new(2, None, 3)
    for _ in range(99):
        state = play(state, "end")
    assert not g.is_over(state)
    state, events = events_of(state, "end")
    assert g.is_over(state) and state.over == "cap" and state.turns == 100
    assert "100 turns" in public(events)
    assert g.result(state).places == (2, 1), "the defender holds more coins than 0 crossed"


def test_random_games_keep_every_domino_and_coin_in_order():
    for seed in range(6):
        for _, _, _, state, _ in random_game(seed):
            places = [
                *state.pool,
                *state.hands[A],
                *state.hands[D],
                *(d for d in state.bridge if d is not None),
                *(b.domino for b in state.boats),
                *state.planes,
                *state.cannons,
                *state.discard,
            ]
            assert sorted(places) == sorted(DOUBLE_SIX), "a domino was lost or doubled"
            assert min(state.coins) >= 0
            for space, occupied in enumerate(state.spaces):
                if occupied:
                    assert state.bridge[space // 2] is not None, "a soldier stands on nothing"
            assert all(1 <= b.soldiers <= 2 for b in state.boats if b.launched)
        assert g.is_over(state)
