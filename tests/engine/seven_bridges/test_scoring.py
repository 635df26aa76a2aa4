"""Scoring (rulebook "Scoring", RULINGS §1.4, §1.8): the legend's other items, the total
of one item per bridge crossed, ties, and Euler's score and the solo verdict.
"""

from __future__ import annotations

from dataclasses import replace

from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import USED, Bonuses
from engine.seven_bridges.legend import (
    HIDDEN_RING,
    Scorecard,
    bridge_scale,
    landmark_scale,
    scorecard,
    total_from_items,
)
from engine.seven_bridges.lines import PRINTED, SQUARE_ARM
from engine.seven_bridges.network import BRIDGE_ARMS, NO_LOOP
from engine.seven_bridges.scoring import cards, rank_key
from tests.engine.seven_bridges.conftest import NORTH, g, sq

# -- the other items ----------------------------------------------------------------------------


def test_scale_bars_as_the_rulebook_quotes_them():
    assert [bridge_scale(n) for n in range(8)] == [0, 1, 4, 9, 16, 25, 36, 49]
    assert [landmark_scale(n) for n in range(12)] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 45, 45]


def test_items_of_a_drawing():
    drawn = NORTH | 1 << SQUARE_ARM[sq("r4c6")][1]  # E: landmark E's street
    card = scorecard(drawn, Bonuses(immediate=1 << 2, spent=1, reserved=1, footpaths=USED))
    assert card.crossed == 2 and card.items[1] == 4
    assert card.visited == 1 and card.items[2] == 1
    assert card.items[6] == 3 + 4 + 7  # tee bonus, first re-roll, footpaths
    assert card.items[0] == 8
    # two bridges crossed: the two best items count
    assert card.total == sum(sorted(card.items, reverse=True)[:2])


def test_trees_in_h_need_the_whole_ring_round_it():
    def trees(drawn: int) -> int:
        return scorecard(drawn, Bonuses()).items[4]

    # the ring passes 2 visible trees, one of them seen only from r8c5's east street
    assert trees(HIDDEN_RING) == 2 + 9
    # a gap where no tree is seen loses exactly H's nine
    no_tree = 1 << SQUARE_ARM[sq("r8c6")][3]
    assert trees(HIDDEN_RING) - trees(HIDDEN_RING & ~no_tree) == 9
    # a gap at r8c5's east street loses its visible tree as well
    one_tree = 1 << SQUARE_ARM[sq("r8c5")][1]
    assert trees(HIDDEN_RING) - trees(HIDDEN_RING & ~one_tree) == 1 + 9


def test_grid_squares_sum_the_exits_reached():
    row12 = 0
    for c in range(1, 13):
        for d in (1, 3):
            arm = SQUARE_ARM[sq(f"r12c{c}")][d]
            row12 |= 1 << arm
    # W of r12c1 (6) and E of r12c12 (6)
    assert scorecard(row12, Bonuses()).items[5] == 12


def test_total_keeps_one_item_per_bridge_crossed():
    items = (36, 36, 28, 50, 32, 26, 17)
    assert total_from_items(items, 6) == 208  # the rulebook's example
    assert total_from_items(items, 7) == 225
    assert total_from_items(items, 1) == 50
    assert total_from_items(items, 0) == 0


def test_advanced_rule_scores_the_chosen_items_whatever_they_are():
    card = scorecard(NORTH, Bonuses(), chosen=("grid", "loop"))
    assert card.total == card.items[5] + card.items[0]


def test_ties_most_bridges_then_landmarks_then_best_item():
    def card(total, crossed, visited, best):
        return Scorecard((best, 0, 0, 0, 0, 0, 0), crossed, visited, (), total, NO_LOOP)

    assert rank_key(card(50, 3, 1, 20)) > rank_key(card(50, 2, 9, 40))
    assert rank_key(card(50, 3, 4, 20)) > rank_key(card(50, 3, 2, 40))
    assert rank_key(card(50, 3, 4, 30)) > rank_key(card(50, 3, 4, 20))
    state = g.new(2, {"start": "ii-2-3"}, 1)
    same = replace(state, seats=(state.seats[0], state.seats[0]))
    assert g.result(same).places == (1, 1)


# -- Euler -----------------------------------------------------------------------------------


def example_card() -> Scorecard:
    """The rulebook's finished map: loop 36, 6 bridges, 7 landmarks, 50 buildings, 32 trees,
    26 for the grid and 17 for drafting."""
    items = (36, 36, 28, 50, 32, 26, 17)
    return Scorecard(items, 6, 7, (), total_from_items(items, 6), NO_LOOP)


def test_the_rulebook_example_player_208_euler_206():
    card = example_card()
    assert card.total == 208
    assert euler.items(card) == (0, 1, 10, 50, 68, 54, 23)
    assert euler.total(card) == 206


def test_euler_scores_what_the_player_left():
    items = (0, 4, 10, 55, 30, 35, 20)
    card = Scorecard(items, 2, 4, (), 0, NO_LOOP)
    them = euler.items(card)
    assert them[1] == 25  # 5 bridges left
    assert them[2] == 28  # 7 landmarks left
    assert them[3] == 45 and them[4] == 70 and them[5] == 45 and them[6] == 20
    assert euler.total(card) == sum(them)


def test_solo_result_reads_as_a_loss_when_euler_scores_more():
    state = g.new(1, {"start": "ii-2-3"}, 1)  # nothing drawn yet: Euler has the whole city
    mine, them = cards(state)[0].total, euler.total(cards(state)[0])
    assert mine < them
    result = g.result(state)
    assert result.scores == (mine,)
    assert result.places == (2,), "Euler is 1st, so the player is not announced 1st"
    assert result.detail == f"Euler scores {them}: Euler wins by {them - mine}."
    view = g.view(state, 0)
    assert view.solo and view.euler_total == them


def test_solo_result_reads_as_a_win_when_the_player_scores_more():
    state = g.new(1, {"start": "ii-2-3"}, 1)
    # every east-west street and every bridge: much of the city but no loop (a dense
    # network would make the exact loop search the slow part of the test)
    drawn = sum(1 << a for a in PRINTED if a % 2) | sum(BRIDGE_ARMS)
    seats = (replace(state.seats[0], drawn=drawn),)
    state = replace(state, seats=seats)
    mine, them = cards(state)[0].total, euler.total(cards(state)[0])
    assert mine > them
    result = g.result(state)
    assert result.places == (1,)
    assert result.detail == f"Euler scores {them}: you beat Euler by {mine - them}."
