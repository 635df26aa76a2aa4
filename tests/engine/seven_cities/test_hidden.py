"""What a seat sees, and whole random games keeping every card and token accounted for."""

from __future__ import annotations

import random

from engine.core import Rng
from engine.seven_cities.cards import deck_for
from tests.engine.seven_cities.conftest import g, table


def test_the_public_view_holds_counts_only():
    state = table(hands=[("burn", "defend"), ("sands",)])
    public_view = g.view(state, None)
    assert public_view.hand is None and public_view.hand_counts == (2, 1)
    assert "defend" not in repr(public_view) and "sands" not in repr(public_view)
    assert g.view(state, 0).hand == ("burn", "defend")


def test_random_play_keeps_every_card_and_city_token_accounted_for():
    """Cards only move between deck, hands, piles and a window; nobody exceeds 14 tokens;
    every hand is down to 2 whenever a turn passes."""
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        rnd = random.Random(seed)
        turns_passed = 0
        state = g.new(players, None, seed)
        deck = sorted(deck_for(players))
        while not g.is_over(state):
            seat = rnd.choice(g.to_play(state))
            turn, stage, round_ = state.turn, state.stage, state.round
            state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
            held = [w.card for w in state.windows if w.card]
            cards = [*state.deck, *state.blue, *state.red, *held]
            assert sorted(cards + [c for h in state.hands for c in h]) == deck
            for s in range(players):
                assert sum(c.size for c in state.cities if c.owner == s) <= 14
            passed = state.turn != turn and state.round == round_ and stage != "start"
            hand = len(state.hands[turn]) if passed else 0
            assert hand <= 2, "a turn ends with at most 2 cards"
            turns_passed += passed
        assert turns_passed > 10, "turns passed within rounds, so the hand limit was checked"


def test_a_state_sampled_in_any_open_window_offers_what_the_real_one_does():
    """The computer players search states sampled from a view: in every kind of reaction
    window (Defend City, Sands of Time, Metropolis) each seat's sampled world must list
    exactly the answers the real one does — a Metropolis window offers only the chances
    new since the last window, not every city that could grow now."""
    kinds: set[str] = set()
    checked = 0
    for players, seed in ((2, 4), (3, 5), (4, 6), (5, 7), (6, 8)):
        for game in range(6):
            rnd = random.Random(seed * 100 + game)
            state = g.new(players, None, seed * 100 + game)
            while not g.is_over(state):
                if state.windows:
                    kinds.add(state.windows[0].kind)
                    for seat in range(players):
                        seen = g.view(state, seat)
                        sampled = g.sample(seen, Rng(checked))
                        assert g.view(sampled, seat) == seen
                        assert g.legal(sampled, seat) == g.legal(state, seat), (
                            state.windows[0].kind,
                            seat,
                        )
                        checked += 1
                seat = rnd.choice(g.to_play(state))
                state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
    assert kinds == {"defend", "sands", "metropolis"}, kinds
