"""Turn order, stages and rounds: what follows every action.

Before round 1 each seat chooses a starting tile, in player order. A round: everyone
draws 3, then plays a turn clockwise from the Time-Shift holder; a turn ends with
``end`` and, holding more than two cards, a ``discard`` each. At the end of the round
the past copies onto the future (the timeshift), the game ends if anyone has 7 future
cities, and the Time-Shift card passes counter-clockwise, so the last player of a round
opens the next one.

Reaction windows are stages too: a window awaits its seats out of turn, and closes once
the last has answered; the attack it held up then happens, or is negated. After every
move a future city that newly has three neighbours offers its owner a Metropolis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from engine.core import RESIGN, Event, Stage, seat_ref, too_few_left
from engine.seven_cities import actions
from engine.seven_cities.actions import Action, Discard, End, Start
from engine.seven_cities.board import PAST, twin
from engine.seven_cities.cities import future_cities, place_city, supply
from engine.seven_cities.piles import draw
from engine.seven_cities.rules.play import burn, defend, metropolis, takeover
from engine.seven_cities.state import (
    DEFEND,
    DRAW,
    GOAL,
    HAND_LIMIT,
    ROUND_CAP,
    STAGES,
    START,
    TURN,
    State,
    active,
    answered,
    per_state,
    replace_at,
    to_play,
)
from engine.seven_cities.tokens import shielded

#: what happens to a Burn City or Hostile Takeover that nobody defended
ATTACKS = {"burn": burn.strike, "takeover": takeover.strike}


@per_state
def awaited(state: State) -> Mapping[int, Stage]:
    """The open window's seats, out of turn; else the seat to play, in its stage. Every
    refusal and every move list asks, so it is kept with the state, read-only."""
    stage = STAGES[state.windows[0].kind if state.windows else state.stage]
    return MappingProxyType(dict.fromkeys(to_play(state), stage))


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """What follows every action (:func:`goes_on`)."""
    return goes_on(state, seat, action, actions.format(action), events)


def resigned(state: State, seat: int, events: list[Event]) -> State:
    """A resignation, at any time: the seat's cards go to the red pile and the others
    play on; one player left ends the game. A window stops waiting for the seat, and the
    turn passes on if it was theirs (:func:`goes_on`)."""
    state = replace(
        state,
        red=state.red + state.hands[seat],
        hands=replace_at(state.hands, seat, ()),
        marks=(),
    )
    if too_few_left(state):
        events.append(Event("over", "Only one player is left: the game ends."))
        return goes_on(replace(state, over="resign", windows=()), seat, None, RESIGN, events)
    windows = tuple(
        replace(w, offers=tuple(o for o in w.offers if o[0] != seat)) for w in state.windows
    )
    state = replace(state, windows=windows)
    if windows and seat in windows[0].waiting:
        state = answered(state, seat)
    # a later window simply asks one seat fewer, and is gone if it asked only this one
    later = []
    for window in state.windows[1:]:
        waiting = tuple(s for s in window.waiting if s != seat)
        if waiting:
            later.append(replace(window, waiting=waiting))
    state = replace(state, windows=state.windows[:1] + tuple(later))
    return goes_on(state, seat, None, RESIGN, events)


def goes_on(
    state: State, seat: int, action: Action | None, notation: str, events: list[Event]
) -> State:
    """Close an answered window, pass the turn on when it is over, note the move
    (``notation``; ``action`` is None for a resignation), and offer any Metropolis that
    has just become possible."""
    state = close_window(state, events)
    if state.over is None:
        state = pass_on(state, seat, action, events)
    state = replace(state, last=(seat, notation))
    if state.over is None:
        state = metropolis.offer(state, events)
    return state


def up_next(state: State) -> int | None:
    """Who plays after the seat to play, in turn order from the Time-Shift holder: the
    next to choose a starting tile (after the last, the holder opens round 1), or the
    next turn of the round. None while a reaction window is open, and after a round's
    last turn: the Time-Shift card passes to that same player, who opens the next."""
    if state.over is not None or state.windows:
        return None
    order = active(state)
    if state.stage == START:
        choosing = [s for s in order if state.positions[s] is None and s != state.turn]
        nxt = choosing[0] if choosing else order[0]
        return None if nxt == state.turn else nxt
    if state.turn not in order:
        return None
    later = order[order.index(state.turn) + 1 :]
    return later[0] if later else None


def close_window(state: State, events: list[Event]) -> State:
    """Once nobody is left to answer the open window, it closes; an attack waiting on
    Defend City is negated by the first defender, or happens."""
    if not state.windows or state.windows[0].waiting:
        return state
    window, state = state.windows[0], replace(state, windows=state.windows[1:])
    if window.kind != DEFEND:
        return state
    if window.defenders:
        return defend.negate(state, window, events)
    return ATTACKS[window.card](state, window, events)


def pass_on(state: State, seat: int, action: Action | None, events: list[Event]) -> State:
    """The next starter after a starting tile, the next turn after ``end`` (and the
    discards), or either when the seat to play resigned."""
    if state.turn in state.resigned:
        if state.stage == START:
            return next_starter(state, events)
        return next_turn(replace(state, expedition=None), events)
    if isinstance(action, Start):
        return next_starter(state, events)
    if isinstance(action, End | Discard) and len(state.hands[seat]) <= HAND_LIMIT:
        return next_turn(state, events)
    return state


def next_starter(state: State, events: list[Event]) -> State:
    """Starting tiles are chosen in player order; then round 1 begins."""
    for seat in active(state):
        if state.positions[seat] is None:
            return replace(state, turn=seat)
    return begin_round(state, events)


def begin_round(state: State, events: list[Event]) -> State:
    state = replace(state, round=state.round + 1)
    events.append(Event("round", f"Round {state.round} begins: everyone draws {DRAW} cards."))
    for seat in active(state):
        state = draw(state, seat, DRAW, events)
    # the first seat still playing opens the round (the holder may have resigned)
    return replace(state, turn=active(state)[0], stage=TURN, ap=0, land_builds=0)


def next_turn(state: State, events: list[Event]) -> State:
    order = [(state.first + i) % state.players for i in range(state.players)]
    for seat in order[order.index(state.turn) + 1 :]:
        if seat not in state.resigned:
            return replace(state, turn=seat, stage=TURN, ap=0, land_builds=0)
    return end_round(state, events)


def end_round(state: State, events: list[Event]) -> State:
    """The timeshift; the win check; the Time-Shift card passes counter-clockwise."""
    state = timeshift(state, events)
    leaders = [s for s in active(state) if future_cities(state, s) >= GOAL]
    if leaders:
        names = ", ".join(seat_ref(s) for s in leaders)
        events.append(Event("over", f"{names} reached {GOAL} future cities: the game ends."))
        return replace(state, over="goal")
    if state.round >= ROUND_CAP:
        events.append(
            Event(
                "over",
                f"{ROUND_CAP} rounds have been played: the game stops here and is scored "
                "(Bridgekeeper's round limit).",
            )
        )
        return replace(state, over="cap")
    n = state.players
    first = next(
        s for s in ((state.first - i) % n for i in range(1, n + 1)) if s not in state.resigned
    )
    events.append(Event("timeshift-card", f"The Time-Shift card passes to {seat_ref(first)}."))
    return begin_round(replace(state, first=first), events)


def timeshift(state: State, events: list[Event]) -> State:
    """Past cities copy onto their future twins, except onto shielded tiles; an empty
    past tile erases nothing; an owner with no token left is skipped (RULINGS §4.2)."""
    geo = state.geo
    guarded = shielded(state)
    copied, kept, short = [], [], []
    past = state.here
    for city in [past[t] for t in geo.tiles(PAST) if t in past]:
        there = twin(city.tile)
        future = state.here.get(there)
        if future is not None and future.owner == city.owner:
            continue
        if there in guarded:
            kept.append(geo.name(there))
            continue
        if supply(state, city.owner) < 1:
            short.append(geo.name(there))
            continue
        state = place_city(state, there, city.owner)
        copied.append(geo.name(there))
    text = f"Timeshift: {len(copied)} past " + (
        "city copies" if len(copied) == 1 else "cities copy"
    )
    text += " forward" + (f" ({', '.join(copied)})" if copied else "")
    if kept:
        text += f"; shields keep {', '.join(kept)}"
    if short:
        text += f"; no token left for {', '.join(short)}"
    events.append(Event("timeshift", text + "."))
    return state
