"""Turn order, the setup stage, the last round and the end (RULINGS §2.5).

From a seat drawn at random, each player in seat order chooses a colour and a corner
(the ``setup`` stage); the last of four gets what is left without being asked. The
seat that chose first plays first, then play goes left. A block that reaches the top
of the rods, or a player's last block, gives every other player one more turn; a
player who cannot put a block into play when the turn comes to them ends the game at
once, and so does a resignation that leaves one player.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridge_wars.actions import Action, Choose
from engine.bridge_wars.rules import choose
from engine.bridge_wars.rules.place import can_place
from engine.bridge_wars.scoring import result
from engine.bridge_wars.state import State, in_setup
from engine.core import Event, Stage, seat_ref, too_few_left

SETUP = Stage(choose.SETUP, "First choose your colour and corner, e.g. `red ne`.")
TURN = Stage("turn", "Colours and corners are chosen: now put a block into play.")


def awaited(state: State) -> dict[int, Stage]:
    """The one seat to act: choosing at setup, putting a block in after it."""
    if state.turn < 0:
        return {}
    return {state.turn: SETUP if in_setup(state) else TURN}


def active(state: State) -> list[int]:
    """The seats still playing."""
    return [s for s in range(state.players) if s not in state.resigned]


def next_active(state: State, seat: int, inclusive: bool = False) -> int:
    """The first seat still playing after ``seat`` (or from it), going left."""
    for step in range(0 if inclusive else 1, state.players + 1):
        candidate = (seat + step) % state.players
        if candidate not in state.resigned:
            return candidate
    raise AssertionError("a game with nobody playing is over")


def up_next(state: State) -> int | None:
    """Who plays after the seat to play: the next still playing, going left, or in the
    last round the next still owed a turn (none: the game ends). Not while colours and
    corners are chosen, where a seat left with one choice is skipped over."""
    if state.turn < 0 or in_setup(state):
        return None
    if state.final is None:
        return next_active(state, state.turn)
    owed = [s for s in state.final if s != state.turn and s not in state.resigned]
    return owed[0] if owed else None


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """Who acts next: the next to choose, the next to place, or nobody as the game ends."""
    if isinstance(action, Choose):
        return _setup_goes_on(state, seat, events)
    return _pass_on(_last_round(state, seat, events), seat, events)


def resigned(state: State, seat: int, events: list[Event]) -> State:
    """A resignation, at any time, even during setup: the seat's blocks stay where they
    are and it is owed no last turn; one player left ends the game; on the seat's own
    turn, the turn passes on."""
    final = None if state.final is None else tuple(s for s in state.final if s != seat)
    state = replace(state, final=final)
    if too_few_left(state):
        return _end(state, "resign", events)
    if state.turn != seat:
        return state
    if in_setup(state):
        return _setup_goes_on(state, seat, events)
    return _pass_on(state, seat, events)


def _setup_goes_on(state: State, seat: int, events: list[Event]) -> State:
    """The next seat in seat order still to choose does so; a seat left with one colour
    and one corner takes them at once. Once nobody is left to choose, play starts."""
    while True:
        nxt = _next_chooser(state, seat)
        if nxt is None:
            return _start(state, events)
        forced = choose.targets(state, nxt)
        if len(forced) != 1:
            return replace(state, turn=nxt)
        state, chosen = choose.effect(state, nxt, forced[0])
        events += chosen
        seat = nxt


def _next_chooser(state: State, seat: int) -> int | None:
    """The next seat after ``seat``, in seat order, still to choose; ``None`` if none."""
    for step in range(1, state.players):
        candidate = (seat + step) % state.players
        if state.colours[candidate] < 0 and candidate not in state.resigned:
            return candidate
    return None


def _start(state: State, events: list[Event]) -> State:
    """Setup is over: the first to choose (still playing) plays first."""
    first = next_active(state, state.first, inclusive=True)
    events.append(Event("start", f"Setup done: {seat_ref(first)} plays first."))
    return _hand_to(state, first, events)


def _last_round(state: State, seat: int, events: list[Event]) -> State:
    """Strike ``seat`` off the last round, or start one if its block ended the game."""
    if state.final is not None:
        return replace(state, final=tuple(s for s in state.final if s != seat))
    block = state.placed[-1]
    if block.level == state.height:
        trigger, ending = f"reached the top of the rods ({block.level})", "top"
    elif not any(state.stock[seat]):
        trigger, ending = "put in their last block", "last"
    else:
        return state
    events.append(
        Event("last-round", f"{seat_ref(seat)} {trigger}: everyone else gets one more turn.")
    )
    others = (
        (seat + step) % state.players
        for step in range(1, state.players)
        if (seat + step) % state.players not in state.resigned
    )
    return replace(state, final=tuple(others), ending=ending)


def _pass_on(state: State, seat: int, events: list[Event]) -> State:
    """The turn goes to the next seat still owed a last turn, or still playing."""
    if state.final is None:
        return _hand_to(state, next_active(state, seat), events)
    if not state.final:
        return _end(state, state.ending, events)
    return _hand_to(state, state.final[0], events)


def _hand_to(state: State, seat: int, events: list[Event]) -> State:
    """Give ``seat`` the turn; if it cannot put a block into play, the game ends now."""
    state = replace(state, turn=seat)
    if can_place(state, seat):
        return state
    events.append(
        Event("stuck", f"{seat_ref(seat)} cannot put any block into play: the game ends.")
    )
    return _end(state, "stuck", events)


def _end(state: State, ending: str, events: list[Event]) -> State:
    over = replace(state, turn=-1, ending=ending)
    winners = result(over).winners
    verb = "wins" if len(winners) == 1 else "tie"
    events.append(Event("end", f"Game over: {' and '.join(map(seat_ref, winners))} {verb}."))
    return over
