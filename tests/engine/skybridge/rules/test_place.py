"""Placing a piece: the touch rule, the lowest-tower rule, bridges and roofs (RULINGS §3.2)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.skybridge.actions import Place
from engine.skybridge.board import SQUARES, Piece
from tests.engine.skybridge.conftest import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    assert_touch_invariant,
    block_squares,
    g,
    heights,
    legal_texts,
    play,
    position,
    refusal,
    scores,
    sq,
    stock_of,
    with_stock,
)


def test_a_player_cannot_use_a_piece_they_have_run_out_of():
    # red has used both roofs already: a third is refused with a clear reason
    state = position(4, turn=RED, a1="BT", b1="YT", c1="GT")
    state = with_stock(state, RED, red_roof=1, red_tall=1)
    state = play(state, RED, "red roof a1")
    state = replace(state, turn=RED)
    assert "no red roof left" in refusal(state, RED, "red roof b1")


def test_2p_seat0_plays_red_and_yellow_only():
    state = replace(g.new(2, None, 1), turn=0)
    colours = {t.split()[0] for t in legal_texts(state, 0)}
    assert colours == {"red", "yellow"}
    assert "don't play blue" in refusal(state, 0, "blue tall a1")
    assert "don't play green" in refusal(state, 0, "green tall a1")
    state = replace(state, turn=1)
    assert {t.split()[0] for t in legal_texts(state, 1)} == {"blue", "green"}


def test_4p_seat_plays_only_its_colour():
    state = replace(g.new(4, None, 1), turn=2)
    assert {t.split()[0] for t in legal_texts(state, 2)} == {"yellow"}
    assert "don't play red" in refusal(state, 2, "red tall a1")


def test_touch_rule_block_on_same_colour_refused():
    # a1 is the only lowest tower and it is red on top
    state = position(4, turn=RED, a1="RC", b1="BT", c1="YT", a2="GT", b2="BT", c2="YT",
                     a3="GT", b3="BT", c3="YT")  # fmt: skip
    reason = refusal(state, RED, "red tall a1")
    assert "Touch rule" in reason and "a1" in reason
    assert "Touch rule" in refusal(state, RED, "red cube a1")
    # another colour may go there
    after = play(replace(state, turn=BLUE), BLUE, "blue tall a1")
    assert after.board[sq("a1")][-1] == Piece(BLUE, "tall")


def test_touch_rule_roof_on_same_colour_refused():
    state = position(4, turn=RED, a1="BT RT")
    assert "Touch rule" in refusal(state, RED, "red roof a1")
    assert "red roof a1" not in legal_texts(state, RED)
    assert "blue roof a1" in legal_texts(replace(state, turn=BLUE), BLUE)


def test_touch_rule_bridge_on_same_colour_top_refused():
    state = position(4, turn=RED, a1="RT", b1="BT", a2="YT")
    reason = refusal(state, RED, "red bridge a1-b1")
    assert "Touch rule" in reason
    assert "red bridge a1-b1" not in legal_texts(state, RED)
    assert "red bridge a1-a2" not in legal_texts(state, RED)
    assert "blue bridge a1-a2" in legal_texts(replace(state, turn=BLUE), BLUE)


def test_touch_rule_pieces_on_a_bridge_end_of_same_colour_refused():
    # red bridge over a1-b1; everything else taller, so a1 and b1 are the lowest towers
    state = position(4, turn=RED, a1="BT RB", b1="YT RB", c1="BT YT", a2="YT BT", b2="GT BT",
                     c2="BT GT", a3="YT GT", b3="GT YT", c3="BT YT")  # fmt: skip
    assert "Touch rule" in refusal(state, RED, "red tall a1")
    assert "Touch rule" in refusal(state, RED, "red roof b1")
    assert block_squares(state, RED, "red tall") == {"c1", "a2", "b2", "c2", "a3", "b3", "c3"}
    blue = replace(state, turn=BLUE)
    assert block_squares(blue, BLUE, "blue cube") == {"a1", "b1"}
    after = play(blue, BLUE, "blue cube b1")
    assert heights(after)[sq("b1")] == 6 and heights(after)[sq("a1")] == 4


def test_side_by_side_and_diagonal_towers_never_touch():
    state = replace(g.new(2, None, 1), turn=0)
    state = play(state, 0, "red tall b2")
    state = play(state, 1, "blue tall c3")
    for neighbour in ("a2", "b1", "c2", "b3", "a1", "c1", "a3"):  # orthogonal and diagonal
        assert f"red tall {neighbour}" in legal_texts(state, 0)
    state = play(state, 0, "red tall b1")
    state = play(state, 1, "blue tall a3")
    state = play(state, 0, "red cube a1")
    assert [s[-1].colour for s in state.board if s] == [RED, RED, RED, BLUE, BLUE]


def test_lowest_tower_rule_first_nine_blocks_fill_the_nine_foundations():
    for seed in range(10):
        rnd = random.Random(seed)
        state = g.new(rnd.choice((2, 3, 4)), None, seed)
        blocks = 0
        while blocks < 9:
            seat = g.to_play(state)[0]
            moves = g.legal(state, seat)
            block_moves = [a for a in moves if a.kind in ("tall", "cube")]
            empty = {i for i, s in enumerate(state.board) if not s}
            assert {a.squares[0] for a in block_moves} <= empty
            state = g.apply(state, seat, rnd.choice(block_moves or moves)).state
            blocks += bool(block_moves)
        assert all(state.board), "the first nine blocks must cover every foundation"


def test_lowest_tower_rule_refusal_names_rule_and_allowed_squares():
    state = position(4, turn=RED, a1="BC", b1="YC", c1="BT", a2="GT", b2="YT", c2="BT",
                     a3="GT", b3="YT", c3="BT")  # fmt: skip
    reason = refusal(state, RED, "red tall c1")
    assert "Lowest-tower rule" in reason
    assert "a1" in reason and "b1" in reason
    assert block_squares(state, RED, "red tall") == {"a1", "b1"}
    assert block_squares(state, RED, "red cube") == {"a1", "b1"}


def test_lowest_tower_rule_block_goes_up_when_lowest_towers_are_own_colour():
    # a1 (2 high) is the lowest tower but red on top: red blocks go one level up
    state = position(4, turn=RED, a1="RC", b1="YT", c1="BT", a2="GT", b2="YT", c2="BT",
                     a3="GT", b3="YT", c3="BT")  # fmt: skip
    assert block_squares(state, RED, "red tall") == {"b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}
    assert "Touch rule" in refusal(state, RED, "red tall a1")
    assert block_squares(replace(state, turn=BLUE), BLUE, "blue tall") == {"a1"}
    state = position(4, turn=RED, a1="BC RC", b1="YT BC", c1="BT GC", a2="GT YC", b2="YT GC",
                     c2="BT YC", a3="GT BC", b3="YT BC", c3="BC RT YC")  # fmt: skip
    # a1 is 4 high and red on top; every other tower is 5 high except c3 (7)
    assert heights(state)[sq("a1")] == 4
    assert block_squares(state, RED, "red cube") == {"b1", "c1", "a2", "b2", "c2", "a3", "b3"}
    assert "Touch rule" in refusal(state, RED, "red cube a1")
    reason = refusal(state, RED, "red cube c3")
    assert "Lowest-tower rule" in reason
    # for blue, a1 is the lowest tower and the only one allowed
    assert block_squares(replace(state, turn=BLUE), BLUE, "blue tall") == {"a1"}


def test_lowest_tower_rule_ignores_roofed_towers():
    state = position(4, turn=BLUE, a1="YC RR", b1="YT", c1="GT", a2="GT", b2="YT", c2="GT",
                     a3="GT", b3="YT", c3="RT")  # fmt: skip
    assert block_squares(state, BLUE, "blue tall") == {
        "b1",
        "c1",
        "a2",
        "b2",
        "c2",
        "a3",
        "b3",
        "c3",
    }
    assert "roof" in refusal(state, BLUE, "blue tall a1")


def test_lowest_tower_rule_does_not_bind_roofs_or_bridges():
    state = position(4, turn=RED, a1="BT", b1="YT")  # seven foundations still empty
    assert "red roof a1" in legal_texts(state, RED)
    assert "red bridge a1-b1" in legal_texts(state, RED)
    after = play(state, RED, "red bridge a1-b1")
    assert heights(after)[:2] == (4, 4)


def test_bridge_needs_equal_heights():
    state = position(4, turn=RED, a1="BT", b1="YC")
    reason = refusal(state, RED, "red bridge a1-b1")
    assert "same height" in reason
    assert not any(t.startswith("red bridge") for t in legal_texts(state, RED))


def test_bridge_orthogonal_only_diagonal_refused():
    state = position(4, turn=RED, a1="BT", b2="YT", c1="GT")
    reason = refusal(state, RED, "red bridge a1-b2")
    assert "diagonal" in reason
    assert "neighbours" in refusal(state, RED, "red bridge a1-c1")
    assert not any(t.startswith("red bridge") for t in legal_texts(state, RED))


def test_bridge_not_on_empty_foundations():
    state = position(4, turn=RED, a1="BT")
    assert "empty foundation" in refusal(state, RED, "red bridge a1-a2")
    assert "empty foundation" in refusal(state, RED, "red bridge b2-b3")


def test_bridge_covers_both_tops_and_raises_both_towers_by_one():
    state = position(4, turn=RED, a1="BT", b1="YT", c1="GC")
    state = play(state, RED, "red bridge a1-b1")
    assert state.board[sq("a1")][-1] == Piece(RED, "bridge")
    assert state.board[sq("b1")][-1] == Piece(RED, "bridge")
    assert heights(state)[:3] == (4, 4, 2)
    assert g.view(state, None).bridges[RED] == (sq("a1"), sq("b1"))
    assert stock_of(state, RED, RED, "bridge") == 0


def test_bridge_not_completely_on_top_of_another_bridge():
    state = position(4, turn=RED, a1="BT", b1="YT")
    state = play(state, RED, "red bridge a1-b1")
    reason = refusal(state, BLUE, "blue bridge a1-b1")
    assert "another bridge" in reason
    assert "blue bridge a1-b1" not in legal_texts(state, BLUE)


def test_bridge_may_rest_one_end_on_another_bridges_end():
    state = position(4, turn=RED, a1="BT", b1="YT", c1="YC GC")
    state = play(state, RED, "red bridge a1-b1")  # a1, b1 now 4 high, like c1
    assert "blue bridge b1-c1" in legal_texts(state, BLUE)
    state = play(state, BLUE, "blue bridge b1-c1")
    assert state.board[sq("b1")][-2:] == (Piece(RED, "bridge"), Piece(BLUE, "bridge"))
    assert heights(state)[:3] == (4, 5, 5)
    assert_touch_invariant(state.board)


def test_bridge_at_any_level():
    state = position(4, turn=GREEN, b2="RT BT YT RC", b3="BT RT YT BC")
    assert heights(state)[sq("b2")] == 11
    state = play(state, GREEN, "green bridge b2-b3")
    assert heights(state)[sq("b2")] == heights(state)[sq("b3")] == 12


def test_bridge_not_on_a_roofed_tower():
    state = position(4, turn=BLUE, a1="YC RR", b1="GC")
    assert "roof" in refusal(state, BLUE, "blue bridge a1-b1")


def test_roof_closes_the_tower_for_good():
    state = position(4, turn=RED, a1="BT", b1="YT")
    state = play(state, RED, "red roof a1")
    for seat, text in ((BLUE, "blue tall a1"), (BLUE, "blue roof a1"), (BLUE, "blue bridge a1-b1"),
                       (YELLOW, "yellow cube a1"), (GREEN, "green roof a1")):  # fmt: skip
        assert "roof" in refusal(replace(state, turn=seat), seat, text)
        assert not any("a1" in t for t in legal_texts(replace(state, turn=seat), seat))


def test_roof_not_on_an_empty_foundation():
    state = position(4, turn=RED, a1="BT")
    assert "empty foundation" in refusal(state, RED, "red roof b2")
    assert {t for t in legal_texts(state, RED) if "roof" in t} == {"red roof a1"}


def test_roof_gives_the_tower_to_its_colour():
    state = position(4, turn=YELLOW, a1="BT RC", b1="RT")
    assert scores(state) == (0, 0, 0, 0)
    state = play(state, YELLOW, "yellow roof a1")
    assert g.view(state, None).roof_owner[sq("a1")] == YELLOW
    assert scores(state) == (0, 0, 5, 0)
    state = play(state, GREEN, "green roof b1")
    assert scores(state) == (0, 0, 5, 3)


def test_roof_may_sit_on_another_colours_bridge_end():
    state = position(4, turn=RED, a1="BT", b1="YT", c1="GC")
    state = play(state, RED, "red bridge a1-b1")
    assert "blue roof a1" in legal_texts(state, BLUE)
    state = play(state, BLUE, "blue roof a1")
    assert heights(state)[:2] == (4, 4)
    assert scores(state) == (0, 4, 0, 0)
    # the other end of the bridge is still open
    assert "yellow roof b1" in legal_texts(state, YELLOW)


def test_3p_neutral_pieces_obey_the_touch_rule_across_players():
    state = replace(g.new(3, None, 2), turn=0)
    state = play(state, 0, "green tall a1")
    assert stock_of(state, 0, GREEN, "tall") == 0
    assert stock_of(state, 1, GREEN, "tall") == 1, "each player holds their own green pieces"
    # fill every other foundation so a1 is the lowest tower
    for seat, text in ((1, "blue tall b1"), (2, "yellow tall c1"), (0, "red tall a2"),
                       (1, "blue tall b2"), (2, "yellow tall c2"), (0, "red tall a3"),
                       (1, "blue tall b3"), (2, "yellow tall c3")):  # fmt: skip
        state = play(state, seat, text)
    state = replace(state, turn=1)
    assert "Touch rule" in refusal(state, 1, "green cube a1")
    assert "green cube a1" not in legal_texts(state, 1)
    assert "blue cube a1" in legal_texts(state, 1)
    assert block_squares(state, 1, "green cube") == set(SQUARES) - {"a1"}


def test_2p_bridge_bonus_only_for_the_same_colour():
    # red bridge a1-b1; a1 roofed red (6), b1 roofed yellow (4): one player, two colours
    state = position(2, turn=0, a1="BT RB BC RR", b1="GT RB YR")
    assert heights(state)[:2] == (6, 4)
    # red: 6 + bridge partner 4; yellow: 4 — not doubled as if one colour owned both
    assert scores(state) == (6 + 4 + 4, 0)
    same = position(2, turn=0, a1="BT RB BC RR", b1="GT RB BC RR")
    assert scores(same) == (2 * (6 + 6), 0)


def test_2p_one_piece_of_either_colour_per_turn():
    state = replace(g.new(2, None, 5), turn=0)
    state = play(state, 0, "yellow tall a1")
    assert g.to_play(state) == (1,)
    state = play(state, 1, "green cube b1")
    assert g.to_play(state) == (0,)
    state = play(state, 0, "red cube c1")
    assert g.to_play(state) == (1,)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (Place(0, "tall", (0, 8)), "one square"),
        (Place(0, "bridge", (1, 0)), "two different squares"),
        (Place(0, "bridge", (4,)), "two different squares"),
        (Place(0, "tall", (9,)), "not on the board"),
        (Place(7, "tall", (0,)), "not a Skybridge piece"),
        (Place(0, "tower", (0,)), "not a Skybridge piece"),
        ("red tall a1", "not a Skybridge move"),
    ],
)
def test_apply_refuses_malformed_actions_built_without_parse(action, words):
    """Buttons and code build actions too: apply checks their shape and changes nothing."""
    state = g.new(4, None, 3)
    before = g.to_json(state)
    with pytest.raises(IllegalMove, match=words):
        g.apply(state, state.turn, action)
    assert g.to_json(state) == before
