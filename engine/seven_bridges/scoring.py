"""Who wins: each seat's card, the order of the cards, and the solo verdict against Euler
(rulebook "Total score" and "Rules for solo play").
"""

from __future__ import annotations

from engine.core import Result, ranked
from engine.seven_bridges import euler
from engine.seven_bridges.legend import Scorecard, scorecard
from engine.seven_bridges.state import State


def cards(state: State) -> tuple[Scorecard, ...]:
    """Every seat's seven items and total, as they stand now."""
    return tuple(
        scorecard(p.drawn, p.bonuses, p.chosen if state.advanced else None) for p in state.seats
    )


def rank_key(card: Scorecard) -> tuple[int, int, int, int]:
    """Higher is better: total, then most bridges, most landmarks, best single item."""
    return card.total, card.crossed, card.visited, max(card.items)


def result(state: State) -> Result:
    """Highest total; ties: most bridges, then landmarks, then best single item. A player
    who resigned finishes behind every player who did not, their sheet scored as it stands.

    Alone, the player's rival is Euler, so the place counts him: 1st for beating or
    tying him, 2nd when he wins or the player resigned. Otherwise the service would
    announce "1st" for a lost game. Equal totals are a tie, shared 1st.
    """
    seats = cards(state)
    if state.players == 1:
        return against_euler(seats[0].total, euler.total(seats[0]), bool(state.resigned))
    keys = [(s not in state.resigned, *rank_key(c)) for s, c in enumerate(seats)]
    totals = tuple(c.total for c in seats)
    return ranked(totals, keys, "Ties broken by bridges, then landmarks, then best item.")


def against_euler(mine: int, them: int, resigned: bool = False) -> Result:
    """The solo verdict: a win, tie or loss against Euler, by how much; a resignation
    is a loss, whatever the scores."""
    if resigned:
        return Result(scores=(mine,), places=(2,), detail=f"Euler scores {them}: you resigned.")
    if mine > them:
        verdict = f"you beat Euler by {mine - them}"
    elif mine < them:
        verdict = f"Euler wins by {them - mine}"
    else:
        verdict = "a tie with Euler"
    place = 2 if mine < them else 1
    return Result(scores=(mine,), places=(place,), detail=f"Euler scores {them}: {verdict}.")
