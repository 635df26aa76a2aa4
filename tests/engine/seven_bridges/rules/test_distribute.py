"""Distribute (rules/distribute.py, RULINGS §1.7): a reserved bonus hands the dice left to
the turn's remaining picks; recipients draw their dice in any order and may re-roll them
with a bonus of their own."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.seven_bridges.actions import Distribute, Reroll
from engine.seven_bridges.bonuses import Bonuses
from tests.engine.seven_bridges.conftest import (
    g,
    next_faces,
    play,
    refusal,
    turn_start,
    with_seat,
)


def test_distribute_hands_out_the_dice_and_recipients_draw_them_in_any_order():
    state = turn_start(3, (1, 1, 0))  # picks go 0,1,2,0,1,2
    texts = [g.format(a) for a in g.legal(state, 0) if isinstance(a, Distribute)]
    assert len(texts) == len(set(texts)) == 90  # 6! / (2! 2! 2!) ways for distinct dice
    for text in texts:
        g.apply(state, 0, g.parse(text))  # every listed way is accepted
    # with equal dice, each way of sharing them out is still listed once
    twins = replace(state, dice=(1, 1, 2, 4, 4, 6))  # cross2 x2, tee2, straight3 x2, horse3
    listed = [a for a in g.legal(twins, 0) if isinstance(a, Distribute)]
    dice = [(2, 1), (2, 1), (2, 2), (3, 4), (3, 4), (3, 6)]
    shares = {tuple(tuple(sorted(p[k::3])) for k in range(3)) for p in itertools.permutations(dice)}
    assert len(listed) == len(shares)
    assert {tuple(tuple(sorted(a.dice[k::3])) for k in range(3)) for a in listed} == shares
    after = play(state, 0, "distribute cross2 tee2 corner2 straight3 half3 horse3")
    hands = [tuple(after.dice[d] for d in hand) for hand in after.hands]
    assert hands == [(1, 4), (2, 5), (3, 6)]
    assert after.seats[0].bonuses.spent == 1
    # seat 0 may draw its later die first: Continuity is waived after a distribute
    after = play(after, 0, "straight3 r2c8 ew")
    # seat 1 re-rolls only its own two dice, with its own bonus
    kept = {d: after.dice[d] for d in after.hands[0] + after.hands[2]}
    rolled = play(after, 1, "reroll")
    assert {d: rolled.dice[d] for d in kept} == kept
    assert "already been handed out" in refusal(
        with_seat(after, 1, bonuses=Bonuses(reserved=2)), 1, "distribute tee2 half3 corner2 horse3"
    )


@pytest.mark.parametrize(
    ("players", "hands", "recipient"),
    [
        # picks go 0,1,2,3,0,1: the roller and its left neighbour 2 dice, the others 1
        (4, [(1, 5), (2, 6), (3,), (4,)], 3),
        # picks go 0,1,2,3,4,0: the roller 2 dice, the others 1
        (5, [(1, 6), (2,), (3,), (4,), (5,)], 2),
    ],
)
def test_distribute_gives_uneven_hands_and_a_recipient_rerolls_with_its_own_bonus(
    players, hands, recipient
):
    bonus = tuple(1 if s in (0, recipient) else 0 for s in range(players))
    state = turn_start(players, bonus)
    state = play(state, 0, "distribute cross2 tee2 corner2 straight3 half3 horse3")
    assert [tuple(state.dice[d] for d in hand) for hand in state.hands] == hands
    # play the picks up to the recipient's; those before it have no bonus of their own
    # (seat 0 spent its bonus on the distribute)
    before = 0
    while g.to_play(state) != (recipient,):
        seat = g.to_play(state)[0]
        assert "Reserved use" in refusal(state, seat, "reroll")
        move = next(m for m in g.legal(state, seat) if not isinstance(m, Reroll | Distribute))
        state = play(state, seat, g.format(move))
        before += 1
    assert before == recipient, "every pick before the recipient's was played"
    (die,) = state.hands[recipient]
    others = {d: state.dice[d] for d in range(6) if d != die}
    after = play(state, recipient, "reroll")
    assert after.dice[die] == next_faces(state.rng, 1)[0]
    assert {d: after.dice[d] for d in others} == others, "only the recipient's own die"
    assert after.seats[recipient].bonuses.spent == 1
    assert after.seats[0].bonuses.spent == 1


def test_distribute_must_hand_out_exactly_the_dice_left_in_pick_order():
    state = turn_start(2, (1, 0))
    assert "each of the 6" in refusal(state, 0, "distribute cross2 tee2")
    assert "exactly the dice left" in refusal(
        state, 0, "distribute cross2 cross2 corner2 straight3 half3 horse3"
    )
