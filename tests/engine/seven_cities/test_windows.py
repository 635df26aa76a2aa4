"""Reaction windows, answered out of turn: Defend City, Sands of Time, Metropolis."""

from __future__ import annotations

from tests.engine.seven_cities.conftest import (
    T,
    burn_table,
    cities,
    g,
    owner,
    play,
    public,
    refused,
    table,
)


def test_burn_city_waits_for_every_other_player_then_burns():
    state = burn_table(hands=[("burn",), (), ("defend",)])
    state, events = play(state, 0, "play burn")
    assert g.reaction_open(state)
    assert g.to_play(state) == (1, 2), "holder or not, both others are asked"
    assert "Defend City, or `pass`" in public(events)
    assert [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    assert [g.format(a) for a in g.legal(state, 2)] == ["play defend", "pass"]
    assert "waiting for" in refused(state, 0, "end")
    state, _ = play(state, 2, "pass")
    assert g.to_play(state) == (1,) and owner(state, "f1a") == 1
    state, events = play(state, 1, "pass")
    assert owner(state, "f1a") is None and "burns" in public(events)
    assert state.red == ("burn",) and g.to_play(state) == (0,)


def test_defend_city_negates_the_attack_and_sends_it_to_blue():
    state = burn_table(hands=[("burn",), ("defend",), ("defend",)])
    state, _ = play(state, 0, "play burn")
    state, _ = play(state, 2, "play defend")
    state, events = play(state, 1, "play defend")
    assert owner(state, "f1a") == 1
    assert "seat1}'s Defend City negates Burn City" in public(events).replace("{", "")
    assert state.blue == ("burn",) and state.red == ("defend",)
    assert state.hands[1] == () and state.hands[2] == ("defend",), "first in turn order wins"


def test_hostile_takeover_replaces_a_rival_city_next_to_yours():
    state = table(
        players=2,
        hands=[("takeover",), ()],
        cities=cities(("f1a", 0), ("f1b", 1), ("f3d", 1)),
    )
    assert [g.format(m) for m in g.legal(state, 0) if "takeover f" in g.format(m)] == [
        "play takeover f1b"
    ]
    assert "not a rival city next to" in refused(state, 0, "play takeover f3d")
    state, _ = play(state, 0, "play takeover f1b")
    assert g.to_play(state) == (1,)
    state, events = play(state, 1, "pass")
    assert owner(state, "f1b") == 0 and "takes over" in public(events)
    state, _ = play(state, 0, "end")
    assert state.hands[0] == (), "a takeover earns no card"


def test_a_metropolis_window_asks_the_owner_whose_city_gets_crowded():
    state = table(
        ap=6,
        at="f1d",
        hands=[(), ("metropolis",)],
        cities=cities(("f1b", 1), ("f1c", 0), ("f2a", 0)),
    )
    state, events = play(state, 0, "build")  # f1d is the third neighbour of seat 1's f1b
    assert g.reaction_open(state) and g.to_play(state) == (1,)
    assert [g.format(a) for a in g.legal(state, 1)] == ["play metropolis f1b", "pass"]
    state, _ = play(state, 1, "play metropolis f1b")
    assert [c.size for c in state.cities if c.tile == T("f1b")] == [2]
    assert g.to_play(state) == (0,)


def test_a_metropolis_window_asks_holders_and_others_alike():
    state = table(at="f1d", ap=6, cities=cities(("f1b", 1), ("f1c", 0), ("f2a", 0)))
    state, _ = play(state, 0, "build")
    assert g.to_play(state) == (1,) and [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    state, _ = play(state, 1, "pass")
    state, _ = play(state, 0, "end")
    assert g.to_play(state) == (1,) and not g.reaction_open(state), "answered: not asked again"


def test_sands_of_time_removes_a_past_build_under_your_future_city():
    state = table(at="p1a", ap=5, hands=[(), ("sands",)], cities=cities(("f1a", 1)))
    state, events = play(state, 0, "build")
    assert g.to_play(state) == (1,) and "Sands of Time, or `pass`" in public(events)
    state, events = play(state, 1, "play sands")
    assert owner(state, "p1a") is None and owner(state, "f1a") == 1
    assert state.red == ("sands",) and g.to_play(state) == (0,)


def test_sands_of_time_window_is_asked_without_the_card_and_pass_keeps_the_city():
    state = table(at="p1a", ap=5, cities=cities(("f1a", 1)))
    state, _ = play(state, 0, "build")
    assert [g.format(a) for a in g.legal(state, 1)] == ["pass"]
    state, _ = play(state, 1, "pass")
    assert owner(state, "p1a") == 0
    own = table(at="p1a", ap=5, cities=cities(("f1a", 0)))
    own, _ = play(own, 0, "build")
    assert not g.reaction_open(own), "nobody to ask above your own future city"


def test_reaction_cards_are_not_played_on_your_own_turn():
    state = table(hands=[("defend", "sands"), ()])
    assert "reaction window" in refused(state, 0, "play defend")
    state, _ = play(state, 0, "ap defend")
    assert state.ap == 3


def test_resigning_passes_the_turn_and_answers_a_window():
    state = burn_table(hands=[("burn",), (), ()])
    state, _ = play(state, 0, "play burn")
    state, _ = play(state, 1, "resign")
    assert g.to_play(state) == (2,)
    state, _ = play(state, 2, "pass")
    assert owner(state, "f1a") is None
    state, _ = play(state, 2, "resign")
    assert g.is_over(state) and g.result(state).places[0] == 1
