"""What a seat sees: everything, as Seven Bridges hides nothing; computed for drawing.

Each seat's card (items and total) is worked out here once, so renderers draw the score
columns without knowing the scoring rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import Bonuses
from engine.seven_bridges.dice import DICE, KINDS
from engine.seven_bridges.legend import Scorecard
from engine.seven_bridges.lines import bits
from engine.seven_bridges.scoring import cards, result
from engine.seven_bridges.state import (
    PICKS,
    ROUNDS,
    State,
    available,
    awaited_seats,
    owner,
    roller,
)


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
    rerolled: frozenset[int]  # positions that used a re-roll/distribute this turn
    seats: tuple[PlayerView, ...]
    to_play: tuple[int, ...]
    last_seat: int
    last_move: str
    last_arms: tuple[int, ...]
    over: bool
    places: tuple[int, ...] | None
    euler_items: tuple[int, ...] | None
    euler_total: int | None


def view(state: State, seat: int | None) -> View:
    seat_cards = cards(state)
    over = state.round >= ROUNDS
    seats = tuple(
        PlayerView(
            drawn=tuple(bits(p.drawn)),
            bonuses=p.bonuses,
            pending=p.pending,
            pending_items=p.pending_items,
            chosen=p.chosen,
            wasted=p.wasted,
            card=card,
            hand=available(state, s) if state.hands else (),
        )
        for s, (p, card) in enumerate(zip(state.seats, seat_cards, strict=True))
    )
    solo = state.players == 1
    return View(
        players=state.players,
        seat=seat,
        solo=solo,
        advanced=state.advanced,
        start=state.start,
        round=min(state.round, ROUNDS - 1) + 1,
        turn=state.turn,
        roller=roller(state),
        rolling=state.rolling,
        slot=state.slot,
        pick_owners=tuple(owner(state, k) for k in range(PICKS)),
        dice=tuple((KINDS[d], state.dice[d]) for d in range(DICE)),
        committed=state.committed,
        rerolled=state.rerolled,
        seats=seats,
        to_play=awaited_seats(state),
        last_seat=state.last_seat,
        last_move=state.last_move,
        last_arms=tuple(bits(state.last_arms)),
        over=over,
        places=result(state).places if over else None,
        euler_items=euler.items(seat_cards[0]) if solo else None,
        euler_total=euler.total(seat_cards[0]) if solo else None,
    )
