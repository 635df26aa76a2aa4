"""The flow (engine/seven_bridges/flow.py, RULINGS §1.3): what each awaited seat is asked
for, the drafting order, five rounds of turns, and Euler's rolls and picks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.seven_bridges import euler
from engine.seven_bridges.state import owner, roller
from tests.engine.seven_bridges.conftest import (
    arms,
    g,
    play,
    position,
    random_game,
    refusal,
    with_seat,
)


def test_each_awaited_seat_is_asked_for_one_thing_at_a_time():
    state = g.new(2, {"start": "r2c4", "advanced": "on"}, 2)  # landmark A: a bonus each
    assert {s: st.name for s, st in g.awaited(state).items()} == {0: "bonus", 1: "bonus"}
    crossing = with_seat(state, 1, pending_items=1)
    assert {s: st.name for s, st in g.awaited(crossing).items()} == {0: "bonus", 1: "item"}
    assert refusal(crossing, 1, "reserve reroll").startswith("Advanced rule: you crossed")
    state = play(play(state, 0, "reserve reroll"), 1, "reserve reroll")
    assert {s: st.name for s, st in g.awaited(state).items()} == {roller(state): "roll"}
    rolled = play(state, roller(state), "roll")
    assert {s: st.name for s, st in g.awaited(rolled).items()} == {roller(state): "pick"}
    stuck = position(arms("r2c9:W", "r2c8:E"), dice=(1, 1, 2, 1, 2, 1))
    assert g.awaited(stuck)[0].name == "stuck"
    drawing = play(stuck, 0, "downgrade cross2")
    assert g.awaited(drawing)[0].name == "draw"
    assert not g.reaction_open(drawing), "no seat ever answers out of turn"


@pytest.mark.parametrize(
    ("players", "order"),
    [
        (2, [0, 1, 0, 1, 0, 1]),
        (3, [0, 1, 2, 0, 1, 2]),
        (4, [0, 1, 2, 3, 0, 1]),  # roller picks 1 and 5, left neighbour 2 and 6
        (5, [0, 1, 2, 3, 4, 0]),  # roller picks 1 and 6
        (6, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_picks_go_clockwise_from_the_roller(players, order):
    state = g.new(players, {"start": "ii-2-3"}, 9)
    r = roller(state)
    assert [owner(state, k) for k in range(6)] == [(r + k) % players for k in order]
    assert g.view(state, None).pick_owners == tuple((r + k) % players for k in order)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_five_rounds_six_dice_each_per_round_and_the_marker_passes_clockwise(players):
    rnd = random.Random(players)
    state = g.new(players, None, 21 + players)
    first = state.first
    drafted: Counter[tuple[int, str]] = Counter()
    rolls = []
    while not g.is_over(state):
        seat = rnd.choice(g.to_play(state))
        round_before = state.round
        step = g.apply(state, seat, rnd.choice(g.legal(state, seat)))
        state, events = step.state, step.events
        for e in events:
            if e.kind in ("draw", "waste"):
                drafted[(round_before, e.text.split()[0])] += 1
            if e.kind == "roll":
                rolls.append(e.text)
    assert all(drafted[(r, f"{{seat{s}}}")] == 6 for r in range(5) for s in range(players))
    seen = set()
    for text in rolls:  # "Round 2, turn 3: {seat4} rolls ..."
        rnd_no, turn_no = (int(w.strip(",:")) for w in text.split()[1:4:2])
        assert f"{{seat{(first + rnd_no - 1 + turn_no - 1) % players}}} rolls" in text
        seen.add((rnd_no, turn_no))
    # the first roll may happen inside new(), when no landmark bonus comes first
    everything = {(r, t) for r in range(1, 6) for t in range(1, players + 1)}
    assert everything - seen <= {(1, 1)}


def test_solo_euler_is_player_two_rolling_first_in_rounds_two_and_four():
    assert roller(g.new(1, {"start": "ii-2-3"}, 4)) == 0
    state, _, events = random_game(1, 4)
    rolls = [e.text for e in events if e.kind == "roll"]
    starts = {text.split(":")[0]: text.split(": ")[1].split()[0] for text in rolls}
    assert len(starts) >= 9
    assert starts["Round 2, turn 1"] == "Euler"
    assert starts["Round 3, turn 1"] == "{seat0}"
    assert starts["Round 4, turn 1"] == "Euler"
    assert sum(1 for e in events if e.kind == "euler") == 30


def test_euler_drafts_the_lowest_value_and_prefers_the_three_horse_type():
    dice = (2, 1, 3, 1, 6, 5)  # dice 0-2 have a 2-horse, 3-5 a 3-horse
    assert euler.pick(dice, (0, 1, 2, 3, 4, 5)) == 3  # the cross on the 3-horse die
    assert euler.pick(dice, (0, 1, 2, 4, 5)) == 1
    assert euler.pick(dice, (0, 2, 4, 5)) == 0
    assert euler.pick((0, 0, 6, 0, 0, 6), (2, 5)) == 5


def test_moves_out_of_turn_are_refused():
    state = g.new(2, {"start": "ii-2-3"}, 1)
    waiting = g.to_play(state)[0]
    other = 1 - waiting
    reason = refusal(state, other, "tee2 ii-2-2 new")
    assert reason == f"It is not your turn: waiting for {{seat{waiting}}}."
    assert refusal(state, 5, "roll") == "You are not playing in this game."


def test_euler_rolls_his_own_turns_and_the_player_rolls_theirs():
    state = g.new(1, {"start": "ii-2-3"}, 5)
    rolls = 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        assert seat == 0, "only the player is ever asked"
        if state.rolling:
            assert roller(state) == 0
            rolls += 1
        state = g.apply(state, 0, g.legal(state, 0)[0]).state
    assert rolls == 5, "one roll a round is the player's; Euler rolls the other by himself"
