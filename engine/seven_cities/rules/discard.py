"""Discard: a turn ends with at most two cards in hand, counting cards just drawn; the
rest go to the blue pile one by one (``flow`` passes the turn on once two are left)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Discard
from engine.seven_cities.cards import name, not_held, sort_hand
from engine.seven_cities.piles import to_blue
from engine.seven_cities.state import DISCARD, State


def targets(state: State, seat: int) -> list[Discard]:
    return [Discard(c) for c in sort_hand(set(state.hands[seat]))]


def refusal(state: State, seat: int, action: Discard) -> str | None:
    hand = state.hands[seat]
    return None if action.card in hand else not_held(hand, action.card)


def effect(state: State, seat: int, action: Discard) -> tuple[State, list[Event]]:
    state = replace(to_blue(state, seat, action.card), marks=())
    return state, [Event("discard", f"{seat_ref(seat)} discards {name(action.card)}.")]


RULE = Rule(Discard, refusal, effect, targets, stages=frozenset({DISCARD}))
