"""Bridges and Boats rules (rulebook v2 plus RULINGS §5), each by name, through the engine.

Positions are reached by real moves where that is short, and otherwise built as
``engine.bridges_and_boats.state.State`` values (``dataclasses.replace`` on a fresh game)
so one rule can be looked at on its own. Dice are fixed by giving the state a generator
whose next throws are known: :func:`rolling` finds a seed whose dice come up as asked,
drawn exactly the way the engine draws them.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import replace

import pytest

import engine
from engine.bridges_and_boats.actions import Advance, Board, Build, End, Fly, Reroll
from engine.bridges_and_boats.board import SECTION_OF_SUM
from engine.bridges_and_boats.dominoes import DOUBLE_SIX, Domino
from engine.bridges_and_boats.state import Boat, State
from engine.core import BadOptions, Event, IllegalMove, Rng
from tests.conftest import ADA, BOB, TABLE

g = engine.get("bridges-and-boats")
A, D = 0, 1  # attacker, defender

# -- helpers ---------------------------------------------------------------------------


def dom(text: str) -> Domino:
    domino = Domino.parse(text)
    assert domino is not None
    return domino


@functools.cache
def rolling(*values: int) -> Rng:
    """A generator whose next dice, drawn as the engine draws them, are ``values``."""
    for seed in range(2_000_000):
        rng = Rng.from_seed(seed)
        for value in values:
            drawn, rng = rng.below(6)
            if drawn + 1 != value:
                break
        else:
            return Rng.from_seed(seed)
    raise AssertionError(f"no seed rolls {values}")


def spaces(*occupied: int) -> tuple[bool, ...]:
    """The twelve spaces with soldiers on the given ones (numbered 1–12)."""
    return tuple(n in occupied for n in range(1, 13))


def bridge(spec: str) -> tuple[Domino | None, ...]:
    """'111100' -> sections 1–4 built (with any dominoes: their values never matter)."""
    return tuple(DOUBLE_SIX[20 + i] if c == "1" else None for i, c in enumerate(spec))


def position(turn: int = A, seed: int = 0, **fields) -> State:
    """A fresh game with ``fields`` replaced; the turn starts at step 2 (buying)."""
    return replace(g.new(2, None, seed), turn=turn, **fields)


def play(state: State, *moves: str) -> State:
    """Play ``moves`` for whoever is to play."""
    for text in moves:
        state = g.apply(state, g.to_play(state)[0], g.parse(text)).state
    return state


def events_of(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    step = g.apply(state, g.to_play(state)[0], g.parse(text))
    return step.state, step.events


def public(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if e.seat is None)


def refusal(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def legal(state: State, seat: int | None = None) -> list[str]:
    seat = g.to_play(state)[0] if seat is None else seat
    return [g.format(a) for a in g.legal(state, seat)]


# -- setting up ------------------------------------------------------------------------


def test_the_pool_is_a_shuffled_double_six_set_and_players_start_with_nothing():
    state = g.new(2, None, 5)
    assert sorted(state.pool) == sorted(DOUBLE_SIX)
    assert len(set(state.pool)) == 28
    assert state.pool != DOUBLE_SIX
    assert g.new(2, None, 5).pool == state.pool
    assert g.new(2, None, 6).pool != state.pool
    assert state.hands == ((), ()) and not state.planes and not state.cannons
    assert state.bridge == (None,) * 6 and state.crossed == 0
    # the attacker moves first and has already taken the first income
    assert g.to_play(state) == (A,)
    assert state.coins == (3, 0)


def test_exactly_two_players_and_no_options():
    for players in (1, 3):
        with pytest.raises(BadOptions):
            g.new(players, None, 1)
    with pytest.raises(BadOptions):
        g.new(2, {"double_nine": True}, 1)
    assert g.info.hidden_information


# -- step 1 and 2: income and buying ---------------------------------------------------


def test_income_is_three_coins_at_the_start_of_every_turn():
    state = play(g.new(2, None, 1), "end")
    assert state.coins == (3, 3) and g.to_play(state) == (D,)
    state = play(state, "end")
    assert state.coins == (6, 3) and g.to_play(state) == (A,)


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


# -- step 3: building ------------------------------------------------------------------


def test_the_bridge_is_built_from_the_attackers_bank_outwards():
    state = position(hands=((dom("1-2"), dom("3-4"), dom("5-6")), ()))
    state, events = events_of(state, "bridge d2")
    assert state.bridge[0] == dom("3-4") and state.bridge[1:] == (None,) * 5
    assert state.hands[A] == (dom("1-2"), dom("5-6")), "slots close up in the order bought"
    assert "bridge section 1, face down" in public(events)
    assert "3-4" not in public(events)
    state = play(state, "bridge d1")
    assert [d is not None for d in state.bridge] == [True, True, False, False, False, False]
    assert g.view(state, None).sections[:3] == ("built", "built", "missing")


def test_a_destroyed_section_is_repaired_before_anything_further_out():
    state = position(hands=((dom("1-2"),), ()), bridge=bridge("101100"), bombed=frozenset({1}))
    assert g.view(state, None).sections == (
        "built",
        "destroyed",
        "built",
        "built",
        "missing",
        "missing",
    )
    state, events = events_of(state, "bridge d1")
    assert state.bridge[1] == dom("1-2") and state.bridge[4] is None
    assert 1 not in state.bombed
    assert "repaired bridge section 2" in public(events)


def test_there_is_only_one_bridge_of_six_sections():
    state = position(hands=((dom("1-2"),), ()), bridge=bridge("111111"))
    assert "bridge is complete" in refusal(state, A, "bridge d1")
    assert "bridge d1" not in legal(state)
    assert "boat d1" in legal(state)


def test_boats_are_built_face_down_and_numbered_for_good():
    state = position(hands=((dom("1-2"), dom("2-6")), ()), boats_built=4)
    state, events = events_of(state, "boat d2")
    assert state.boats == (Boat(5, dom("2-6")),)
    assert "built boat b5, face down" in public(events)
    assert "2-6" not in public(events)
    assert g.view(state, None).boats[0].domino is None
    assert g.view(state, D).boats[0].domino is None
    assert g.view(state, A).boats[0].domino == dom("2-6"), "the attacker knows his own boat"


def test_planes_are_face_up_and_cannons_face_down():
    hand = (dom("3-5"), dom("0-0"), dom("0-1"), dom("4-6"))
    state = position(turn=D, hands=((), hand))
    state, events = events_of(state, "plane d1")
    assert "built plane 3-5" in public(events)
    state, events = events_of(state, "plane d1")
    assert "ghost pilot" in public(events)
    state, events = events_of(state, "plane d1")
    assert "the ace" in public(events)
    state, events = events_of(state, "cannon d1")
    assert "built cannon 1, face down" in public(events)
    assert "4-6" not in public(events)
    view = g.view(state, None)
    assert view.planes == (dom("3-5"), dom("0-0"), dom("0-1"))
    assert view.cannons == 1
    assert "4-6" not in repr(view)


def test_each_side_builds_only_its_own_things():
    state = position(hands=((dom("1-2"),), (dom("3-4"),)))
    assert "Only the defender builds planes" in refusal(state, A, "plane d1")
    assert "Only the defender" in refusal(state, A, "fire")
    defender = replace(state, turn=D)
    assert "Only the attacker builds bridges" in refusal(defender, D, "bridge d1")
    assert "Only the attacker moves soldiers" in refusal(defender, D, "enter")


def test_a_slot_must_hold_a_domino():
    state = position(hands=((dom("1-2"),), ()))
    assert "no domino d3" in refusal(state, A, "bridge d3")
    assert "reserve is empty" in refusal(position(), A, "boat d1")


def test_not_your_turn():
    state = position()
    assert "not your turn" in refusal(state, D, "buy")
    assert g.legal(state, D) == []


# -- step 4, attacker: soldiers on the bridge ------------------------------------------


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


def test_a_coin_enters_as_a_soldier_on_space_one_once_a_turn():
    state = position(bridge=bridge("100000"), coins=(2, 0))
    state, events = events_of(state, "enter")
    assert state.spaces == spaces(1) and state.coins == (1, 0)
    assert "onto space 1" in public(events)
    assert "One soldier enters the bridge a turn" in refusal(state, A, "enter")


def test_entering_needs_section_one_a_free_space_one_and_a_coin():
    assert "Section 1" in refusal(position(bridge=bridge("011111")), A, "enter")
    taken = position(bridge=bridge("111111"), spaces=spaces(1, 2))
    assert "Space 1 is taken" in refusal(taken, A, "enter")
    broke = position(bridge=bridge("111111"), coins=(0, 0))
    assert "you have none" in refusal(broke, A, "enter")


def test_soldiers_advance_before_new_ones_enter():
    state = position(bridge=bridge("111111"), spaces=spaces(1))
    moved = play(state, "advance 1", "enter")
    assert moved.spaces == spaces(1, 2)
    entered = play(replace(state, spaces=spaces(2)), "enter")
    reason = refusal(entered, A, "advance 1")
    assert "advancing soldiers on the bridge (step 4) comes before sending a soldier" in reason


# -- step 4, attacker: boats -----------------------------------------------------------


def test_boarding_a_boat_turns_it_face_up_and_it_holds_two():
    state = position(boats=(Boat(1, dom("2-5")),), boats_built=1, coins=(3, 0))
    state, events = events_of(state, "board b1")
    assert state.boats[0].soldiers == 1 and state.coins[A] == 2
    assert "turns face up: 2-5" in public(events)
    assert g.view(state, None).boats[0].domino == dom("2-5")
    state = play(state, "board b1")
    assert "full" in refusal(state, A, "board b1")
    assert "board b1" not in legal(state)


def test_boats_may_not_go_forth_empty():
    state = position(boats=(Boat(1, dom("2-5")),), boats_built=1)
    assert "may not go forth empty" in refusal(state, A, "launch b1")
    assert "launch b1" not in legal(state)


def test_a_launched_boat_is_at_once_on_the_defenders_bank():
    state = position(hands=((dom("2-5"),), ()), coins=(3, 0))
    state = play(state, "boat d1", "board b1", "launch b1")
    assert state.boats == (Boat(1, dom("2-5"), 1, True),)
    assert "no boat b1 on your bank" in refusal(state, A, "launch b1")


def test_boats_are_loaded_before_any_launch():
    state = position(
        boats=(Boat(1, dom("2-5"), 1), Boat(2, dom("1-3"))), boats_built=2, coins=(3, 0)
    )
    state = play(state, "launch b1")
    reason = refusal(state, A, "board b2")
    assert "boarding boats (step 4) comes before launching boats (step 4)" in reason


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


# -- step 4, defender: cannons ---------------------------------------------------------


def arrived(*boats: tuple[str, int], **fields) -> State:
    """The defender's turn with boats (domino, soldiers) arrived on their bank."""
    fleet = tuple(Boat(n, dom(d), s, True) for n, (d, s) in enumerate(boats, start=1))
    fields.setdefault("cannons", (dom("6-6"),))
    return position(turn=D, boats=fleet, boats_built=len(fleet), **fields)


def test_cannons_fire_first_in_step_four_when_boats_have_arrived():
    state = arrived(("2-5", 2), planes=(dom("3-5"),), coins=(0, 3))
    assert legal(state) == ["buy", "fire"]
    assert "Cannons fire first" in refusal(state, D, "fly 3-5")
    assert "fire by themselves" in refusal(state, D, "end")
    fired = play(replace(state, rng=rolling(1)), "fire")
    assert "already fired" in refusal(fired, D, "fire")
    assert "fire" not in legal(replace(state, cannons=()))


def test_a_cannon_die_matching_an_end_sinks_the_boat_and_drowns_its_soldiers():
    state = arrived(("2-5", 2), rng=rolling(5))
    state, events = events_of(state, "fire")
    assert state.boats == ()
    assert state.discard == (dom("2-5"),)
    assert "Cannon 1 rolls 5: sinks boat b1 (2-5); 2 soldiers drown" in public(events)
    assert [(r.who, r.dice, r.outcome) for r in state.dice] == [("cannon 1", (5,), "sinks b1")]
    state = play(state, "end", "end")
    assert state.crossed == 0


def test_one_die_sinks_every_arrived_boat_that_shows_it():
    state = arrived(("2-5", 1), ("5-5", 2), ("1-3", 1), rng=rolling(5))
    state = play(state, "fire")
    assert [b.number for b in state.boats] == [3]


def test_each_cannon_rolls_and_a_miss_lets_the_boat_through():
    state = arrived(("2-5", 2), cannons=(dom("6-6"), dom("0-2")), rng=rolling(1, 4))
    state, events = events_of(state, "fire")
    assert [r.dice for r in state.dice] == [(1,), (4,)]
    assert "no boat shows a 1" in public(events)
    state = play(state, "end")
    assert state.crossed == 2


def test_the_double_blank_boat_can_never_be_sunk():
    cannons = tuple(DOUBLE_SIX[1:7])  # six cannons
    for seed in range(8):
        state = arrived(("0-0", 2), cannons=cannons, rng=Rng.from_seed(seed))
        state = play(state, "fire")
        assert len(state.boats) == 1
        assert len(state.dice) == 6


def test_cannons_hold_fire_once_no_boat_is_left():
    state = arrived(("2-5", 1), cannons=(dom("6-6"), dom("0-2")), rng=rolling(2))
    state, events = events_of(state, "fire")
    assert len(state.dice) == 1
    assert "hold fire" in public(events)


# -- step 4, defender: planes ----------------------------------------------------------


def airfield(*planes: str, **fields) -> State:
    """The defender's turn with these planes, a full bridge and coins to spare."""
    fields.setdefault("coins", (0, 9))
    fields.setdefault("bridge", bridge("111111"))
    return position(turn=D, planes=tuple(dom(p) for p in planes), **fields)


def test_sorties_are_declared_together_then_paid_and_flown():
    state = airfield("3-5", "0-0", "0-1", coins=(0, 2), rng=rolling(1, 1, 1, 1))
    state = play(state, "fly 3-5", "fly 0-0")
    assert state.coins[D] == 2, "nothing is paid or rolled before the run flies"
    assert state.dice == ()
    assert "costs 2 coins" in refusal(state, D, "fly 0-1"), "the ace costs 2; 1 coin is left"
    assert "fly 0-1" not in legal(state)
    assert "already in today's run" in refusal(state, D, "fly 3-5")
    state, events = events_of(state, "bomb")
    assert state.coins[D] == 1, "1 coin for 3-5, the ghost flies free"
    assert "sends 3-5, 0-0 on the bombing run (1 coin)" in public(events)


def test_the_ace_costs_two_coins_a_sortie():
    state = play(airfield("0-1", coins=(0, 2), rng=rolling(3, 3)), "fly 0-1", "bomb")
    assert state.coins[D] == 0


def test_a_bombing_run_needs_a_plane_that_bombs_and_flies_once_a_turn():
    state = airfield("3-5", "0-0")
    assert "Declare the planes first" in refusal(state, D, "bomb")
    assert "ghost pilot never bombs" in refusal(play(state, "fly 0-0"), D, "bomb")
    flown = play(replace(state, rng=rolling(1, 1)), "fly 3-5", "bomb")
    assert "has flown" in refusal(flown, D, "fly 0-0")
    assert "has flown" in refusal(flown, D, "bomb")
    assert legal(flown) == ["end"]


def test_a_hit_needs_the_pip_total_and_destroys_the_section_the_dice_name():
    # 3-5 needs 8: 2 and 6 hit (not deadly); then 3 and 4 = 7 names section 4
    state = airfield("3-5", spaces=spaces(6, 7, 8, 9), rng=rolling(2, 6, 3, 4))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.bridge[3] is None and state.bombed == {3}
    assert state.spaces == spaces(6, 9), "both soldiers on section 4 die, the neighbours live"
    assert g.view(state, None).sections[3] == "destroyed"
    assert len(state.discard) == 1
    text = public(events)
    assert "Plane 3-5 rolls 2 and 6 = 8 and hits" in text
    assert "section 4 is destroyed and 2 soldiers on it killed" in text
    assert [(r.purpose, r.dice, r.outcome) for r in state.dice] == [
        ("to hit", (2, 6), "hit"),
        ("aim", (3, 4), "sect. 4 destroyed, 2 killed"),
    ]


def test_a_deadly_strike_also_kills_the_soldiers_on_both_neighbouring_sections():
    # 3-5 rolled as 5 and 3: deadly; 4 and 3 = 7: section 4
    state = airfield("3-5", spaces=spaces(1, 5, 6, 7, 8, 9, 10, 11), rng=rolling(5, 3, 4, 3))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.spaces == spaces(1, 11), "sections 3, 4 and 5 are cleared"
    assert state.bridge[2] is not None and state.bridge[4] is not None, "only 4 is destroyed"
    assert state.bridge[3] is None
    assert "makes a deadly strike" in public(events)
    assert "kills 4 soldiers on the sections beside it" in public(events)


def test_a_miss_does_nothing_and_rolls_no_location():
    state = airfield("3-5", "2-6", rng=rolling(1, 1, 4, 4, 1, 1))
    state = play(state, "fly 3-5", "fly 2-6", "bomb")
    # 3-5 missed with 1,1; 2-6 hit with 4,4 (8) and aimed 1,1 = 2: section 1
    assert [r.dice for r in state.dice] == [(1, 1), (4, 4), (1, 1)]
    assert state.bridge[0] is None


def test_a_blank_ended_plane_is_never_deadly():
    state = airfield("0-4", spaces=spaces(1, 2, 3, 4, 5, 6), rng=rolling(2, 2, 2, 1))
    state = play(state, "fly 0-4", "bomb")
    assert state.dice[0].outcome == "hit"
    assert state.spaces == spaces(1, 2, 5, 6), "section 2 only: 2 and 1 = 3"


def test_a_hit_where_nothing_stands_does_nothing():
    state = airfield("3-5", bridge=bridge("111000"), spaces=spaces(5, 6), rng=rolling(5, 3, 6, 6))
    state, events = events_of(play(state, "fly 3-5"), "bomb")
    assert state.spaces == spaces(5, 6), "a deadly strike on nothing kills nobody"
    assert state.bridge == bridge("111000") and state.discard == ()
    assert "where nothing stands" in public(events)


def test_the_ace_always_hits_but_is_never_deadly():
    # the ace rolls no hit dice: its first two dice are its aim, 3 and 3 = 6: section 3
    state = airfield("0-1", spaces=spaces(4, 5, 6, 7), rng=rolling(3, 3))
    state, events = events_of(play(state, "fly 0-1"), "bomb")
    assert state.bridge[2] is None
    assert state.spaces == spaces(4, 7)
    assert "always hits" in public(events)
    assert [r.purpose for r in state.dice] == ["aim"]


@pytest.mark.parametrize(
    ("dice", "section"),
    [((1, 1), 1), ((1, 2), 2), ((2, 2), 2), ((2, 3), 3), ((3, 3), 3), ((3, 4), 4),
     ((4, 4), 4), ((4, 5), 5), ((5, 5), 5), ((5, 6), 6), ((6, 6), 6)],
)  # fmt: skip
def test_the_2d6_section_table(dice, section):
    state = play(airfield("0-1", rng=rolling(*dice)), "fly 0-1", "bomb")
    assert [i + 1 for i, d in enumerate(state.bridge) if d is None] == [section]
    assert SECTION_OF_SUM[sum(dice)] == section - 1


# -- the ghost pilot -------------------------------------------------------------------


def test_the_ghost_offers_a_reroll_of_one_die_when_it_could_turn_a_miss_into_a_hit():
    state = airfield("3-5", "0-0", rng=rolling(1, 2, 6, 3, 4))
    state, events = events_of(play(state, "fly 3-5", "fly 0-0"), "bomb")
    assert state.run is not None and state.run.dice == (1, 2)
    assert legal(state) == ["reroll 1", "reroll 2", "keep"]
    assert "may re-roll one die with the ghost pilot" in public(events)
    assert "waits for your dice" in refusal(state, D, "end")
    assert "No die shows 5" in refusal(state, D, "reroll 5")
    # re-rolling the 2 gives 6: 1 and 6 = 7, still a miss for 3-5
    state, events = events_of(state, "reroll 2")
    assert "re-rolls the 2: it comes up 6" in public(events)
    assert state.run is None
    assert state.dice[-1].dice == (1, 6) and state.dice[-1].rerolled


def test_the_ghosts_reroll_can_make_the_hit():
    # 3-5 rolls 2 and 4 (6); the ghost re-rolls the 4 into a 6: 8 hits; aim 6, 6: section 6
    state = airfield("3-5", "0-0", rng=rolling(2, 4, 6, 6, 6))
    state = play(state, "fly 0-0", "fly 3-5", "bomb", "reroll 4")
    assert state.bridge[5] is None
    assert [(r.dice, r.outcome, r.rerolled) for r in state.dice] == [
        ((2, 6), "hit", True),
        ((6, 6), "sect. 6 destroyed", False),
    ]


def test_keeping_saves_the_reroll_for_a_later_roll():
    # 3-5 rolls 1 and 3 (a re-roll of the 1 could make 8), kept: a miss; 2-6 hits with 3
    # and 5 (no single re-roll makes it deadly, so no offer); its aim 1 and 1 (section 1)
    # is offered, and re-rolling a 1 into a 6 moves the strike to section 4
    state = airfield("3-5", "2-6", "0-0", rng=rolling(1, 3, 3, 5, 1, 1, 6))
    state = play(state, "fly 3-5", "fly 2-6", "fly 0-0", "bomb")
    assert state.run.plane == dom("3-5")
    state = play(state, "keep")
    assert state.run.plane == dom("2-6") and state.run.stage == "aim"
    state = play(state, "reroll 1")
    assert state.run is None
    assert [i for i, d in enumerate(state.bridge) if d is None] == [3]


def test_no_reroll_is_offered_when_one_die_cannot_change_anything():
    # 6-6 needs two sixes: from 1 and 2 no single re-roll can hit, so the run goes on
    state = airfield("6-6", "0-0", rng=rolling(1, 2))
    state = play(state, "fly 6-6", "fly 0-0", "bomb")
    assert state.run is None
    assert legal(state) == ["end"]


def test_a_deadly_roll_is_not_offered_for_a_reroll_but_its_aim_is():
    state = airfield("3-5", "0-0", rng=rolling(3, 5, 3, 4))
    state = play(state, "fly 3-5", "fly 0-0", "bomb")
    assert state.run.stage == "aim" and state.run.deadly


def test_the_ghost_is_free_and_never_bombs():
    state = airfield("0-0", "3-5", coins=(0, 1), rng=rolling(1, 1))
    state = play(state, "fly 0-0", "fly 3-5", "bomb")
    assert state.coins[D] == 0
    assert all(r.who != "0-0" for r in state.dice)


def test_a_run_waiting_for_the_ghost_survives_saving_and_replays_exactly():
    state = play(airfield("3-5", "0-0", rng=rolling(1, 3, 5, 6, 6)), "fly 3-5", "fly 0-0", "bomb")
    assert state.run is not None
    restored = g.from_json(g.to_json(state))
    assert restored == state
    assert play(restored, "reroll 1") == play(state, "reroll 1")


# -- the end ---------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("crossed", "coins", "places", "words"),
    [(4, 3, (1, 2), "attacker wins"), (3, 3, (1, 1), "a tie"), (2, 3, (2, 1), "defender wins")],
)
def test_the_attacker_wins_with_more_soldiers_crossed_than_the_defender_has_coins(
    crossed, coins, places, words
):
    state = position(pool=(dom("4-4"),), coins=(2, coins), crossed=crossed)
    state = play(state, "buy")
    result = g.result(state)
    assert result.scores == (crossed, coins)
    assert result.places == places
    assert words in result.detail
    assert g.view(state, None).places == places


def test_the_game_stops_after_one_hundred_turns():
    state = g.new(2, None, 3)
    for _ in range(99):
        state = play(state, "end")
    assert not g.is_over(state)
    state, events = events_of(state, "end")
    assert g.is_over(state) and state.over == "cap" and state.turns == 100
    assert "100 turns" in public(events)
    assert g.result(state).places == (2, 1), "the defender holds more coins than 0 crossed"


def test_a_resigning_side_loses_and_may_resign_out_of_turn():
    state = g.new(2, None, 3)
    step = g.apply(state, D, g.parse("resign"))
    state, events = step.state, step.events
    assert g.is_over(state)
    assert g.result(state).places == (1, 2)
    assert "attacker wins" in public(events)


# -- notation --------------------------------------------------------------------------


def test_notation_reads_back_and_accepts_short_forms():
    for text, action in [
        ("bridge d2", Build("bridge", 1)),
        ("Boat 2", Build("boat", 1)),
        ("PLANE D1", Build("plane", 0)),
        ("advance 3", Advance(3)),
        ("board b4", Board(4)),
        ("board 4", Board(4)),
        ("fly 5-3", Fly(dom("3-5"))),
        ("fly 35", Fly(dom("3-5"))),
        ("fly 3|5", Fly(dom("3-5"))),
        ("reroll 6", Reroll(6)),
        ("end turn", End()),
    ]:
        assert g.parse(text) == action, text
    assert g.format(Fly(dom("5-3"))) == "fly 3-5"
    assert g.format(Build("cannon", 0)) == "cannon d1"


@pytest.mark.parametrize(
    ("text", "words"),
    [("advance", "how many"), ("fly 7-1", "not a plane"), ("reroll 0", "re-roll"),
     ("bridge x2", "not a domino of your reserve"), ("sail b1", "can't read")],
)  # fmt: skip
def test_unreadable_moves_say_what_is_wrong(text, words):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert words in caught.value.reason


# -- whole games -----------------------------------------------------------------------


def random_game(seed: int, moves: int = 5000):
    """Yield (state, seat, action, new state, events) for a game of random legal moves.

    The player ends a turn a quarter of the time it may, so turns are full of actions.
    """
    rnd = random.Random(seed)
    state = g.new(2, None, seed)
    for _ in range(moves):
        if g.is_over(state):
            return
        seat = g.to_play(state)[0]
        actions = g.legal(state, seat)
        busy = [a for a in actions if not isinstance(a, End)]
        action = rnd.choice(busy) if busy and rnd.random() < 0.75 else rnd.choice(actions)
        step = g.apply(state, seat, action)
        new, events = step.state, step.events
        yield state, seat, action, new, events
        state = new
    raise AssertionError("the game did not end")


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


def _names(domino: Domino) -> list[str]:
    """How a domino's values could be written in text."""
    a, b = domino.low, domino.high
    return [f"{a}-{b}", f"{b}-{a}", f"{a}|{b}", f"{b}|{a}", repr(domino)]


def _hidden_in(text: str, hidden: set[Domino]) -> list[str]:
    return [name for d in hidden for name in _names(d) if name in text]


def test_nothing_face_down_leaks_into_public_events_notation_or_views():
    """Whole random games: no public event, no move's notation and no public view ever
    names a domino the rules still keep face down; a seat's own view shows none of the
    other seat's secrets either."""
    for seed in range(8):
        revealed: set[Domino] = set()
        for state, _, action, new, events in random_game(seed):
            # whatever the move, its notation is posted publicly
            hidden = set(DOUBLE_SIX) - revealed
            for candidate in g.legal(state, g.to_play(state)[0]):
                assert not _hidden_in(g.format(candidate), hidden), g.format(candidate)
            revealed |= set(new.planes) | {b.domino for b in new.boats if b.soldiers}
            hidden = set(DOUBLE_SIX) - revealed
            leaks = _hidden_in(public(events), hidden)
            assert not leaks, (g.format(action), public(events))
            for e in events:
                if e.seat is not None:
                    assert e.seat == g.to_play(state)[0]
            assert not _hidden_in(repr(g.view(new, None)), hidden)
            attacker_secrets = set(new.hands[A]) | {b.domino for b in new.boats if not b.soldiers}
            defender_secrets = set(new.hands[D])
            assert not _hidden_in(repr(g.view(new, D)), attacker_secrets | set(new.pool))
            assert not _hidden_in(repr(g.view(new, A)), defender_secrets | set(new.pool))
            text = repr(g.view(new, None))
            assert not re.search(r"pool=\(", text), "the public view holds the pool itself"


async def test_no_public_reply_of_a_whole_game_through_the_service_names_a_hidden_domino(
    service,
):
    """What the bot posts in the channel after every move of a whole game: the move's
    notation, the public events and the result. None of it may name a face-down domino,
    while the buyer's private follow-up does tell them what they bought."""
    rnd = random.Random(4)
    players = {A: ADA, D: BOB}
    await service.create(TABLE, ADA, "bridges-and-boats", seed=77)
    await service.join(TABLE, BOB)
    await service.start(TABLE, ADA)
    state = g.new(2, None, 77)
    revealed: set[Domino] = set()
    bought = 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        moves = await service.legal_moves(TABLE, players[seat])
        busy = [m for m in moves if m != "end"]
        text = rnd.choice(busy) if busy and rnd.random() < 0.75 else rnd.choice(moves)
        reply = await service.move(TABLE, players[seat], text)
        state = g.play(state, seat, text).state
        revealed |= set(state.planes) | {b.domino for b in state.boats if b.soldiers}
        hidden = set(DOUBLE_SIX) - revealed
        assert not reply.private
        assert not _hidden_in(reply.text, hidden), (text, reply.text)
        assert not _hidden_in(text, hidden)
        assert reply.followup is not None and reply.followup.private
        if text == "buy":
            assert str(state.hands[seat][-1]) in reply.followup.text
            bought += 1
    assert bought
