"""Whole random games: every block in play obeys every rule, and the state adds up."""

from __future__ import annotations

import random

import pytest

from engine.bridge_wars.board import BRASS, HOLES
from engine.bridge_wars.state import rods
from tests.engine.bridge_wars.conftest import g


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
        starters = [block for block in state.placed if block.block == "O4"]
        played = [block for block in state.placed if block.block != "O4"]
        assert len(starters) == players and played, "every seat set up, and blocks were played"
        assert all(block.level == 1 for block in starters)
        tops, owner = [0] * HOLES, [-1] * HOLES
        for block in state.placed:
            below = [tops[c] for c in block.cells]
            assert block.level == 1 + max(below) <= state.height
            if block.block != "O4":
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
