"""Shared set-up for the Battle for Seven Cities rules tests.

Positions are built as ``State`` values (``dataclasses.replace`` on a fresh game) on a
fixed layout of groups 1, 2 and 3, so a rule can be looked at on its own; then real
moves are played with ``g.play`` and what a player would notice is checked: where the
cities are, whose turn it is, what the cards did, what the refusal says.

The fixed layout (axial q,r; past / future terrain):

    group 1 at 0,0:  1a soil/soil  1b soil/soil  1c forest/forest  1d light/light
    group 2 at 2,0:  2a soil/soil  2b mountain/mountain  2c mountain/volcano  2d forest/soil
    group 3 at 1,2:  3a light/light  3b deep/deep  3c light/soil  3d soil/soil
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.core import IllegalMove
from engine.seven_cities.board import board
from engine.seven_cities.cards import sort_hand
from engine.seven_cities.rules.play.metropolis import chances
from engine.seven_cities.state import TURN, City, State

g = engine.get("seven-cities")
LAYOUT = ((1, 0, 0, 0), (2, 2, 0, 0), (3, 1, 2, 0))
GEO = board(LAYOUT)


def T(name: str):
    tile = GEO.tile_named(name)
    assert tile is not None, name
    return tile


def cities(*specs: tuple[str, int] | tuple[str, int, int]) -> tuple[City, ...]:
    """('f1a', 1) -> seat 1's city on f1a; a third number is the size (2: Metropolis)."""
    made = [City(T(s[0]), s[1], s[2] if len(s) > 2 else 1) for s in specs]
    return tuple(sorted(made, key=lambda c: c.tile))


def table(players: int = 2, at: str = "f1a", hands=None, **changes) -> State:
    """Round 1, seat 0 to play with no AP, everyone on ``at``, on the fixed layout."""
    fresh = g.new(players, {"clock": "12:30"}, 7)
    state = replace(
        fresh,
        placements=LAYOUT,
        past_deck=(4, 5, 6, 7, 8, 9, 10, 11),
        stage=TURN,
        round=1,
        first=0,
        turn=0,
        positions=(T(at),) * players,
        hands=tuple(sort_hand(h) for h in (hands or [()] * players)),
    )
    state = replace(state, **changes)
    # chances that exist before the test's first move were "already offered"
    return replace(state, offered=chances(state))


def play(state: State, seat: int, *texts: str) -> tuple[State, list]:
    events: list = []
    for text in texts:
        step = g.play(state, seat, text)
        state, _, more = step.state, step.action, step.events
        events += more
    return state, events


def owner(state: State, name: str) -> int | None:
    return next((c.owner for c in state.cities if c.tile == T(name)), None)


def public(events) -> str:
    return "\n".join(e.text for e in events if e.seat is None)


def refused(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.play(state, seat, text)
    assert g.to_json(state) == before, "a refusal changes nothing"
    return caught.value.reason


def burn_table(players: int = 3, hands=None) -> State:
    """Seat 0 holds Burn City and stands on seat 1's city on f1a."""
    hands = hands or [("burn",), (), ()]
    return table(players=players, at="f1a", hands=hands, cities=cities(("f1a", 1)))
