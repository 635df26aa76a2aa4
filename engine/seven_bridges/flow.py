"""The game's flow: the start, drawing on a map, rolls, Euler's picks, turns and rounds.

Everything here happens without a decision from a player: ``settle`` runs it after every
move until some seat has a choice to make.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rng, seat_ref
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import NOT_TAKEN, RESERVED, USED, Bonuses
from engine.seven_bridges.dice import DICE, roll
from engine.seven_bridges.lines import FOOTPATHS, SQUARE_ARM
from engine.seven_bridges.map import CITY, format_square
from engine.seven_bridges.moves import has_bonus_option
from engine.seven_bridges.scoring import crossed, visited
from engine.seven_bridges.state import (
    PICKS,
    ROUNDS,
    Player,
    State,
    available,
    dice_text,
    is_euler,
    name_of,
    owner,
    positions,
    roller,
    with_seat,
)


def draw(state: State, seat: int, arms: int, events: list[Event]) -> Player:
    """Add ``arms`` to a seat's map: footpath first use, landmarks, bridges."""
    player = state.seats[seat]
    before = player.drawn
    after = before | arms
    bonuses = player.bonuses
    if arms & FOOTPATHS and bonuses.footpaths == RESERVED:
        bonuses = replace(bonuses, footpaths=USED)
        events.append(Event("footpaths", f"{seat_ref(seat)} walks a footpath: bonus used."))
    letters = [lm for lm in visited(after) if lm not in visited(before)]
    bridges = [b for b in crossed(after) if b not in crossed(before)]
    for letter in letters:
        events.append(Event("landmark", f"{seat_ref(seat)} visits landmark {letter}."))
    for number in bridges:
        name = CITY.bridges[number - 1].name
        events.append(Event("bridge", f"{seat_ref(seat)} crosses the {name}."))
    return replace(
        player,
        drawn=after,
        bonuses=bonuses,
        pending=player.pending + len(letters),
        pending_items=player.pending_items + (len(bridges) if state.advanced else 0),
    )


def begin_turn(state: State, events: list[Event]) -> State:
    """A new turn: Euler rolls at once; a player's turn waits for them to ``roll``, so the
    roller sees the dice come up and the turn's first ping goes to them."""
    state = replace(
        state,
        rolling=True,
        dice=(0,) * DICE,
        slot=0,
        hands=(),
        committed=-1,
        rerolled=frozenset(),
    )
    return start_turn(state, events) if is_euler(state, roller(state)) else state


def start_turn(state: State, events: list[Event]) -> State:
    """The roller rolls all six dice."""
    dice, rng = roll(state.rng, DICE)
    state = replace(state, rolling=False, dice=dice, rng=rng)
    events.append(
        Event(
            "roll",
            f"Round {state.round + 1}, turn {state.turn + 1}: {name_of(state, roller(state))} "
            f"rolls {dice_text(state, tuple(range(DICE)))}.",
        )
    )
    return state


def settle(state: State, events: list[Event]) -> State:
    """Run everything that needs no decision: empty bonus visits, Euler's picks, new
    turns and rounds, the end of the game."""
    while state.round < ROUNDS:
        for seat, player in enumerate(state.seats):
            if player.pending and not player.pending_items and not has_bonus_option(player):
                state = with_seat(state, seat, replace(player, pending=0))
                events.append(
                    Event("bonus", f"{seat_ref(seat)} has no landmark bonus left to take.")
                )
        if any(p.pending or p.pending_items for p in state.seats):
            return state
        if state.rolling:
            return state
        if state.setup:
            state = begin_turn(replace(state, setup=False), events)
            continue
        if state.slot == PICKS:
            turn = state.turn + 1
            rnd = state.round + turn // positions(state)
            state = replace(state, turn=turn % positions(state), round=rnd)
            if rnd == ROUNDS:
                events.append(Event("end", "Five rounds are over: the game ends."))
                return state
            state = begin_turn(state, events)
            continue
        position = owner(state, state.slot)
        if not is_euler(state, position):
            return state
        die = euler.pick(state.dice, available(state, position))
        events.append(Event("euler", f"Euler drafts {dice_text(state, (die,))}."))
        dice = list(state.dice)
        dice[die] = 0
        state = replace(state, dice=tuple(dice), slot=state.slot + 1)
    return state


def initial(players: int, advanced: bool, start: int, first: int, rng: Rng) -> State:
    arms = [a for a in SQUARE_ARM[start] if a >= 0]
    drawn = sum(1 << a for a in arms)
    walk = USED if drawn & FOOTPATHS else NOT_TAKEN
    seat = Player(drawn=drawn, bonuses=Bonuses(footpaths=walk))
    seat = replace(
        seat,
        pending=len(visited(drawn)),
        pending_items=len(crossed(drawn)) if advanced else 0,
    )
    state = State(
        players=players,
        advanced=advanced,
        start=start,
        first=first,
        seats=(seat,) * players,
        setup=True,
        rolling=False,
        round=0,
        turn=0,
        slot=0,
        dice=(0,) * DICE,
        hands=(),
        committed=-1,
        rerolled=frozenset(),
        last_seat=-1,
        last_move="",
        last_arms=0,
        rng=rng,
    )
    return settle(state, [])


def roll_start(rng: Rng) -> tuple[int, Rng]:
    """The starting square by dice: quadrant (re-roll 5 and 6), row, column; a square with
    no streets gives way to its first neighbour with some, looking N, E, S, W [P]."""
    while True:
        q, rng = rng.below(6)
        if q < 4:
            break
    r, rng = rng.below(6)
    c, rng = rng.below(6)
    square = (6 * (q // 2) + r) * 12 + 6 * (q % 2) + c
    if CITY.arms[square]:
        return square, rng
    for step in (-12, 1, 12, -1):
        other = square + step
        same_row = step in (-12, 12) or other // 12 == square // 12
        if 0 <= other < 144 and same_row and CITY.arms[other]:
            return other, rng
    raise AssertionError(f"{format_square(square)} has no neighbour with streets")
