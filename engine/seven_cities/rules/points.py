"""Play a card for its action points: face up on the blue pile; the points last the turn."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Points
from engine.seven_cities.cards import BY_SLUG, name, not_held, sort_hand
from engine.seven_cities.piles import to_blue
from engine.seven_cities.state import TURN, State


def targets(state: State, seat: int) -> list[Points]:
    return [Points(c) for c in sort_hand(set(state.hands[seat]))]


def refusal(state: State, seat: int, action: Points) -> str | None:
    hand = state.hands[seat]
    return None if action.card in hand else not_held(hand, action.card)


def effect(state: State, seat: int, action: Points) -> tuple[State, list[Event]]:
    points = BY_SLUG[action.card].points
    state = to_blue(state, seat, action.card)
    state = replace(state, ap=state.ap + points, marks=())
    text = f"{seat_ref(seat)} plays {name(action.card)} for {points} action points."
    return state, [Event("ap", text)]


RULE = Rule(Points, refusal, effect, targets, stages=frozenset({TURN}))
