"""Turns and the end (flow.py, RULINGS §2.5): who plays when, the last round, the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalMove
from tests.engine.bridge_wars.conftest import (
    BLUE,
    GREEN,
    RED,
    drop_in,
    g,
    play,
    play_first_legal,
    red_blue,
    seat_of,
    started,
    to_move,
    with_stock,
)


def test_the_first_to_choose_plays_first_then_play_goes_left():
    for seed in range(6):
        state = started("red ne", "blue sw", "green nw", players=3, seed=seed)
        first = state.first
        assert g.to_play(state) == (first,)
        for step in range(1, 7):
            state = play_first_legal(state)
            assert g.to_play(state) == ((first + step) % 3,)


def test_only_the_seat_to_move_may_play():
    state = red_blue()
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert g.legal(state, blue) == []
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, blue, g.parse("I2 h j10"))
    assert caught.value.reason == f"It is not your turn: waiting for {{seat{red}}}."


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
    state = play_first_legal(state)
    assert g.to_play(state) == (others[1],)
    state = play_first_legal(state)
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
    state = g.apply(to_move(state, RED), red, g.parse("I2 h a1")).state  # to the top
    assert state.final == tuple(after_red)
    state = play_first_legal(state)
    assert g.is_over(state) and state.ending == "stuck"


def test_moves_after_the_end_are_refused():
    state = red_blue()
    state = replace(state, turn=-1)
    with pytest.raises(IllegalMove, match="The game is over"):
        g.apply(state, 0, g.parse("I2 h a1"))
    assert g.legal(state, 0) == [] and g.to_play(state) == ()
