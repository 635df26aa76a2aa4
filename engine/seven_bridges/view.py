"""What a seat sees: everything, as Seven Bridges hides nothing; computed for drawing.

Each seat's card (items and total) is worked out here once, so renderers draw the score
columns without knowing the scoring rules.

``sample`` goes back, for the computer players: every sheet and every die on the table is
in sight, so only the dice not yet rolled are unknown, and the generator it is given
stands for them. The rest of the state is bookkeeping the view shows in other words.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Rng, too_few_left
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import Bonuses
from engine.seven_bridges.dice import DICE, KINDS
from engine.seven_bridges.legend import Scorecard
from engine.seven_bridges.lines import bits
from engine.seven_bridges.scoring import cards, result
from engine.seven_bridges.state import (
    PICKS,
    ROUNDS,
    Player,
    State,
    available,
    awaited_seats,
    ended,
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
    resigned: frozenset[int]  # seats that resigned: they draw no more
    over: bool
    places: tuple[int, ...] | None
    euler_items: tuple[int, ...] | None
    euler_total: int | None


def view(state: State, seat: int | None) -> View:
    seat_cards = cards(state)
    over = ended(state)
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
        resigned=state.resigned,
        over=over,
        places=result(state).places if over else None,
        euler_items=euler.items(seat_cards[0]) if solo else None,
        euler_total=euler.total(seat_cards[0]) if solo else None,
    )


def sample(seen: View, rng: Rng) -> State:
    """The state behind ``seen``, with ``rng`` for the dice to come: whose marker started
    the game (from the roller), whether the starting bonuses are still being chosen, and
    each position's dice after a Distribute are read back from what the view shows."""
    positions = max(seen.players, 2)
    # a game over by resignations shows the round it stopped in, not five rounds done
    round_ = ROUNDS if seen.over and not too_few_left(seen) else seen.round - 1
    values = tuple(value for _, value in seen.dice)
    return State(
        players=seen.players,
        advanced=seen.advanced,
        start=seen.start,
        first=(seen.roller - round_ - seen.turn) % positions,
        seats=tuple(
            Player(
                drawn=sum(1 << arm for arm in p.drawn),
                bonuses=Bonuses(
                    p.bonuses.immediate, p.bonuses.reserved, p.bonuses.spent, p.bonuses.footpaths
                ),
                pending=p.pending,
                pending_items=p.pending_items,
                chosen=p.chosen,
                wasted=p.wasted,
            )
            for p in seen.seats
        ),
        setup=not seen.rolling and seen.slot == 0 and not any(values),
        rolling=seen.rolling,
        round=round_,
        turn=seen.turn,
        slot=seen.slot,
        dice=values,
        hands=_hands(seen, positions, values),
        committed=seen.committed,
        rerolled=seen.rerolled,
        last_seat=seen.last_seat,
        last_move=seen.last_move,
        last_arms=sum(1 << arm for arm in seen.last_arms),
        rng=rng,
        resigned=seen.resigned,
    )


def _hands(seen: View, positions: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Each position's undrafted dice after a Distribute (Euler's: the rest); ``()`` when
    no Distribute is in force."""
    hands = [p.hand for p in seen.seats]
    if not any(hands):
        return ()
    held = {d for hand in hands for d in hand}
    while len(hands) < positions:
        hands.append(tuple(d for d in range(DICE) if values[d] and d not in held))
    return tuple(hands)
