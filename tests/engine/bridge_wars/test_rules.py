"""Bridge Wars rules, RULINGS §2, each by name, played through the engine's public surface.

Games start with real setup moves (``red sw``). Positions a rule needs are then built
with :func:`engine.bridge_wars.rules.put`, the engine's own "drop this block in" step,
which skips the legality checks, so one rule can be looked at on its own without
playing out thirty turns first. Colours: 0 red, 1 blue, 2 yellow, 3 green.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine.bridge_wars.blocks import COUNTS, NAMES, OFFSETS, ORIENTATIONS, PLAYABLE, orbit
from engine.bridge_wars.board import (
    BRASS,
    DIAMOND,
    HOLES,
    STARTERS,
    TRIANGLES,
    name,
    parse_hole,
)
from engine.bridge_wars.rules import (
    Choose,
    Landing,
    Place,
    Resign,
    State,
    place_refusal,
    put,
    rods,
)
from engine.core import BadOptions, IllegalMove

g = engine.get("bridge-wars")

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


# -- helpers ---------------------------------------------------------------------------


def h(text: str) -> int:
    index = parse_hole(text)
    assert index is not None, text
    return index


def play(state: State, text: str) -> State:
    """The seat to act plays ``text``."""
    step = g.apply(state, g.to_play(state)[0], g.parse(text))
    new_state, _events = step.state, step.events
    return new_state


def started(*picks: str, players: int = 2, seed: int = 0, height: int | None = None) -> State:
    """A game whose players took ``picks`` (colour and corner) in choosing order."""
    state = g.new(players, None if height is None else {"height": height}, seed)
    for text in picks:
        state = play(state, text)
    return state


def holes_of(mask: int) -> list[int]:
    return [i for i in range(HOLES) if mask >> i & 1]


def seat_of(state: State, colour: int) -> int:
    return state.colours.index(colour)


def drop_in(state: State, colour: int, *moves: str) -> State:
    """Put blocks in for ``colour``'s seat without checking legality (see module doc)."""
    seat = seat_of(state, colour)
    for text in moves:
        action = g.parse(text)
        assert isinstance(action, Place)
        state, _ = put(state, seat, action)
    return state


def with_stock(state: State, seat: int, blocks: dict[str, int]) -> State:
    """Give ``seat`` exactly ``blocks`` (e.g. ``{"I2": 1}``), nothing else."""
    row = tuple(blocks.get(n, 0) for n in NAMES)
    return replace(state, stock=tuple(row if s == seat else st for s, st in enumerate(state.stock)))


def to_move(state: State, colour: int) -> State:
    return replace(state, turn=seat_of(state, colour))


def refusal(state: State, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, g.to_play(state)[0], g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def level_of(state: State, where: str) -> int:
    return state.tops[h(where)]


def owner_of(state: State, where: str) -> int:
    return state.owner[h(where)]


def red_blue() -> State:
    """Two players: red in the south-west corner, blue in the north-east; red to move."""
    return to_move(started("red sw", "blue ne"), RED)


# -- the board -------------------------------------------------------------------------


def test_board_is_a_diamond_of_61_and_four_corners_of_15():
    assert bin(DIAMOND).count("1") == 61
    assert [bin(TRIANGLES[c]).count("1") for c in TRIANGLES] == [15, 15, 15, 15]
    union = DIAMOND
    for mask in TRIANGLES.values():
        assert not union & mask, "corners and diamond do not overlap"
        union |= mask
    assert union == (1 << HOLES) - 1 == (1 << 121) - 1
    assert name(BRASS) == "f6"
    assert {name(i) for i in holes_of(TRIANGLES["sw"])} == {
        "a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "a4", "b4", "a5"
    }  # fmt: skip


def test_only_claimed_corners_have_rods():
    state = g.new(3, None, 1)
    assert rods(state) == DIAMOND
    state = play(state, "red ne")
    assert rods(state) == DIAMOND | TRIANGLES["ne"]
    state = play(state, "blue sw")
    assert rods(state) == DIAMOND | TRIANGLES["ne"] | TRIANGLES["sw"]
    assert not rods(state) & (TRIANGLES["nw"] | TRIANGLES["se"])


def test_hole_names_run_a_to_k_and_1_to_11():
    assert name(h("a1")) == "a1" and name(h("k11")) == "k11"
    for bad in ("l1", "a0", "a12", "a01", "f", "66", ""):
        assert parse_hole(bad) is None, bad


# -- the blocks ------------------------------------------------------------------------


def test_a_colour_has_20_blocks_with_71_holes():
    assert sum(COUNTS) == 20
    assert (
        sum(n * len(OFFSETS[(b, ORIENTATIONS[b][0])]) for b, n in zip(NAMES, COUNTS, strict=True))
        == 71
    )
    assert dict(zip(NAMES, COUNTS, strict=True)) == {
        "O4": 1, "I2": 3, "I3": 3, "I4": 3, "I5": 2, "L3": 2, "L4": 2, "T4": 2, "S4": 2
    }  # fmt: skip


def test_every_rotation_and_flip_is_one_orientation_each():
    want = {"O4": 1, "I2": 2, "I3": 2, "I4": 2, "I5": 2, "L3": 4, "L4": 8, "T4": 4, "S4": 4}
    for block in NAMES:
        shapes = [OFFSETS[(block, code)] for code in ORIENTATIONS[block]]
        assert len(set(shapes)) == len(shapes) == want[block], block
        assert set(shapes) == orbit(shapes[0]), block


def test_orientation_codes_say_which_way_a_block_points():
    def cells(block: str, code: str) -> set[tuple[int, int]]:
        return set(OFFSETS[(block, code)])

    assert cells("I3", "h") == {(0, 0), (1, 0), (2, 0)}
    assert cells("I3", "v") == {(0, 0), (0, 1), (0, 2)}
    # L4: long arm, then foot, from the corner hole
    assert cells("L4", "ne") == {(0, 0), (0, 1), (0, 2), (1, 0)}
    assert cells("L4", "en") == {(0, 0), (1, 0), (2, 0), (0, 1)}
    assert cells("L4", "ws") == {(0, 0), (0, 1), (-1, 1), (-2, 1)}
    assert cells("L3", "ne") == {(0, 0), (0, 1), (1, 0)}
    # T4: where the nose points; S4: the letter it looks like with north up
    assert cells("T4", "n") == {(0, 0), (1, 0), (2, 0), (1, 1)}
    assert cells("T4", "s") == {(0, 0), (-1, 1), (0, 1), (1, 1)}
    assert cells("S4", "sh") == {(0, 0), (1, 0), (1, 1), (2, 1)}
    assert cells("S4", "zh") == {(0, 0), (1, 0), (-1, 1), (0, 1)}


def test_reference_hole_is_the_lowest_then_leftmost():
    state = drop_in(red_blue(), RED, "T4 s f6")
    assert {name(c) for c in state.placed[-1].cells} == {"f6", "e7", "f7", "g7"}
    state = drop_in(red_blue(), RED, "L4 ws g6")
    assert {name(c) for c in state.placed[-1].cells} == {"g6", "g7", "f7", "e7"}


# -- setup -----------------------------------------------------------------------------


def test_setup_goes_in_seat_order_from_a_seat_drawn_at_random():
    firsts = {g.new(3, None, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2}
    state = g.new(3, None, 5)
    first = state.turn
    assert len(g.legal(state, first)) == 16  # 4 colours x 4 corners
    assert {type(a) for a in g.legal(state, first)} == {Choose}
    state = play(state, "green se")
    assert g.to_play(state) == ((first + 1) % 3,)
    assert all(a.colour != GREEN and a.corner != "se" for a in g.legal(state, g.to_play(state)[0]))
    assert len(g.legal(state, g.to_play(state)[0])) == 9


def test_claiming_a_corner_puts_the_starter_in_its_outer_2x2():
    state = started("red ne", "blue sw")
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert state.corners[red] == "ne" and state.corners[blue] == "sw"
    for where in ("j10", "k10", "j11", "k11"):
        assert level_of(state, where) == 1 and owner_of(state, where) == RED
    for where in ("a1", "b1", "a2", "b2"):
        assert level_of(state, where) == 1 and owner_of(state, where) == BLUE
    assert {name(STARTERS[c]) for c in STARTERS} == {"j10", "a10", "j1", "a1"}
    for seat in (red, blue):
        assert state.stock[seat][NAMES.index("O4")] == 0
        assert sum(state.stock[seat]) == 19


def test_a_taken_colour_or_corner_is_refused_naming_who_has_it():
    state = g.new(3, None, 2)
    first = state.turn
    state = play(state, "yellow nw")
    assert refusal(state, "yellow se") == f"Yellow is taken: {{seat{first}}} plays it."
    assert refusal(state, "red nw") == (
        f"The north-west corner is taken: {{seat{first}}} starts there."
    )


def test_the_last_of_four_gets_the_last_colour_and_corner_without_asking():
    state = started("red ne", "blue nw", "yellow se", players=4, seed=3)
    last = (state.first + 3) % 4
    assert state.colours[last] == GREEN and state.corners[last] == "sw"
    assert g.to_play(state) == (state.first,), "setup is over: the first chooser plays"
    assert all(isinstance(a, Place) for a in g.legal(state, state.first))


def test_the_first_to_choose_plays_first_then_play_goes_left():
    for seed in range(6):
        state = started("red ne", "blue sw", "green nw", players=3, seed=seed)
        first = state.first
        assert g.to_play(state) == (first,)
        for step in range(1, 7):
            state = play(state, g.format(g.legal(state, g.to_play(state)[0])[0]))
            assert g.to_play(state) == ((first + step) % 3,)


def test_setup_and_play_moves_are_not_mixed_up():
    state = g.new(2, None, 1)
    assert "First choose your colour and corner" in refusal(state, "I2 h f6")
    state = started("red sw", "blue ne")
    assert "Colours and corners are chosen" in refusal(state, "green se")


# -- dropping a block ------------------------------------------------------------------


def test_a_block_drops_until_one_hole_meets_a_block():
    state = red_blue()
    state = play(state, "I2 v b2")  # on the starter's b2, and down b3's empty rod
    block = state.placed[-1]
    assert block.level == 2
    assert {name(c): level_of(state, name(c)) for c in block.cells} == {"b2": 2, "b3": 2}
    state = to_move(drop_in(state, RED, "I2 h a2"), RED)  # a2, b2 now at level 3
    state = play(state, "I3 v b2")  # b2 is 3 high, b3 2, b4 empty: stops on b2
    assert state.placed[-1].level == 4


def test_contact_rule_a_block_must_rest_on_its_own_colour():
    state = drop_in(red_blue(), BLUE, "I2 h c1")  # blue next to red's starter, level 1
    reason = refusal(state, "I3 h a1")  # would rest on red a1, b1 and blue c1
    assert reason.startswith("Contact rule: I3 h at a1 would rest on blue at c1 (level 1)")
    assert "only on your own colour" in reason
    assert isinstance(place_refusal(state, seat_of(state, RED), g.parse("I2 h a1")), Landing)


def test_contact_rule_nothing_but_the_starter_stands_on_the_board():
    reason = refusal(red_blue(), "I3 h d5")
    assert reason.startswith("Contact rule: I3 h at d5 would drop onto the board")


def test_bridging_over_another_colour_with_a_gap_is_legal():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")  # red b2..b4: b3 is 3 high
    state = drop_in(state, BLUE, "I2 h c3")  # blue c3, d3 at level 1
    state = to_move(state, RED)
    red = seat_of(state, RED)
    step = g.apply(state, red, g.parse("I3 h b3"))  # b3 red 3, c3 d3 blue 1
    state, events = step.state, step.events
    block = state.placed[-1]
    assert block.level == 4
    assert [owner_of(state, w) for w in ("b3", "c3", "d3")] == [RED, RED, RED]
    assert "bridging over blue at c3 and d3" in events[0].text
    assert len(state.placed) == 6
    assert [level_of(state, w) for w in ("c3", "d3")] == [4, 4]
    assert state.placed[4].colour == BLUE, "the blue block is still there, under the bridge"


def test_a_bridge_may_not_touch_the_other_colour():
    state = drop_in(red_blue(), RED, "I2 v b2")  # red b2, b3 at level 2
    state = drop_in(state, BLUE, "I2 h c3")
    state = drop_in(state, BLUE, "I2 h c3")  # blue c3, d3 at level 2: same as red b3
    reason = refusal(to_move(state, RED), "I3 h b3")
    assert reason.startswith("Contact rule: I3 h at b3 would rest on blue at c3 and d3 (level 2)")
    assert "leave a gap" in reason


def test_bridging_over_empty_rods_and_own_colour_is_legal():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")  # b3 is 3 high
    state = play(to_move(state, RED), "I4 h b3")  # c3, d3, e3 empty: a gap of 3 levels
    assert state.placed[-1].level == 4
    assert [level_of(state, w) for w in ("c3", "d3", "e3")] == [4, 4, 4]


def test_bridging_takes_the_rods_from_the_colour_below():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")
    state = drop_in(state, BLUE, "I2 h c3")
    before = g.result(state).scores
    state = play(to_move(state, RED), "I3 h b3")
    after = g.result(state).scores
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert after[red] - before[red] == 2 and before[blue] - after[blue] == 2


def test_playable_area_every_hole_needs_a_rod():
    state = drop_in(red_blue(), RED, "I3 v a3")  # red up to a5, the tip of its corner
    # a6 has a rod of the diamond, a7 is in the unclaimed north-west corner
    reason = refusal(to_move(state, RED), "I3 v a5")
    assert reason == (
        "Playable area: I3 v at a5 would need a rod in a7, and there is none "
        "(only the centre diamond and the claimed corners have rods)."
    )


def test_playable_area_a_block_may_not_stick_out_over_the_edge():
    reason = refusal(red_blue(), "I3 h j1")
    assert reason == "Playable area: I3 h at j1 would stick out over the edge of the board."


def test_playable_area_nothing_above_the_top_of_the_rods():
    state = started("red sw", "blue ne", height=4)
    state = drop_in(state, RED, "I3 h a1", "I4 h a1", "I5 h a1")  # a1 up to level 4
    assert level_of(state, "a1") == 4
    reason = refusal(to_move(state, RED), "I2 v a1")
    assert reason == (
        "Playable area: I2 v at a1 would come to rest at level 5, above the 4-layer rods, "
        "because the rod at a1 is full to the top."
    )
    state = to_move(state, RED)
    for move in g.legal(state, seat_of(state, RED)):
        landing = place_refusal(state, seat_of(state, RED), move)
        assert isinstance(landing, Landing) and landing.level <= 4
        assert h("a1") not in landing.cells


def test_blocks_are_used_up():
    state = red_blue()
    red = seat_of(state, RED)
    held = {n: c for n, c in zip(NAMES, COUNTS, strict=True) if n not in ("O4", "I5")}
    state = with_stock(state, red, held)
    assert refusal(state, "I5 v b2").startswith("You have no I5 left; you have I2×3, I3×3")
    assert not any(m.block == "I5" for m in g.legal(state, red))
    assert "starter" in refusal(state, "O4 o c3")


def test_only_the_seat_to_move_may_play():
    state = red_blue()
    blue = seat_of(state, BLUE)
    assert g.legal(state, blue) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        g.apply(state, blue, g.parse("I2 h j10"))


def test_legal_lists_exactly_the_placements_apply_accepts():
    """The fast move generator and the explaining checker agree, in random positions."""
    rnd = random.Random(4)
    for players in (2, 3, 4):
        state = g.new(players, None, players)
        for step in range(60):
            if g.is_over(state):
                break
            seat = g.to_play(state)[0]
            moves = g.legal(state, seat)
            if step % 12 == 5 and isinstance(moves[0], Place):
                accepted = {
                    Place(block, orient, anchor)
                    for block in PLAYABLE
                    for orient in ORIENTATIONS[block]
                    for anchor in range(HOLES)
                    if isinstance(place_refusal(state, seat, Place(block, orient, anchor)), Landing)
                }
                assert set(moves) == accepted
                assert len(moves) == len(accepted), "no placement listed twice"
            state = g.apply(state, seat, rnd.choice(moves)).state


def test_legal_placements_are_listed_block_orientation_then_hole():
    state = red_blue()
    moves = g.legal(state, seat_of(state, RED))
    keys = [
        (PLAYABLE.index(m.block), ORIENTATIONS[m.block].index(m.orient), name(m.anchor)[0],
         int(name(m.anchor)[1:]))
        for m in moves
    ]  # fmt: skip
    assert keys == sorted(keys)
    assert g.format(moves[0]) == "I2 h a1"


# -- the end ---------------------------------------------------------------------------


def test_reaching_the_top_gives_every_other_player_one_more_turn():
    state = started("red sw", "blue ne", "green nw", players=3, height=4)
    state = to_move(drop_in(state, RED, "I2 h a1", "I2 h a1"), RED)  # a1, b1 at level 3
    red = seat_of(state, RED)
    step = g.apply(state, red, g.parse("I2 h a1"))  # level 4: the top
    state, events = step.state, step.events
    assert "reached the top of the rods" in events[-1].text
    others = [(red + 1) % 3, (red + 2) % 3]
    assert state.final == tuple(others)
    assert g.to_play(state) == (others[0],)
    state = play(state, g.format(g.legal(state, others[0])[0]))
    assert g.to_play(state) == (others[1],)
    state = play(state, g.format(g.legal(state, others[1])[0]))
    assert g.is_over(state), "red does not get another turn"
    assert state.ending == "top"
    assert g.view(state, None).ending == "a block reached the top of the rods"


def test_the_last_block_gives_every_other_player_one_more_turn():
    state = red_blue()
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    state = with_stock(state, red, {"I2": 1})
    step = g.apply(state, red, g.parse("I2 h a1"))
    state, events = step.state, step.events
    assert "put in their last block" in events[-1].text
    assert g.to_play(state) == (blue,)
    assert g.view(state, None).final == (blue,)
    state = play(state, "I2 h j10")
    assert g.is_over(state) and state.ending == "last"


def test_a_player_who_cannot_place_ends_the_game_at_once():
    state = started("red sw", "blue ne", "green nw", players=3)
    # blue covers red's starter, so red has nothing of its own to rest a block on
    state = drop_in(state, BLUE, "I2 h a1", "I2 h a2")
    before_red = (seat_of(state, RED) - 1) % 3
    state = replace(state, turn=before_red)
    step = g.apply(state, before_red, g.legal(state, before_red)[0])
    state, events = step.state, step.events
    assert g.is_over(state), "red cannot place: nobody else plays"
    assert state.ending == "stuck"
    assert "cannot put any block into play: the game ends" in events[-2].text
    assert events[-1].text.startswith("Game over:")


def test_a_player_stuck_during_the_last_round_also_ends_it_at_once():
    state = started("red sw", "blue ne", "green nw", players=3, height=4)
    red = seat_of(state, RED)
    after_red = [(red + 1) % 3, (red + 2) % 3]
    assert state.colours[after_red[1]] == GREEN
    # red covers green's starter; and stacks a1, b1 to one below the top
    state = drop_in(state, RED, "I2 h a10", "I2 h a11", "I2 h a1", "I2 h a1")
    step = g.apply(to_move(state, RED), red, g.parse("I2 h a1"))  # to the top
    state, _ = step.state, step.events
    assert state.final == tuple(after_red)
    state = play(state, g.format(g.legal(state, after_red[0])[0]))
    assert g.is_over(state) and state.ending == "stuck"


def test_moves_after_the_end_are_refused():
    state = red_blue()
    state = replace(state, turn=-1)
    with pytest.raises(IllegalMove, match="The game is over"):
        g.apply(state, 0, g.parse("I2 h a1"))
    assert g.legal(state, 0) == [] and g.to_play(state) == ()


# -- scoring ---------------------------------------------------------------------------


def test_each_rod_scores_for_the_colour_on_top_and_brass_scores_5():
    state = red_blue()
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert g.result(state).scores[red] == 4 and g.result(state).scores[blue] == 4
    state = drop_in(state, RED, "I3 h e6")  # e6, f6 (brass), g6
    assert g.result(state).scores[red] == 4 + 1 + 5 + 1
    state = drop_in(state, BLUE, "I2 h f6")  # blue covers f6 and g6
    assert g.result(state).scores[red] == 4 + 1
    assert g.result(state).scores[blue] == 4 + 5 + 1


def test_most_points_wins():
    state = drop_in(red_blue(), RED, "I3 h c1")
    result = g.result(state)
    assert result.places[seat_of(state, RED)] == 1 and result.places[seat_of(state, BLUE)] == 2
    assert result.detail == ""


def test_ties_go_to_the_brass_rod_then_to_rods_held_at_the_top_layer():
    state = drop_in(red_blue(), RED, "I2 h f6")  # red: 4 + brass 5 + 1 = 10
    state = drop_in(state, BLUE, "I3 h c1", "I3 h c2")  # blue: 4 + 6 = 10
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    result = g.result(state)
    assert result.scores[red] == result.scores[blue] == 10
    assert result.places[red] == 1 and result.places[blue] == 2
    assert "brass" in result.detail

    state = started("red sw", "blue ne", height=4)
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    state = drop_in(state, RED, *["I2 h c1"] * 4)  # c1, d1 red at level 4, the top
    state = drop_in(state, BLUE, "I2 h h10")  # h10, i10 blue at level 1
    result = g.result(state)
    assert result.scores[red] == result.scores[blue] == 6
    assert result.places[red] == 1, "red holds 2 rods at the top layer, blue none"

    state = started("red sw", "blue ne")
    result = g.result(state)
    assert result.places == (1, 1), "a complete tie is shared"


# -- resigning -------------------------------------------------------------------------


def test_resigning_passes_the_turn_and_finishes_last():
    state = started("red sw", "blue ne", "green nw", players=3)
    mover = g.to_play(state)[0]
    step = g.apply(state, mover, Resign())
    state, events = step.state, step.events
    assert events[0].text == f"{{seat{mover}}} resigned."
    assert g.to_play(state) == ((mover + 1) % 3,)
    assert not g.is_over(state)
    state = drop_in(state, state.colours[mover], "I3 h e6")  # their blocks stay in play
    assert g.result(state).places[mover] == 3
    for _ in range(4):  # the resigned seat is skipped
        assert g.to_play(state)[0] != mover
        state = play(state, g.format(g.legal(state, g.to_play(state)[0])[0]))


def test_resigning_with_two_players_ends_the_game():
    state = red_blue()
    blue = seat_of(state, BLUE)
    step = g.apply(state, blue, Resign())  # not blue's turn: still allowed
    state, _ = step.state, step.events
    assert g.is_over(state) and state.ending == "resign"
    assert g.result(state).places[blue] == 2
    with pytest.raises(IllegalMove, match="over"):
        g.apply(state, blue, Resign())


def test_resigning_during_setup_skips_the_seat():
    state = g.new(3, None, 0)
    first = state.turn
    state = play(state, "red sw")
    quitter = g.to_play(state)[0]
    state = g.apply(state, quitter, Resign()).state
    last = (first + 2) % 3
    assert g.to_play(state) == (last,)
    state = play(state, "blue ne")
    assert g.to_play(state) == (first,), "setup is over and the first chooser plays"
    assert state.colours[quitter] == -1


# -- options and notation --------------------------------------------------------------


def test_rod_height_is_an_option():
    assert g.new(2, None, 1).height == 12
    assert g.new(2, {"height": 8}, 1).height == 8
    assert g.new(2, {"height": "10"}, 1).height == 10
    for bad in (3, 17, "tall", True, 9.5):
        with pytest.raises(BadOptions, match="height"):
            g.new(2, {"height": bad}, 1)
    with pytest.raises(BadOptions, match="no option colour"):
        g.new(2, {"colour": "red"}, 1)
    for players in (1, 5):
        with pytest.raises(BadOptions, match="2 to 4 players"):
            g.new(players, None, 1)


def test_notation_reads_block_orientation_hole_and_writes_one_form():
    assert g.parse("I3 h f6") == Place("I3", "h", h("f6"))
    assert g.parse("  l4   NE  c5 ") == Place("L4", "ne", h("c5"))
    assert g.format(g.parse("t4 s G7")) == "T4 s g7"
    assert g.parse("red ne") == Choose(RED, "ne")
    assert g.parse("b north-west") == Choose(BLUE, "nw")
    assert g.format(Choose(GREEN, "se")) == "green se"
    assert g.parse("resign") == Resign() and g.format(Resign()) == "resign"


@pytest.mark.parametrize(
    ("text", "holes"),
    [
        ("I3 h f6", {"f6", "g6", "h6"}),
        ("I4 v c4", {"c4", "c5", "c6", "c7"}),
        ("L4 ne c5", {"c5", "c6", "c7", "d5"}),
        ("T4 s g7", {"g7", "f8", "g8", "h8"}),
        ("S4 zh d5", {"d5", "e5", "c6", "d6"}),
    ],
)
def test_the_rules_page_examples_cover_the_holes_it_says(text: str, holes: set[str]):
    state = drop_in(red_blue(), RED, text)
    assert {name(c) for c in state.placed[-1].cells} == holes


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("X9 h f6", "'x9' is not a block"),
        ("L4 h f6", "'h' is not an orientation of L4: use ne, nw, se, sw, en, es, wn, ws"),
        ("I3 h z9", "'z9' is not a hole"),
        ("red middle", "'middle' is not a corner"),
        ("I3 f6", "can't read"),
    ],
)
def test_unreadable_moves_say_what_is_wrong(text: str, why: str):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert why in caught.value.reason


def test_apply_checks_an_actions_shape_itself():
    state = red_blue()
    for action in (Place("I3", "ne", h("f6")), Place("Q1", "h", 3), Place("I3", "h", 500)):
        with pytest.raises(IllegalMove):
            g.apply(state, state.turn, action)
    with pytest.raises(IllegalMove):
        g.apply(g.new(2, None, 1), g.new(2, None, 1).turn, Choose(7, "ne"))


# -- whole games -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_legal_games_keep_every_rule(players: int):
    rnd = random.Random(players)
    endings = set()
    for seed in range(6):
        state = g.new(players, None, seed)
        while not g.is_over(state):
            seat = g.to_play(state)[0]
            state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
        endings.add(state.ending)
        tops, owner = [0] * HOLES, [-1] * HOLES
        for block in state.placed:
            below = [tops[c] for c in block.cells]
            assert block.level == 1 + max(below) <= state.height
            if block.block == "O4":
                assert block.level == 1
            else:
                resting = [c for c in block.cells if tops[c] == block.level - 1]
                assert resting and all(owner[c] == block.colour for c in resting)
            assert all(rods(state) >> c & 1 for c in block.cells)
            for c in block.cells:
                tops[c], owner[c] = block.level, block.colour
        assert tuple(tops) == state.tops and tuple(owner) == state.owner
        assert sum(g.result(state).scores) == sum(
            5 if c == BRASS else 1 for c in range(HOLES) if owner[c] >= 0
        )
        assert g.from_json(g.to_json(state)) == state
    assert endings <= {"top", "last", "stuck"}
