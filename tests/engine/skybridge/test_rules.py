"""Skybridge rules, RULINGS §3.2, each by name, played through the engine's public surface.

Positions are reached by real moves where that is short, and otherwise built directly
as ``engine.skybridge.State`` values (``dataclasses.replace`` on a fresh game) so one
rule can be looked at on its own. Colours: 0 red, 1 blue, 2 yellow, 3 green.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine.core import IllegalMove
from engine.skybridge.actions import Place, Resign
from engine.skybridge.board import KINDS, SQUARES, Piece
from engine.skybridge.state import State, slot

g = engine.get("skybridge")

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
STORY = {"tall": 3, "cube": 2, "bridge": 1, "roof": 0}
FULL_SET = {"tall": 4, "cube": 4, "bridge": 1, "roof": 2}
ORTHOGONAL = {
    frozenset((a, b))
    for a in range(9)
    for b in range(9)
    if abs(a // 3 - b // 3) + abs(a % 3 - b % 3) == 1
}


# -- helpers ---------------------------------------------------------------------------


def sq(name: str) -> int:
    return SQUARES.index(name)


def pieces(spec: str) -> tuple[Piece, ...]:
    """'BT YC RB' -> blue tall, yellow cube, red bridge (bottom first)."""
    return tuple(Piece.from_code(code) for code in spec.split())


def board(**stacks: str) -> tuple[tuple[Piece, ...], ...]:
    """board(a1='BT RC', b2='YT') — unnamed squares are empty foundations."""
    return tuple(pieces(stacks.get(name, "")) for name in SQUARES)


def position(players: int, turn: int = 0, seed: int = 0, **stacks: str) -> State:
    return replace(g.new(players, None, seed), board=board(**stacks), turn=turn)


def with_stock(state: State, seat: int, **counts: int) -> State:
    """Give ``seat`` exactly the pieces named like red_tall=1 (everything else 0)."""
    row = [0] * 16
    for name, n in counts.items():
        colour, kind = name.split("_")
        row[slot(("red", "blue", "yellow", "green").index(colour), kind)] = n
    stock = list(state.stock)
    stock[seat] = tuple(row)
    return replace(state, stock=tuple(stock))


def stock_of(state: State, seat: int, colour: int, kind: str) -> int:
    return state.stock[seat][slot(colour, kind)]


def play(state: State, seat: int, text: str) -> State:
    step = g.apply(state, seat, g.parse(text))
    new_state, _events = step.state, step.events
    return new_state


def refusal(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def legal_texts(state: State, seat: int) -> set[str]:
    return {g.format(a) for a in g.legal(state, seat)}


def block_squares(state: State, seat: int, colour_kind: str) -> set[str]:
    """The squares where ``seat`` may put e.g. 'red tall'."""
    return {
        t.rsplit(" ", 1)[1] for t in legal_texts(state, seat) if t.startswith(colour_kind + " ")
    }


def heights(state: State) -> tuple[int, ...]:
    return g.view(state, None).heights


def scores(state: State) -> tuple[int, ...]:
    return g.result(state).scores


def assert_touch_invariant(b) -> None:
    for name, stack in zip(SQUARES, b, strict=True):
        for lower, upper in zip(stack, stack[1:], strict=False):
            assert lower.colour != upper.colour, f"{name}: {upper} rests on {lower}"


# -- pieces and stocks -----------------------------------------------------------------


def test_pieces_per_colour_four_players():
    state = g.new(4, None, 1)
    for seat in range(4):
        for colour in range(4):
            for kind in KINDS:
                want = FULL_SET[kind] if colour == seat else 0
                assert stock_of(state, seat, colour, kind) == want, (seat, colour, kind)


def test_stock_two_players_seat0_red_yellow_seat1_blue_green():
    state = g.new(2, None, 1)
    owned = {0: {RED, YELLOW}, 1: {BLUE, GREEN}}
    for seat in range(2):
        for colour in range(4):
            for kind in KINDS:
                want = FULL_SET[kind] if colour in owned[seat] else 0
                assert stock_of(state, seat, colour, kind) == want, (seat, colour, kind)


def test_stock_three_players_each_holds_one_green_tall_and_cube():
    state = g.new(3, None, 1)
    for seat in range(3):
        for colour in range(3):
            for kind in KINDS:
                want = FULL_SET[kind] if colour == seat else 0
                assert stock_of(state, seat, colour, kind) == want, (seat, colour, kind)
        assert stock_of(state, seat, GREEN, "tall") == 1
        assert stock_of(state, seat, GREEN, "cube") == 1
        assert stock_of(state, seat, GREEN, "bridge") == 0
        assert stock_of(state, seat, GREEN, "roof") == 0


def test_player_count_outside_2_to_4_is_refused():
    for players in (1, 5):
        with pytest.raises(engine.BadOptions):
            g.new(players, None, 1)
    with pytest.raises(engine.BadOptions):
        g.new(2, {"variant": "x"}, 1)


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


def test_first_player_comes_from_the_seed_and_play_goes_round_the_table():
    for players in (2, 3, 4):
        firsts = {g.new(players, None, seed).turn for seed in range(40)}
        assert firsts == set(range(players)), "every seat should sometimes start"
        assert g.new(players, None, 7) == g.new(players, None, 7)
        state = g.new(players, None, 3)
        seat = g.to_play(state)[0]
        for _ in range(players + 1):
            state = play(state, seat, g.format(g.legal(state, seat)[0]))
            seat = (seat + 1) % players
            assert g.to_play(state) == (seat,)


def test_only_the_seat_to_play_may_place():
    state = replace(g.new(4, None, 1), turn=0)
    assert g.legal(state, 1) == []
    assert "not your turn" in refusal(state, 1, "blue tall a1")


# -- touch rule ------------------------------------------------------------------------


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


# -- lowest-tower rule -----------------------------------------------------------------


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


# -- bridges ---------------------------------------------------------------------------


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


# -- roofs -----------------------------------------------------------------------------


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


# -- passing and the end of the game ---------------------------------------------------


def test_a_seat_that_cannot_place_is_out_and_skipped_for_good():
    state = g.new(4, None, 1)
    state = replace(state, turn=RED)
    state = with_stock(state, BLUE, blue_bridge=1)  # blue can only lay a bridge
    step = g.apply(state, RED, g.parse("red tall a1"))
    state, events = step.state, step.events
    assert g.to_play(state) == (YELLOW,), "blue has no bridge spot and must be skipped"
    assert BLUE in state.out
    assert any(e.kind == "out" and "{seat1}" in e.text for e in events)
    state = play(state, YELLOW, "yellow tall b1")  # a1-b1 now takes a bridge...
    assert g.to_play(state) == (GREEN,)
    state = play(state, GREEN, "green tall c1")
    state = play(state, RED, "red cube a2")
    # ...but blue is out for the rest of the game
    assert g.to_play(state) == (YELLOW,)
    assert "not your turn" in refusal(state, BLUE, "blue bridge a1-b1")


def test_game_ends_when_nobody_can_place():
    state = position(2, turn=0, a1="BT")
    state = with_stock(state, 0, red_roof=1, yellow_bridge=1)
    state = with_stock(state, 1, blue_roof=1)
    step = g.apply(state, 0, g.parse("red roof a1"))
    state, events = step.state, step.events
    assert g.is_over(state)
    assert g.to_play(state) == ()
    assert any(e.kind == "end" for e in events)
    assert g.legal(state, 0) == [] and g.legal(state, 1) == []
    assert "over" in refusal(state, 1, "blue roof b1")


def test_game_ends_when_all_pieces_are_used():
    state = position(3, turn=0, a1="GT", b1="GT")
    state = with_stock(state, 0, red_cube=1)
    state = with_stock(state, 1, blue_roof=1)
    state = with_stock(state, 2, yellow_bridge=1)
    state = play(state, 0, "red cube c1")
    state = play(state, 1, "blue roof c1")
    assert not g.is_over(state)
    state = play(state, 2, "yellow bridge a1-b1")
    assert g.is_over(state)
    assert all(not any(row) for row in state.stock)


def test_game_goes_on_while_anyone_can_place():
    state = position(2, turn=0, a1="BT")
    state = with_stock(state, 0, red_roof=1)
    state = with_stock(state, 1, blue_cube=2)
    state = play(state, 0, "red roof a1")
    assert g.to_play(state) == (1,)
    state = play(state, 1, "blue cube b1")
    assert g.to_play(state) == (1,), "red is out, so blue plays again"
    assert 0 in state.out
    state = play(state, 1, "blue cube c1")
    assert g.is_over(state)


# -- scoring ---------------------------------------------------------------------------


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


# -- three players: the neutral colour -------------------------------------------------


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


def test_3p_neutral_bridge_and_roof_are_not_held():
    state = position(3, turn=0, a1="BT", b1="YT")
    assert "no green bridge" in refusal(state, 0, "green bridge a1-b1")
    assert "no green roof" in refusal(state, 0, "green roof a1")
    assert not any(t.startswith("green bridge") or t.startswith("green roof")
                   for t in legal_texts(state, 0))  # fmt: skip


def test_3p_neutral_pieces_never_score():
    # a tower roofed green (however it got there) belongs to nobody
    state = position(3, turn=0, a1="BT RC GR", b1="GT RC BR", c1="GC RT")
    result = g.result(state)
    assert result.scores == (0, 5, 0)
    assert len(result.scores) == 3


# -- two players: two colours each ------------------------------------------------------


def test_2p_each_colour_scored_separately_then_added():
    state = position(2, turn=0, a1="BT RR", c3="BT GC YR", b2="RT GR")
    assert scores(state) == (3 + 5, 3)


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


# -- resigning -------------------------------------------------------------------------


def test_resign_any_time_and_finish_last():
    state = position(4, turn=RED, a1="BT YT GR", b1="RT")  # green leads with 6
    step = g.apply(state, GREEN, Resign())  # not green's turn
    state, events = step.state, step.events
    assert any(e.kind == "resign" for e in events)
    assert g.to_play(state) == (RED,)
    assert GREEN in state.resigned
    assert g.result(state).places[GREEN] == 4
    assert "already resigned" in refusal(state, GREEN, "resign")
    state = play(state, RED, "red tall c1")
    state = play(state, BLUE, "blue tall a2")
    state = play(state, YELLOW, "yellow tall b2")
    assert g.to_play(state) == (RED,), "a resigned seat is skipped"
    assert g.result(state).scores[GREEN] == 6 and g.result(state).places[GREEN] == 4


def test_resign_on_turn_passes_the_turn():
    state = replace(g.new(3, None, 1), turn=1)
    state = play(state, 1, "resign")
    assert g.to_play(state) == (2,)
    assert not g.is_over(state)
    state = play(state, 2, "yellow tall a1")
    assert g.to_play(state) == (0,)
    state = play(state, 0, "resign")
    assert g.is_over(state), "one player left: the game is over"
    assert g.result(state).places[2] == 1


def test_2p_game_ends_at_once_when_one_resigns():
    state = position(2, turn=0, a1="BT RR")  # seat 0 leads 3 to 0
    state = play(state, 0, "resign")
    assert g.is_over(state)
    assert g.to_play(state) == ()
    result = g.result(state)
    assert result.places == (2, 1)
    assert result.winners == (1,)


def test_resign_by_waiting_seat_in_2p_also_ends_the_game():
    state = replace(g.new(2, None, 1), turn=0)
    state = play(state, 1, "resign")
    assert g.is_over(state)
    assert g.result(state).winners == (0,)


# -- notation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("red tall b2", "red tall b2"),
        ("rt b2", "red tall b2"),
        ("RT B2", "red tall b2"),
        ("  Red   TALL   b2 ", "red tall b2"),
        ("blue bridge a1-a2", "blue bridge a1-a2"),
        ("blue bridge a2-a1", "blue bridge a1-a2"),
        ("blue bridge a2 a1", "blue bridge a1-a2"),
        ("bb a2-a1", "blue bridge a1-a2"),
        ("yc c3", "yellow cube c3"),
        ("green roof a3", "green roof a3"),
        ("gr a3", "green roof a3"),
        ("resign", "resign"),
    ],
)
def test_parse_and_format(text, canonical):
    action = g.parse(text)
    assert g.format(action) == canonical
    assert g.parse(canonical) == action


def test_compact_notation_is_the_same_action():
    assert g.parse("rt b2") == g.parse("red tall b2") == Place(RED, "tall", (sq("b2"),))
    assert g.parse("bb a1a2") == Place(BLUE, "bridge", (sq("a1"), sq("a2")))
    assert g.parse("resign") == Resign()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello", "can't read"),
        ("", "can't read"),
        ("red tall d4", "can't read"),
        ("purple tall a1", "not a colour"),
        ("red spire a1", "not a piece"),
        ("blue bridge a1", "bridge joins two squares"),
        ("red roof a1-a2", "one square"),
        ("red tall a1 a2", "one square"),
        ("blue bridge a1-a1", "two different towers"),
    ],
)
def test_unreadable_moves_raise_illegal_move_with_a_clear_message(text, words):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert words in caught.value.reason


def test_apply_never_mutates_its_input_even_on_refusal():
    rnd = random.Random(99)
    state = g.new(4, None, 99)
    tried = 0
    while not g.is_over(state):
        seat = g.to_play(state)[0]
        before = g.to_json(state)
        # a few arbitrary (mostly illegal) moves, by the right seat and the wrong ones
        for _ in range(3):
            text = (
                f"{rnd.choice(('red', 'blue', 'yellow', 'green'))} "
                f"{rnd.choice(('tall', 'cube', 'roof'))} {rnd.choice(SQUARES)}"
            )
            who = rnd.randrange(4)
            try:
                g.apply(state, who, g.parse(text))
            except IllegalMove:
                tried += 1
            assert g.to_json(state) == before
        new_state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
        assert g.to_json(state) == before
        assert new_state is not state
        state = new_state
    assert tried > 20


# -- random whole games ----------------------------------------------------------------


def initial_totals(players: int) -> dict[tuple[int, str], int]:
    state = g.new(players, None, 0)
    return {
        (c, k): sum(state.stock[s][slot(c, k)] for s in range(players))
        for c in range(4)
        for k in KINDS
    }


def independent_score(b, colour: int) -> int:
    """RULINGS §3.2's formula, written again from the text."""
    h = [sum(STORY[p.kind] for p in stack) for stack in b]
    owner = [stack[-1].colour if stack and stack[-1].kind == "roof" else None for stack in b]
    total = sum(h[i] for i in range(9) if owner[i] == colour)
    ends = [i for i in range(9) if Piece(colour, "bridge") in b[i]]
    if ends:
        a, c = ends
        total += (owner[a] == colour) * h[c] + (owner[c] == colour) * h[a]
    return total


def check_invariants(state: State, players: int, totals) -> None:
    b = state.board
    assert_touch_invariant(b)
    for stack in b:
        if any(p.kind == "roof" for p in stack):
            assert stack[-1].kind == "roof" and sum(p.kind == "roof" for p in stack) == 1
    for colour in range(4):
        ends = [i for i in range(9) if Piece(colour, "bridge") in b[i]]
        assert len(ends) in (0, 2), f"bridge of colour {colour} on {ends}"
        if ends:
            assert frozenset(ends) in ORTHOGONAL
            levels = [
                sum(STORY[p.kind] for p in b[i][: b[i].index(Piece(colour, "bridge"))])
                for i in ends
            ]
            assert levels[0] == levels[1], "a bridge lies level"
    on_board: dict[tuple[int, str], int] = {}
    for i, stack in enumerate(b):
        for p in stack:
            if p.kind == "bridge" and i == max(j for j in range(9) if p in b[j]):
                continue  # count each bridge once
            on_board[(p.colour, p.kind)] = on_board.get((p.colour, p.kind), 0) + 1
    for (colour, kind), total in totals.items():
        in_stock = sum(state.stock[s][slot(colour, kind)] for s in range(players))
        assert on_board.get((colour, kind), 0) + in_stock == total, (colour, kind)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players):
    totals = initial_totals(players)
    for seed in range(30):
        rnd = random.Random(seed * 7 + players)
        state = g.new(players, None, seed)
        steps = 0
        while not g.is_over(state):
            (seat,) = g.to_play(state)
            assert seat not in state.out
            moves = g.legal(state, seat)
            assert moves, "the seat to play always has a legal placement"
            action = rnd.choice(moves)
            if action.kind in ("tall", "cube"):
                allowed = [
                    sum(STORY[p.kind] for p in s)
                    for s in state.board
                    if not (s and (s[-1].kind == "roof" or s[-1].colour == action.colour))
                ]
                target = state.board[action.squares[0]]
                assert sum(STORY[p.kind] for p in target) == min(allowed), "lowest-tower rule"
            out_before = state.out
            state = g.apply(state, seat, action).state
            steps += 1
            assert out_before <= state.out, "a seat that is out stays out"
            for skipped in state.out - out_before:
                assert g.legal(replace(state, turn=skipped), skipped) == []
            check_invariants(state, players, totals)
            assert steps <= sum(totals.values())
        # every seat passed for good, each at a turn where it could not place (checked above)
        assert state.out == frozenset(range(players))
        result = g.result(state)
        assert 1 in result.places
        owned = [(0, 2), (1, 3)] if players == 2 else [(s,) for s in range(players)]
        for seat in range(players):
            want = sum(independent_score(state.board, c) for c in owned[seat])
            assert result.scores[seat] == want
        assert steps >= 30


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
