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
from engine.core import IllegalMove
from engine.skybridge import KINDS, PER_COLOUR, initial_stock

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


INVARIANTS: dict[str, Callable] = {"skybridge": skybridge_pieces_are_conserved}

step = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 10_000)),
    st.tuples(st.just("other"), st.integers(0, 10_000)),  # a legal move of another position
    st.tuples(st.just("text"), st.text(max_size=60)),
    st.tuples(st.just("seat"), st.integers(-2, 8)),  # a move by a seat that is not awaited
)


@pytest.mark.parametrize("key", GAMES)
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_input_is_taken_consistently_or_refused_without_change(key, data):
    rules = engine.get(key)
    players = data.draw(st.integers(rules.info.min_players, rules.info.max_players))
    seed = data.draw(st.integers(0, 2**32))
    state = rules.new(players, None, seed)
    log: list[tuple[int, str]] = []
    remembered: list[str] = []  # notation seen in earlier positions
    for kind, value in data.draw(st.lists(step, min_size=1, max_size=60)):
        if rules.is_over(state):
            break
        awaited = rules.to_play(state)
        seat = awaited[0]
        if kind == "legal":
            moves = rules.legal(state, seat)
            text = rules.format(moves[value % len(moves)])
        elif kind == "other":
            if not remembered:
                continue
            text = remembered[value % len(remembered)]
        elif kind == "seat":
            seat = value
            moves = rules.legal(state, awaited[0])
            text = rules.format(moves[0])
        else:
            text = value
        before = rules.to_json(state)
        try:
            new, action, _events = rules.play(state, seat, text)
        except IllegalMove as refusal:
            assert refusal.reason and len(refusal.reason) < 400
            assert rules.to_json(state) == before, "a refusal changed nothing"
            continue
        assert kind != "seat" or seat in awaited, "only an awaited seat may move"
        assert rules.to_json(state) == before, "apply never mutates its input"
        remembered.append(rules.format(action))
        log.append((seat, rules.format(action)))
        state = new
        assert all(0 <= s < players for s in rules.to_play(state))
        assert len(rules.result(state).scores) == players
        rules.view(state, None)
        if key in INVARIANTS:
            INVARIANTS[key](rules, state)
    assert rules.to_json(rules.replay(players, None, seed, log)) == rules.to_json(state)
    assert rules.from_json(rules.to_json(state)) == state
