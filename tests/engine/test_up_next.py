"""``up_next``: the seat whose turn comes after the one being played, for the players'
"you're next" heads-up. Checked against what really happens: in random games of every
game and table size, whenever a game names the next seat, the next seat other than the
player's own to be awaited for a turn of its own is that one."""

from __future__ import annotations

import random

import pytest

import engine

#: what may change the order after it was named: a seat found unable to play when its
#: turn comes (Skybridge: out; Bridge Wars: the game ends)
UNFORESEEN = {"out", "stuck"}
NAMING = {"skybridge", "bridge-wars", "seven-cities", "seven-bridges"}


def own_turn(game, state) -> int | None:
    """The one seat awaited, if it plays a turn of its own (not a reaction window)."""
    awaited = game.awaited(state)
    if len(awaited) != 1:
        return None
    ((seat, stage),) = awaited.items()
    return None if stage.out_of_turn else seat


def walk(key: str, players: int, seed: int) -> int:
    """Play a random game, checking every named next seat; returns how many were met."""
    game, rnd = engine.get(key), random.Random(seed)
    state = game.new(players, None, seed)
    open_: list[tuple[int, int]] = []  # (who plays now, who was named next)
    met = 0
    while not game.is_over(state):
        named = game.up_next(state)
        playing = own_turn(game, state)
        if named is not None:
            assert playing is not None, "named while no single seat plays its own turn"
            assert named != playing and 0 <= named < players
            open_.append((playing, named))
        choices = [(s, a) for s in game.to_play(state) for a in game.legal(state, s)]
        step = game.apply(state, *rnd.choice(choices))
        state = step.state
        if UNFORESEEN & {e.kind for e in step.events}:
            open_.clear()
            continue
        now = own_turn(game, state)
        still = []
        for playing, named in open_:
            if now is None or now == playing:
                still.append((playing, named))
                continue
            assert now == named, f"{key}: {named} was named next after {playing}, {now} came"
            met += 1
        open_ = still
    return met


@pytest.mark.parametrize("key", sorted(engine.GAMES))
def test_the_named_next_seat_is_the_one_that_plays_next(key):
    info = engine.get(key).info
    met = sum(
        walk(key, players, seed)
        for players in range(max(2, info.min_players), info.max_players + 1)
        for seed in range(3)
    )
    assert (met > 0) == (key in NAMING), f"{key}: {met} named next seats met"


def test_a_game_that_does_not_say_names_nobody():
    game = engine.get("bridges-and-boats")  # two players: the other's turn always follows
    assert game.up_next(game.new(2, None, 1)) is None
