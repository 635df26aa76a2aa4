"""Scores (RULINGS §3.2, the rulebook's figure 6) and tie-breaks."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.skybridge.conftest import (
    RED,
    assert_touch_invariant,
    g,
    heights,
    play,
    position,
    scores,
    sq,
)


def test_scoring_fig6_two_owned_towers_joined_by_own_bridge_is_30():
    # a1 = 8 and b1 = 7 stories, the red bridge lying across both at level 5
    state = position(4, turn=RED, a1="BC YC RB BT", b1="YC BC RB YC")
    assert heights(state)[:2] == (8, 7)
    state = play(state, RED, "red roof a1")
    state = replace(state, turn=RED)
    state = play(state, RED, "red roof b1")
    assert_touch_invariant(state.board)
    assert scores(state) == (30, 0, 0, 0)  # 8 + 7 + 7 + 8 = 15 x 2
    assert g.view(state, None).scores == (30, 0, 0, 0)


def test_scoring_fig6_one_owned_tower_with_bridge_and_another_tower_is_25():
    state = position(4, turn=RED, a1="BT RB YT BT RR", b1="YT RB BC YC BR", c3="BT YC BC RR")
    assert_touch_invariant(state.board)
    assert (heights(state)[sq("a1")], heights(state)[sq("b1")], heights(state)[sq("c3")]) == (
        10,
        8,
        7,
    )
    # red: tower 10 + its bridge partner 8 (whoever roofed it) + tower 7; blue: its tower 8
    assert scores(state) == (25, 8, 0, 0)


def test_scoring_unroofed_bridge_partner_still_counts():
    state = position(4, turn=RED, a1="BT RB YC RR", b1="YT RB")
    assert heights(state)[:2] == (6, 4)
    assert scores(state) == (10, 0, 0, 0)


def test_scoring_bridge_without_an_owned_tower_scores_nothing():
    state = position(4, turn=RED, a1="BT RB YC", b1="YT RB BR")
    assert scores(state) == (0, 4, 0, 0)


def test_scoring_tie_broken_by_most_roofed_towers():
    state = position(4, turn=RED, a1="BT YT RR", b2="RT BR", c3="RT BR")
    result = g.result(state)
    assert result.scores[:2] == (6, 6)
    assert result.places == (2, 1, 3, 3)
    assert "roofed towers" in result.detail


def test_scoring_full_tie_is_shared():
    state = position(4, turn=RED, a1="BT RR", c3="RT BR")
    result = g.result(state)
    assert result.scores == (3, 3, 0, 0)
    assert result.places == (1, 1, 3, 3)
    assert result.winners == (0, 1)


def test_3p_neutral_pieces_never_score():
    # a tower roofed green (however it got there) belongs to nobody
    state = position(3, turn=0, a1="BT RC GR", b1="GT RC BR", c1="GC RT")
    result = g.result(state)
    assert result.scores == (0, 5, 0)
    assert len(result.scores) == 3


def test_2p_each_colour_scored_separately_then_added():
    state = position(2, turn=0, a1="BT RR", c3="BT GC YR", b2="RT GR")
    assert scores(state) == (3 + 5, 3)
