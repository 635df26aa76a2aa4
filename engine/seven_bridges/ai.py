"""The state behind a Seven Bridges view, for the computer players (``engine.ai``).

Every sheet and every die on the table is in sight; only the dice not yet rolled are
unknown, and a new generator stands for them. The rest of the state is bookkeeping the
view shows in other words: whose marker started the game (from the roller), whether the
starting bonuses are still being chosen, and each position's dice after a Distribute.
Alone, a seat is judged by its margin over Euler, who scores what it leaves.
"""

from __future__ import annotations

from engine.ai.hard import Search
from engine.ai.worlds import WIN
from engine.core import Game, Rng
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import Bonuses
from engine.seven_bridges.dice import DICE
from engine.seven_bridges.scoring import cards
from engine.seven_bridges.state import ROUNDS, Player, State
from engine.seven_bridges.view import View

#: the search within a move's CPU budget (docs/ai.md)
SEARCH = Search(iterations=80, depth=6)


def determinize(view: View, seat: int, rng: Rng) -> State:
    positions = max(view.players, 2)
    round_ = view.round - 1 if not view.over else ROUNDS
    values = tuple(value for _, value in view.dice)
    return State(
        players=view.players,
        advanced=view.advanced,
        start=view.start,
        first=(view.roller - round_ - view.turn) % positions,
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
            for p in view.seats
        ),
        setup=not view.rolling and view.slot == 0 and not any(values),
        rolling=view.rolling,
        round=round_,
        turn=view.turn,
        slot=view.slot,
        dice=values,
        hands=_hands(view, positions, values),
        committed=view.committed,
        rerolled=view.rerolled,
        last_seat=view.last_seat,
        last_move=view.last_move,
        last_arms=sum(1 << arm for arm in view.last_arms),
        rng=rng,
    )


def _hands(view: View, positions: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Each position's undrafted dice after a Distribute (Euler's: the rest); ``()`` when
    no Distribute is in force."""
    hands = [p.hand for p in view.seats]
    if not any(hands):
        return ()
    held = {d for hand in hands for d in hand}
    while len(hands) < positions:
        hands.append(tuple(d for d in range(DICE) if values[d] and d not in held))
    return tuple(hands)


def evaluate(game: Game, state: State, seat: int) -> float:
    """The margin over the best rival — Euler, alone — and a finished game's verdict."""
    seats = cards(state)
    mine = seats[seat].total
    if state.players > 1:
        rival = max(card.total for other, card in enumerate(seats) if other != seat)
    else:
        rival = euler.total(seats[0])
    value = float(mine - rival)
    if state.round >= ROUNDS and value:
        value += WIN if value > 0 else -WIN
    return value
