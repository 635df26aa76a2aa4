"""Whose turn it is and for what, what starts each turn (unloading, income), the turn
limit, and invariants over whole random games."""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.state import Boat
from engine.bridges_and_boats.steps import PLAYING, REROLL
from tests.engine.bridges_and_boats.conftest import (
    A,
    D,
    airfield,
    dom,
    events_of,
    g,
    play,
    position,
    public,
    random_game,
    refusal,
    rolling,
)


def test_income_is_three_coins_at_the_start_of_every_turn():
    state = play(g.new(2, None, 1), "end")
    assert state.coins == (3, 3) and g.to_play(state) == (D,)
    state = play(state, "end")
    assert state.coins == (6, 3) and g.to_play(state) == (A,)


def test_not_your_turn():
    state = position()
    assert refusal(state, D, "buy") == "It is not your turn: waiting for {seat0}."
    assert g.legal(state, D) == []


def test_a_run_waiting_for_the_ghost_pilot_is_its_own_stage():
    """While a roll waits for the ghost's re-roll, the defender is asked for nothing
    else; once answered, the turn's ordinary stage is back."""
    state = airfield("3-5", "0-0", rng=rolling(1, 2, 6, 3, 4))
    assert g.awaited(state) == {D: PLAYING}
    no_roll = "No roll is waiting for the ghost pilot's re-roll."
    assert refusal(state, D, "keep") == no_roll
    assert refusal(state, D, "reroll 3") == no_roll
    step = g.apply(play(state, "fly 3-5", "fly 0-0"), D, g.parse("bomb"))
    waiting = step.state
    assert step.awaited == g.awaited(waiting) == {D: REROLL}
    assert not step.reaction_open, "the defender answers on their own turn"
    for text in ("end", "bomb", "buy", "fly 3-5"):
        assert refusal(waiting, D, text) == REROLL.prompt
    assert "waits for your dice" in REROLL.prompt
    assert refusal(waiting, A, "keep") == "It is not your turn: waiting for {seat1}."
    assert g.awaited(play(waiting, "keep")) == {D: PLAYING}
    assert g.awaited(play(waiting, "reroll 2")) == {D: PLAYING}
    assert g.is_over(g.apply(waiting, D, g.parse("resign")).state), "resigning is any time"


def test_is_legal_answers_without_listing_any_action(monkeypatch):
    """The point of ``is_legal``: a rule's refusal decides one action alone. With every
    rule's targets (and ``legal`` itself) made to fail, it still agrees with the list
    taken beforehand, for every action listed in some position and for both seats."""
    positions = [state for state, *_ in random_game(1)][::7]
    listed = [{seat: set(g.legal(state, seat)) for seat in (A, D)} for state in positions]
    actions = {action for legal in listed for seat in (A, D) for action in legal[seat]}

    def no_listing(*args):
        raise AssertionError("is_legal listed targets")

    by_action = {rule.action: replace(rule, targets=no_listing) for rule in g.rules}
    monkeypatch.setattr(type(g), "_by_action", by_action)
    monkeypatch.setattr(type(g), "legal", no_listing)
    checked = 0
    for state, legal in zip(positions, listed, strict=True):
        for seat in (A, D):
            for action in actions:
                assert g.is_legal(state, seat, action) == (action in legal[seat])
                checked += 1
    assert checked > 1000 and len(actions) > 20


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
    soldiers_seen = boats_seen = 0
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
            on_bridge = [space for space, occupied in enumerate(state.spaces) if occupied]
            assert all(state.bridge[space // 2] is not None for space in on_bridge), (
                "a soldier stands on nothing"
            )
            afloat = [b.soldiers for b in state.boats if b.launched]
            assert all(1 <= n <= 2 for n in afloat), "a boat crossed empty or overloaded"
            soldiers_seen += len(on_bridge)
            boats_seen += len(afloat)
        assert g.is_over(state)
    assert soldiers_seen and boats_seen, (
        "the games never put a soldier on the bridge or a boat across"
    )
