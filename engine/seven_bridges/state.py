"""Seven Bridges game state: who holds which position, which dice are out, and the views.

A *position* is a place at the table in drafting order: the seats, plus Euler (position
1) in a solo game. A round gives every position one roll, a *turn*; pick k of a turn
belongs to position roller + k (RULINGS §1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core import Rng, seat_ref
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import Bonuses
from engine.seven_bridges.dice import DICE, KINDS, die_token
from engine.seven_bridges.scoring import Scorecard

ROUNDS = 5
PICKS = 6  # picks per turn: every die is drafted


@dataclass(frozen=True)
class Player:
    drawn: int  # bit set of arms
    bonuses: Bonuses
    pending: int = 0  # landmark visits whose bonus is still to be chosen
    pending_items: int = 0  # advanced rule: bridge crossings whose item is still to be chosen
    chosen: tuple[str, ...] = ()  # advanced rule: the items chosen so far
    wasted: int = 0  # dice drafted that could not be drawn


@dataclass(frozen=True)
class State:
    players: int  # human seats; 1 means solo against Euler
    advanced: bool
    start: int  # the starting square
    first: int  # the position holding the first-player marker in round 1
    seats: tuple[Player, ...]
    setup: bool  # bonuses for a landmark in the starting square are being chosen
    rolling: bool  # the turn waits for its roller to roll the dice
    round: int  # 0..4; ROUNDS once the game is over
    turn: int  # 0..positions-1: whose roll it is within the round
    slot: int  # the next pick of the turn, 0..5
    dice: tuple[int, ...]  # the face value each die shows, 0 once drafted
    hands: tuple[tuple[int, ...], ...]  # after a Distribute: die numbers per position
    committed: int  # a die downgraded by the seat to pick, which must now be drawn; or -1
    rerolled: frozenset[int]  # positions that used a re-roll/distribute bonus this turn
    last_seat: int  # -1 before any move
    last_move: str
    last_arms: int  # the arms the last move drew, for highlighting
    rng: Rng


@dataclass(frozen=True)
class PlayerView:
    drawn: tuple[int, ...]  # arm numbers (see engine.seven_bridges.lines)
    bonuses: Bonuses
    pending: int
    pending_items: int
    chosen: tuple[str, ...]
    wasted: int
    card: Scorecard
    hand: tuple[int, ...]  # dice handed to this seat by a Distribute, not yet drawn


@dataclass(frozen=True)
class View:
    """What everyone sees: Seven Bridges has no hidden information."""

    players: int
    seat: int | None
    solo: bool
    advanced: bool
    start: int
    round: int  # 1..5 (5 also once over)
    turn: int
    roller: int  # position; in a solo game position 1 is Euler
    rolling: bool  # the roller has still to roll this turn's dice
    slot: int
    pick_owners: tuple[int, ...]  # position of each of the six picks this turn
    dice: tuple[tuple[int, int], ...]  # (kind, value) per die; value 0 once drafted
    committed: int
    seats: tuple[PlayerView, ...]
    to_play: tuple[int, ...]
    last_seat: int
    last_move: str
    last_arms: tuple[int, ...]
    over: bool
    places: tuple[int, ...] | None
    euler_items: tuple[int, ...] | None
    euler_total: int | None


def positions(state: State) -> int:
    """Drafting positions: the seats, plus Euler in a solo game."""
    return max(state.players, 2)


def is_euler(state: State, position: int) -> bool:
    return state.players == 1 and position == euler.POSITION


def roller(state: State) -> int:
    return (state.first + state.round + state.turn) % positions(state)


def owner(state: State, slot: int) -> int:
    """The position that makes pick ``slot`` of the current turn."""
    return (roller(state) + slot) % positions(state)


def available(state: State, position: int) -> tuple[int, ...]:
    """The dice ``position`` may draft: its hand after a Distribute, else every die left."""
    dice = state.hands[position] if state.hands else range(DICE)
    return tuple(d for d in dice if state.dice[d])


def name_of(state: State, position: int) -> str:
    return "Euler" if is_euler(state, position) else seat_ref(position)


def dice_text(state: State, dice: tuple[int, ...]) -> str:
    return ", ".join(die_token(KINDS[d], state.dice[d]) for d in dice)


def with_seat(state: State, seat: int, player: Player) -> State:
    seats = list(state.seats)
    seats[seat] = player
    return replace(state, seats=tuple(seats))
