"""``mc100``, the arena's reference opponent: legal, from the seat's view alone, the same
move for the same seed, and playable in the arena against any level."""

from __future__ import annotations

import random

import pytest

import engine
from bot.tools import arena, reference

KEYS = sorted(engine.GAMES)


def _positions(g, seed: int, every: int = 7):
    """States of one random two-player game (alone for a solo-only game), every few moves."""
    players = 2 if g.info.min_players <= 2 <= g.info.max_players else g.info.min_players
    rnd = random.Random(seed)
    state = g.new(players, None, seed)
    moves = 0
    while not g.is_over(state):
        seat = rnd.choice(tuple(g.awaited(state)))
        if moves % every == 0:
            yield state, seat
        state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
        moves += 1


@pytest.mark.parametrize("key", KEYS)
def test_mc100_plays_a_legal_action_and_the_same_one_for_the_same_seed(key):
    g = engine.get(key)
    for number, (state, seat) in enumerate(_positions(g, 5)):
        if number >= 4:
            break
        legal = g.legal(state, seat)
        chosen = reference.choose(g, g.view(state, seat), legal, seed=number)
        assert chosen in legal
        assert reference.choose(g, g.view(state, seat), legal, seed=number) == chosen


def test_mc100_decides_from_the_view_two_secrets_behind_one_view_give_one_move():
    """Two states a seat cannot tell apart (the other hands dealt differently) get the
    same move: nothing hidden reaches the reference player either."""
    g = engine.get("seven-cities")
    state = g.new(2, None, 11)
    seen = g.view(state, 0)
    other = g.sample(seen, engine.core.Rng(99))
    assert other != state and g.view(other, 0) == seen
    legal = g.legal(state, 0)
    assert reference.choose(g, seen, legal, 3) == reference.choose(g, g.view(other, 0), legal, 3)


def test_the_arena_plays_mc100_against_our_levels_and_names_it_among_the_levels(capsys):
    line = arena.run("skybridge", "mc100", "easy", games=2, seed=4)
    assert line["a"] == "mc100" and line["wins"] + line["losses"] + line["draws"] == 2
    with pytest.raises(SystemExit, match="mc100"):
        arena.run("skybridge", "mc200", "easy", games=1, seed=4)
