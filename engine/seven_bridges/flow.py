"""The game's flow: what each awaited seat is asked for, and everything that follows a move
without a decision from anyone: empty bonus visits, Euler's picks and rolls, new turns and
rounds, the end (RULINGS §1.3).

Five rounds; in each round every drafting position rolls once. A roll is a *turn*: picks
go clockwise from the roller until the sixth die is drafted. Passing a landmark's letter
gives a bonus choice, crossing a bridge in the advanced game an item choice; both are
settled before play goes on. With one player Euler holds the second position and drafts
automatically.

A player who resigns draws no more [P]: their place at the table is played as Euler
plays his, their rolls made at once and the lowest die set aside at each of their picks,
so everyone else drafts as before; with one player left, or alone against Euler, the
game ends (``resigned``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.core import Event, Stage, seat_ref, too_few_left
from engine.seven_bridges import euler
from engine.seven_bridges.actions import Action, format
from engine.seven_bridges.dice import DICE, KINDS, die_token
from engine.seven_bridges.rules.bonus import can_draw
from engine.seven_bridges.rules.pick import fitting_die
from engine.seven_bridges.rules.reserve import can_reserve
from engine.seven_bridges.rules.roll import rolled
from engine.seven_bridges.state import (
    BONUS,
    DRAW,
    ITEM,
    PICK,
    PICKS,
    ROLL,
    ROUNDS,
    STUCK,
    State,
    automatic,
    available,
    awaited_seats,
    dice_text,
    ended,
    horse_out,
    is_euler,
    owner,
    positions,
    roller,
    with_seat,
)

CHOOSE_ITEM = Stage(
    ITEM,
    "Advanced rule: you crossed a bridge; first choose the item it scores "
    "(`score loop`, `score trees`, ...).",
)
CHOOSE_BONUS = Stage(
    BONUS, "You visited a landmark: first choose its bonus (`bonus ...` or `reserve ...`)."
)
ROLL_DICE = Stage(ROLL, "Roll the dice first: `roll`.")
DRAW_DOWNGRADED = Stage(DRAW, "Continuity: you have drafted a die by downgrading; draw it first.")


def awaited(state: State) -> dict[int, Stage]:
    """Each awaited seat and what it is asked for: an item or a bonus to choose (every seat
    with one, all at once), else the next pick's owner to roll, draw the die it just
    downgraded, draft a die that fits, or, stuck, downgrade or discard one."""
    seats = awaited_seats(state)
    if not seats:
        return {}
    seat, players = seats[0], state.seats
    if players[seat].pending or players[seat].pending_items:
        return {s: CHOOSE_ITEM if players[s].pending_items else CHOOSE_BONUS for s in seats}
    if state.rolling:
        return {seat: ROLL_DICE}
    if state.committed >= 0:
        return {seat: DRAW_DOWNGRADED}
    return {seat: _drafting(state, seat)}


def up_next(state: State) -> int | None:
    """Whose pick comes after the one being made (the roller's roll and first pick are
    one go): the next position to pick that is not the picker's own, this turn or the
    next. None while bonuses or items are chosen (all at once), after the game's last
    pick, and where Euler, who is nobody's seat, picks next. A player who resigned is
    passed over: their picks are made at once."""
    if ended(state) or any(p.pending or p.pending_items for p in state.seats):
        return None
    picking = owner(state, state.slot)
    for position in _picks_to_come(state):
        if position != picking and position not in state.resigned:
            return None if is_euler(state, position) else position
    return None


def _picks_to_come(state: State) -> Iterator[int]:
    """The positions that pick after the current pick: the rest of this turn's, then the
    next turn's, from its roller (a turn's six picks go round the whole table)."""
    yield from (owner(state, slot) for slot in range(state.slot + 1, PICKS))
    turn = state.turn + 1  # as settle() moves on to the next turn
    rnd = state.round + turn // positions(state)
    if rnd < ROUNDS:
        following = replace(state, turn=turn % positions(state), round=rnd, slot=0)
        yield from (owner(following, slot) for slot in range(PICKS))


def _drafting(state: State, seat: int) -> Stage:
    """The seat drafts a die it can draw; the prompt says why anything else is refused."""
    mine = available(state, seat)
    die = fitting_die(state, seat, mine)
    if die is not None:
        return _DRAFT[KINDS[die], state.dice[die]]
    if horse_out(state, mine):
        return _DISCARD
    value, kind = min((state.dice[d], KINDS[d]) for d in mine)
    return _DOWNGRADE[kind, value]


# the stages of a seat to draft, by the die that fits or the lowest one: built once, as
# every check of a pick asks for one
_FACES = [(kind, value) for kind in (2, 3) for value in range(1, 7)]
_DRAFT = {
    face: Stage(
        PICK,
        f"The dice are already rolled, and the {die_token(*face)} fits on your map: draft a "
        f"die you can draw.",
    )
    for face in _FACES
}
_DOWNGRADE = {
    face: Stage(
        STUCK,
        f"None of your dice fits on your map: downgrade the lowest (`downgrade "
        f"{die_token(*face)}`).",
    )
    for face in _FACES
}
_DISCARD = Stage(
    STUCK,
    "None of your dice fits on your map, not even the horse: discard one of them (`discard ...`).",
)


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """Note the move for highlighting, then play on until some seat has a choice."""
    drew = state.seats[seat].drawn & ~before.seats[seat].drawn
    state = replace(state, last_seat=seat, last_move=format(action), last_arms=drew)
    return settle(state, events)


def resigned(state: State, seat: int, events: list[Event]) -> State:
    """A player who resigns draws no more: their sheet stays as it is, the bonuses and
    items they had still to choose lapse, a die they downgraded is set aside, and play
    goes on without them (:func:`settle` rolls for them and sets a die aside at each of
    their picks). Alone against Euler, or with one player left, the game ends."""
    if too_few_left(state):
        text = "Only one player is left" if state.players > 1 else "Euler wins"
        events.append(Event("end", f"{text}: the game ends."))
        return state
    state = with_seat(state, seat, replace(state.seats[seat], pending=0, pending_items=0))
    if state.committed >= 0 and owner(state, state.slot) == seat:
        dice = list(state.dice)
        dice[state.committed] = 0
        state = replace(state, dice=tuple(dice), committed=-1, slot=state.slot + 1)
    return settle(state, events)


def begin(state: State) -> State:
    """The game as it opens: bonuses for a landmark on the start square, else the first
    roll (Euler's at once)."""
    return settle(state, [])


def settle(state: State, events: list[Event]) -> State:
    """Run everything that needs no decision: empty bonus visits, Euler's rolls and picks
    (and those of players who resigned), new turns and rounds, the end of the game."""
    while state.round < ROUNDS:
        for seat, player in enumerate(state.seats):
            if (
                player.pending
                and not player.pending_items
                and not can_reserve(player.bonuses)
                and not can_draw(player)
            ):
                state = with_seat(state, seat, replace(player, pending=0))
                events.append(
                    Event("bonus", f"{seat_ref(seat)} has no landmark bonus left to take.")
                )
        if any(p.pending or p.pending_items for p in state.seats):
            return state
        if state.rolling:
            if not automatic(state, roller(state)):
                return state
            state = rolled(state, events)
            continue
        if state.setup:
            state = _begin_turn(replace(state, setup=False))
            continue
        if state.slot == PICKS:
            turn = state.turn + 1
            rnd = state.round + turn // positions(state)
            state = replace(state, turn=turn % positions(state), round=rnd)
            if rnd == ROUNDS:
                events.append(Event("end", "Five rounds are over: the game ends."))
                return state
            state = _begin_turn(state)
            continue
        position = owner(state, state.slot)
        if not automatic(state, position):
            return state
        die = euler.pick(state.dice, available(state, position))
        if is_euler(state, position):
            events.append(Event("euler", f"Euler drafts {dice_text(state, (die,))}."))
        else:
            text = f"{seat_ref(position)} has resigned: {dice_text(state, (die,))} is set aside."
            events.append(Event("aside", text))
        dice = list(state.dice)
        dice[die] = 0
        state = replace(state, dice=tuple(dice), slot=state.slot + 1)
    return state


def _begin_turn(state: State) -> State:
    """A new turn: a player's turn waits for them to ``roll``, so the roller sees the dice
    come up and the turn's first ping goes to them; Euler's is rolled at once
    (:func:`settle`)."""
    return replace(
        state,
        rolling=True,
        dice=(0,) * DICE,
        slot=0,
        hands=(),
        committed=-1,
        rerolled=frozenset(),
    )
