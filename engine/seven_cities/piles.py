"""The draw pile and the two discard piles: blue (cards played for action points, shuffled
back in when the draw pile runs out) and red (special actions, out for good)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.cards import count, name, sort_hand, without
from engine.seven_cities.state import State, replace_at


def draw(state: State, seat: int, n: int, events: list[Event]) -> State:
    """``seat`` draws ``n`` cards, reshuffling the blue pile into an empty draw pile; what
    was drawn is told to ``seat`` alone."""
    drawn: list[str] = []
    deck, blue, rng = state.deck, state.blue, state.rng
    for _ in range(n):
        if not deck and blue:
            deck, rng = rng.shuffled(blue)
            events.append(
                Event(
                    "reshuffle",
                    f"The draw pile is empty: the blue discard pile ({count(len(blue))}) "
                    "is shuffled into a new one.",
                )
            )
            blue = ()
        if not deck:
            break
        drawn.append(deck[0])
        deck = deck[1:]
    if len(drawn) < n:
        events.append(Event("empty", "Both the draw pile and the blue discard pile are empty."))
    hand = sort_hand(state.hands[seat] + tuple(drawn))
    if drawn:
        events.append(Event("draw", f"{seat_ref(seat)} draws {count(len(drawn))}."))
        listing = ", ".join(name(c) for c in drawn)
        events.append(Event("drew", f"You draw {listing}.", seat=seat))
    return replace(state, deck=deck, blue=blue, rng=rng, hands=replace_at(state.hands, seat, hand))


def take(state: State, seat: int, card: str) -> State:
    """``card`` leaves ``seat``'s hand for no pile yet: an attack waiting on Defend City."""
    return replace(state, hands=replace_at(state.hands, seat, without(state.hands[seat], card)))


def to_blue(state: State, seat: int, card: str) -> State:
    """``seat`` gives up ``card`` for its action points (or a discard): face up on blue."""
    hand = without(state.hands[seat], card)
    return replace(state, hands=replace_at(state.hands, seat, hand), blue=state.blue + (card,))


def to_red(state: State, seat: int, card: str) -> State:
    """``seat`` plays ``card`` for its special action: face up on red, never reshuffled."""
    hand = without(state.hands[seat], card)
    return replace(state, hands=replace_at(state.hands, seat, hand), red=state.red + (card,))
