"""The end of a turn and of a round: discards, drawing, the timeshift, winning."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_cities.cards import sort_hand
from engine.seven_cities.state import DISCARD, ROUND_CAP, TURN, City
from tests.engine.seven_cities.conftest import T, cities, g, owner, play, public, refused, table


def test_discard_down_to_two_at_the_end_of_the_turn():
    state = table(hands=[("burn", "wall", "army", "points2"), ()])
    state, events = play(state, 0, "end")
    assert state.stage == DISCARD and g.to_play(state) == (0,)
    assert "must discard 2" in public(events)
    assert "Discard down to 2" in refused(state, 0, "move f1b")
    state, _ = play(state, 0, "discard wall")
    assert state.stage == DISCARD
    state, _ = play(state, 0, "discard army")
    assert state.hands[0] == sort_hand(("burn", "points2"))
    assert state.turn == 1 and state.stage == TURN
    assert state.blue[-2:] == ("wall", "army")


def test_an_empty_draw_pile_reshuffles_blue_but_never_red():
    state = table(deck=(), blue=("wall",), red=("burn", "army"))
    state = replace(state, turn=1)  # seat 1 ends the round: seat 1 opens the next
    state, events = play(state, 1, "end")
    assert "blue discard pile (1 card) is shuffled" in public(events)
    assert sum(len(h) for h in state.hands) == 1, "one card to go round, red stays out"
    assert state.red == ("burn", "army") and state.blue == ()
    assert "Both the draw pile and the blue discard pile are empty" in public(events)


def test_unused_action_points_are_lost():
    state = table(ap=3)
    state, events = play(state, 0, "end")
    assert "3 unused AP lost" in public(events)
    assert state.ap == 0 and state.turn == 1


def test_the_last_player_of_a_round_opens_the_next():
    state = table(players=3, turn=2, deck=())
    state, _ = play(state, 2, "end")
    assert state.first == 2 and state.turn == 2
    state, _ = play(state, 2, "end")
    assert state.turn == 0, "play goes clockwise from the first player"


def test_the_timeshift_copies_past_cities_forward_except_onto_shields():
    state = table(
        players=3,
        turn=2,
        cities=cities(("p1a", 0), ("f1a", 1), ("p1b", 2), ("f1b", 1), ("f1c", 1)),
        shields=((T("f1b"), 1),),
    )
    state, events = play(state, 2, "end")
    assert owner(state, "f1a") == 0, "the past city replaces the future one"
    assert owner(state, "f1b") == 1, "a shielded future tile keeps its city"
    assert owner(state, "f1c") == 1, "an empty past tile erases nothing"
    assert "shields keep f1b" in public(events)
    assert state.first == 2, "the Time-Shift card passes counter-clockwise (0 -> 2)"
    assert state.turn == 2 and state.round == 2


def test_the_timeshift_skips_an_owner_with_no_token_left():
    past = [(f"p{g_}{c}", 1) for g_ in (1, 2, 3) for c in "abcd" if f"{g_}{c}" != "1d"]
    state = table(turn=1, cities=cities(*past, ("f2a", 1), ("f2b", 1), ("f2c", 1), ("f1a", 0)))
    assert sum(c.size for c in state.cities if c.owner == 1) == 14
    state, events = play(state, 1, "end")
    assert owner(state, "f1a") == 0 and owner(state, "f1b") is None
    assert "no token left for f1a, f1b" in public(events)


def test_seven_future_cities_end_the_game_at_the_end_of_the_round():
    seven = [(f"f{g_}{c}", 0) for g_, c in zip("1112222", "abcabcd", strict=True)]
    state = table(cities=cities(*seven, ("f3a", 1)))
    state, _ = play(state, 0, "end")
    assert not g.is_over(state), "only at the end of a round"
    state, events = play(state, 1, "end")
    assert g.is_over(state) and "reached 7 future cities" in public(events)
    result = g.result(state)
    assert result.scores == (7, 1) and result.places == (1, 2)


def test_ties_go_to_most_future_cities_on_water_then_most_cities():
    state = table(
        players=3,
        cities=cities(("f1a", 0), ("f1b", 0), ("f1d", 1), ("f3b", 1), ("f2a", 2), ("f2b", 2)),
    )
    result = g.result(replace(state, over="goal"))
    assert result.scores == (2, 2, 2)
    assert result.places == (2, 1, 2), "seat 1 has both cities on water"
    more = replace(state, cities=state.cities + (City(T("p1a"), 2),), over="goal")
    more = replace(more, cities=tuple(sorted(more.cities, key=lambda c: c.tile)))
    assert g.result(more).places == (3, 1, 2), "then most cities in all [P]"


def test_a_metropolis_counts_two():
    state = table(cities=cities(("f1a", 0, 2), ("f1b", 1)), over="goal")
    assert g.result(state).scores == (2, 1)


def test_the_round_cap_ends_random_play():
    state = table(round=ROUND_CAP, turn=1)
    state, events = play(state, 1, "end")
    assert g.is_over(state) and state.over == "cap"
    assert "round limit" in public(events)
