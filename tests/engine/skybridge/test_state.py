"""Skybridge's pieces: how many of each, and who holds which colours (RULINGS §3)."""

from __future__ import annotations

import pytest

import engine
from engine.skybridge.board import KINDS
from tests.engine.skybridge.conftest import (
    BLUE,
    FULL_SET,
    GREEN,
    RED,
    YELLOW,
    g,
    legal_texts,
    position,
    refusal,
    stock_of,
)


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


def test_3p_neutral_bridge_and_roof_are_not_held():
    state = position(3, turn=0, a1="BT", b1="YT")
    assert "no green bridge" in refusal(state, 0, "green bridge a1-b1")
    assert "no green roof" in refusal(state, 0, "green roof a1")
    assert not any(t.startswith("green bridge") or t.startswith("green roof")
                   for t in legal_texts(state, 0))  # fmt: skip
