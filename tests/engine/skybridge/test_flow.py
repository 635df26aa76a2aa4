"""Turn order, seats that are out, the end of the game, and invariants over random games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.skybridge.board import SQUARES
from tests.engine.skybridge.conftest import (
    BLUE,
    GREEN,
    RED,
    STORY,
    YELLOW,
    check_invariants,
    g,
    independent_score,
    initial_totals,
    play,
    position,
    refusal,
    with_stock,
)


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
