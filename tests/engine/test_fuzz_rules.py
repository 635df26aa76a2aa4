"""Every game against a stream of legal moves, illegal moves and garbage (hypothesis).

Whatever arrives, a game either takes a move and stays consistent, or refuses it with
``IllegalMove`` and stays exactly as it was; and the moves it took replay to the same
state. Runs for every game in the registry, so new games are fuzzed from day one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.bridge_wars.blocks import COUNTS, NAMES
from engine.core import IllegalMove
from engine.skybridge.board import KINDS, PER_COLOUR
from engine.skybridge.state import initial_stock

GAMES = sorted(engine.GAMES)


def skybridge_pieces_are_conserved(rules, state) -> None:
    """Pieces on the board plus pieces in hand = the pieces the game began with."""
    start = initial_stock(state.players)
    for colour in range(4):
        for kind in KINDS:
            on_board = sum(
                1 for stack in state.board for p in stack if (p.colour, p.kind) == (colour, kind)
            )
            if kind == "bridge":
                on_board //= 2  # a bridge lies on two towers
            slot = colour * len(KINDS) + KINDS.index(kind)
            in_hand = sum(stock[slot] for stock in state.stock)
            assert on_board + in_hand == sum(s[slot] for s in start)
            assert in_hand <= PER_COLOUR[kind] * len(state.stock)


def bridge_wars_blocks_are_conserved(rules, state) -> None:
    """Each seat's blocks in play plus its blocks left = one full set."""
    for seat, stock in enumerate(state.stock):
        for i, name in enumerate(NAMES):
            placed = sum(1 for p in state.placed if p.seat == seat and p.block == name)
            assert placed + stock[i] == COUNTS[i], (seat, name)


def bridges_and_boats_dominoes_are_conserved(rules, state) -> None:
    """The 28 dominoes of a double-six set are each in exactly one place."""
    places = [
        *state.pool,
        *(d for hand in state.hands for d in hand),
        *(d for d in state.bridge if d is not None),
        *(b.domino for b in state.boats),
        *state.planes,
        *state.cannons,
        *state.discard,
    ]
    assert len(places) == 28 and len(set(places)) == 28


INVARIANTS: dict[str, Callable] = {
    "skybridge": skybridge_pieces_are_conserved,
    "bridge-wars": bridge_wars_blocks_are_conserved,
    "bridges-and-boats": bridges_and_boats_dominoes_are_conserved,
}
#: enough moves to finish any game by random play (the longest take a few hundred)
FINISH_WITHIN = 3_000

step = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 10_000)),
    st.tuples(st.just("other"), st.integers(0, 10_000)),  # a legal move of another position
    st.tuples(st.just("text"), st.text(max_size=60)),
    st.tuples(st.just("seat"), st.integers(-2, 8)),  # a move by a seat that is not awaited
)


def consistent(rules, state, players: int) -> None:
    """What must hold after every accepted move, whatever the game."""
    assert all(0 <= s < players for s in rules.to_play(state))
    assert bool(rules.to_play(state)) != rules.is_over(state), "someone is awaited until the end"
    result = rules.result(state)
    assert len(result.scores) == len(result.places) == players
    behind = players + (players == 1)  # alone, 2nd means behind the rulebook's opponent
    assert all(1 <= place <= behind for place in result.places)
    rules.view(state, None)
    for seat in range(players):
        rules.view(state, seat)
    if rules.info.key in INVARIANTS:
        INVARIANTS[rules.info.key](rules, state)


@pytest.mark.parametrize("key", GAMES)
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_input_is_taken_consistently_or_refused_without_change(key, data):
    """Random input, then a random legal game to its end with garbage tried at every move."""
    rules = engine.get(key)
    players = data.draw(st.integers(rules.info.min_players, rules.info.max_players))
    seed = data.draw(st.integers(0, 2**32))
    state = rules.new(players, None, seed)
    log: list[tuple[int, str]] = []
    remembered: list[str] = []  # notation seen in earlier positions

    def attempt(kind: str, value) -> None:
        nonlocal state
        awaited = rules.to_play(state)
        seat = awaited[value % len(awaited)] if isinstance(value, int) else awaited[0]
        if kind == "legal":
            moves = rules.legal(state, seat)
            text = rules.format(moves[value % len(moves)])
        elif kind == "other":
            if not remembered:
                return
            text = remembered[value % len(remembered)]
        elif kind == "seat":
            seat = value
            text = rules.format(rules.legal(state, awaited[0])[0])
        else:
            text = value
        before = rules.to_json(state)
        try:
            step = rules.play(state, seat, text)
            new, action, _events = step.state, step.action, step.events
        except IllegalMove as refusal:
            assert refusal.reason and len(refusal.reason) < 400
            assert rules.to_json(state) == before, "a refusal changed nothing"
            return
        assert kind != "seat" or seat in awaited, "only an awaited seat may move"
        assert rules.to_json(state) == before, "apply never mutates its input"
        remembered.append(rules.format(action))
        log.append((seat, rules.format(action)))
        state = new
        consistent(rules, state, players)

    for kind, value in data.draw(st.lists(step, min_size=1, max_size=60)):
        if rules.is_over(state):
            break
        attempt(kind, value)
    noise = data.draw(st.lists(step, min_size=1, max_size=5))
    picks = data.draw(st.randoms(use_true_random=False))
    for n in range(FINISH_WITHIN):
        if rules.is_over(state):
            break
        attempt(*noise[n % len(noise)])
        if not rules.is_over(state):
            attempt("legal", picks.randrange(10_000))
    assert rules.is_over(state), f"no end after {FINISH_WITHIN} legal moves"
    assert rules.to_play(state) == ()
    assert rules.to_json(rules.replay(players, None, seed, log)) == rules.to_json(state)
    assert rules.from_json(rules.to_json(state)) == state
