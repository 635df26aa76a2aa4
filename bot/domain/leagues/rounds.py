"""A round of a league, and what earlier rounds say about the next one.

Every format reads the same history (the results so far) for the same few facts:
points, who has met whom, who has had a bye, and who has sat in the first seat
more than their share.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from bot.domain.leagues.results import Result


@dataclass(frozen=True)
class Round:
    """The games of one round: tables of player ids in seat order, and who sits out.

    ``forfeits`` are scheduled tables that cannot be played because someone at them
    has dropped out (round robin keeps its schedule): each is settled as a forfeit.
    """

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()
    forfeits: tuple[tuple[int, ...], ...] = ()


def points(history: Iterable[Result]) -> defaultdict[int, Fraction]:
    """League points so far, byes included (0 for a player with none)."""
    total: defaultdict[int, Fraction] = defaultdict(Fraction)
    for result in history:
        for player, earned in zip(result.players, result.points, strict=True):
            total[player] += earned
    return total


def meetings(history: Iterable[Result]) -> Counter[frozenset[int]]:
    """How often each pair of players has shared a table."""
    met: Counter[frozenset[int]] = Counter()
    for result in history:
        if result.is_game:
            met.update(frozenset(pair) for pair in combinations(result.players, 2))
    return met


def byes(history: Iterable[Result]) -> Counter[int]:
    """How many rounds each player has sat out."""
    return Counter(r.players[0] for r in history if not r.is_game)


def first_seat_surplus(history: Iterable[Result]) -> defaultdict[int, Fraction]:
    """First seats taken minus a fair share (1/2 per two-player game, 1/4 per table of 4).

    Counting the share per game, not per round, keeps it fair across uneven tables,
    late joiners and byes.
    """
    surplus: defaultdict[int, Fraction] = defaultdict(Fraction)
    for result in history:
        if result.is_game:
            surplus[result.players[0]] += 1
            for player in result.players:
                surplus[player] -= Fraction(1, len(result.players))
    return surplus


def seat_order(table: Sequence[int], surplus: Mapping[int, Fraction]) -> tuple[int, ...]:
    """The table in seat order, whoever is most owed a first seat sitting first.

    Players with equal surplus keep the order given: the higher ranked first in
    Swiss, the seeded shuffle's order at rotating tables.
    """
    return tuple(sorted(table, key=lambda player: surplus[player]))
