"""Rotating tables for 3–6 player games: everyone meets everyone about equally often.

Each round splits the active players into tables, choosing the split that repeats
earlier meetings least: seating a pair together costs the square root of how often
they have met before, summed over every pair at every table. The root makes a pair's
first repeat the dearest, so pairs who have never met are seated together first.
(Squaring instead, to punish a third meeting hardest, leaves some pair of a
six-player league at 3-seat tables unmet after six rounds, whichever of the equally
cheap splits it picks each round; the root reaches the best spread possible there,
every pair meeting two to four times.)

The search is a hill-climb (swap two players at different tables while that helps)
from several seeded shuffles, keeping the best: deterministic for a seed, and cheap.
Seat order then goes to whoever is owed a first seat.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

from bot.domain.leagues.results import Result
from bot.domain.leagues.rounds import Round, byes, first_seat_surplus, meetings, seat_order
from engine.core import Rng

#: shuffles the hill-climb starts from; more finds better splits for big leagues, slower
RESTARTS = 24


def table_sizes(count: int, size: int, smallest: int, largest: int) -> tuple[tuple[int, ...], int]:
    """How ``count`` players split into tables, and how many must sit out.

    Tables hold ``size`` players, or one fewer or one more where the game allows
    (``smallest``..``largest``) and the count does not divide. The fewest sit-outs
    come first, then the fewest odd-sized tables, then smaller tables over larger.
    """
    sizes = [s for s in (size - 1, size + 1) if smallest <= s <= largest]
    for sitting_out in range(count):
        seated = count - sitting_out
        options = []
        for other in sizes:
            for odd in range(seated // other + 1):
                rest = seated - odd * other
                if rest % size == 0:
                    options.append((odd, other, (size,) * (rest // size) + (other,) * odd))
        if seated % size == 0:
            options.append((0, size, (size,) * (seated // size)))
        if options:
            return min(options)[2], sitting_out
    raise ValueError(f"{count} players cannot fill a table of {size}.")


def rotating_round(
    history: Sequence[Result],
    players: Sequence[int],
    number: int,
    seed: int,
    size: int,
    smallest: int,
    largest: int,
) -> Round:
    """The next round of rotating tables for the active ``players``.

    If someone must sit out, it is whoever has sat out least (a seeded draw among
    equals), so nobody sits out twice before everyone has sat out once.
    """
    sizes, sitting_out = table_sizes(len(players), size, smallest, largest)
    rng = Rng.from_seed(seed ^ (number << 32))
    order, rng = rng.shuffled(sorted(players))
    sat_out = byes(history)
    resting = sorted(order, key=lambda p: sat_out[p])[:sitting_out]
    seated = [p for p in order if p not in resting]
    met = meetings(history)
    best: tuple[float, list[list[int]]] | None = None
    for _ in range(RESTARTS):
        start, rng = rng.shuffled(seated)
        tables = _improve(_deal(start, sizes), met)
        cost = sum(_cost(t, met) for t in tables)
        if best is None or cost < best[0]:
            best = (cost, tables)
    assert best is not None
    surplus = first_seat_surplus(history)
    return Round(
        number,
        tuple(seat_order(t, surplus) for t in best[1]),
        tuple(sorted(resting)),
    )


def _deal(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, at = [], 0
    for n in sizes:
        tables.append(list(players[at : at + n]))
        at += n
    return tables


def _cost(table: Sequence[int], met: Counter[frozenset[int]]) -> float:
    return sum(math.sqrt(met[frozenset(pair)]) for pair in combinations(table, 2))


def _improve(tables: list[list[int]], met: Counter[frozenset[int]]) -> list[list[int]]:
    """Swap players between tables while some swap lowers the cost (a local optimum)."""
    improved = True
    while improved:
        improved = False
        for a, b in combinations(tables, 2):
            for i, j in product(range(len(a)), range(len(b))):
                before = _cost(a, met) + _cost(b, met)
                a[i], b[j] = b[j], a[i]
                if _cost(a, met) + _cost(b, met) < before:
                    improved = True
                else:
                    a[i], b[j] = b[j], a[i]
    return tables
