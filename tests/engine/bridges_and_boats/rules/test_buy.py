"""Buying (step 2): the price, the step order, what only the buyer sees, and the end
of the game when the pool runs out."""

from __future__ import annotations

from engine.bridges_and_boats.state import Boat
from tests.engine.bridges_and_boats.conftest import (
    A,
    D,
    bridge,
    dom,
    events_of,
    g,
    legal,
    play,
    position,
    public,
    refusal,
    spaces,
)


def test_buying_takes_the_top_domino_for_two_coins_and_only_the_buyer_sees_it():
    state = g.new(2, None, 9)
    top = state.pool[0]
    after, events = events_of(state, "buy")
    assert after.coins[A] == 1
    assert after.hands[A] == (top,)
    assert after.pool == state.pool[1:]
    private = [e for e in events if e.seat is not None]
    assert [e.seat for e in private] == [A]
    assert str(top) in private[0].text
    assert str(top) not in public(events)
    assert "27 left in the pool" in public(events)
    assert g.view(after, A).hand == (top,)
    assert g.view(after, D).hand == ()
    assert g.view(after, None).hand is None
    assert g.view(after, None).hand_counts == (1, 0)


def test_a_domino_costs_two_coins():
    state = position(coins=(1, 0))
    assert "costs 2 coins and you have 1 coin" in refusal(state, A, "buy")
    assert "buy" not in legal(state)


def test_buying_comes_before_building():
    state = position(hands=((dom("1-2"),), ()), coins=(5, 0))
    state = play(state, "boat d1")
    reason = refusal(state, A, "buy")
    assert "Step order" in reason
    assert "buying dominoes (step 2) comes before building (step 3)" in reason
    assert "buy" not in legal(state)


def test_the_game_ends_the_moment_the_last_domino_is_bought():
    last = dom("4-4")
    state = position(
        pool=(last,),
        coins=(5, 0),
        bridge=bridge("111111"),
        spaces=spaces(12),
        boats=(Boat(1, dom("1-2"), 2, True),),
        crossed=2,
    )
    state, events = events_of(state, "buy")
    assert g.is_over(state) and g.to_play(state) == ()
    assert "the game ends at once" in public(events)
    assert state.crossed == 2, "soldiers afloat or on the bridge do not count"
    assert "game is over" in refusal(state, A, "advance 1")
    assert g.legal(state, A) == [] and g.legal(state, D) == []
