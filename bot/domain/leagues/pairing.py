"""Two-player pairings: round robin by the circle method, and Swiss.

Both return :class:`Round` values; neither knows about Discord, time or storage.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.domain.leagues.results import Result
from bot.domain.leagues.rounds import Round, byes, first_seat_surplus, meetings, points, seat_order
from engine.core import Rng


def round_robin(players: Sequence[int], seed: int, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin: each pair meets once (twice, seats swapped, if double).

    The circle method: one player stays put while the rest turn round them like a
    clock; with an odd count a blank slot joins the circle and whoever faces it has
    the bye, so everyone gets exactly one. The player who stays put alternates
    seats; every other table seats the upper half of the circle first, which turns
    out to give everyone as many first seats as second seats, give or take one. The
    seed shuffles who starts where, so sign-up order does not fix the schedule.
    """
    order, _ = Rng.from_seed(seed).shuffled(sorted(players))
    slots: list[int | None] = [*order, None] if len(order) % 2 else list(order)
    size = len(slots)
    rounds = []
    for number in range(1, size):
        tables, bye = [], []
        for i in range(size // 2):
            upper, lower = slots[i], slots[size - 1 - i]
            if upper is None or lower is None:
                sitting = lower if upper is None else upper
                assert sitting is not None  # one slot is the odd count's dummy, not two
                bye.append(sitting)
            elif i == 0 and number % 2 == 0:
                tables.append((lower, upper))
            else:
                tables.append((upper, lower))
        rounds.append(Round(number, tuple(tables), tuple(bye)))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        rounds += [
            Round(len(rounds) + r.number, tuple(t[::-1] for t in r.tables), r.byes)
            for r in list(rounds)
        ]
    return tuple(rounds)


def round_robin_round(
    players: Sequence[int], dropped: set[int], number: int, seed: int, double: bool = False
) -> Round:
    """Round ``number`` of the round robin of ``players`` (everyone who started).

    The schedule never changes: a table with a dropped-out player becomes a forfeit,
    and a dropped-out player's bye simply lapses.
    """
    scheduled = round_robin(players, seed, double)[number - 1]
    return Round(
        number,
        tuple(t for t in scheduled.tables if dropped.isdisjoint(t)),
        tuple(p for p in scheduled.byes if p not in dropped),
        tuple(t for t in scheduled.tables if not dropped.isdisjoint(t)),
    )


def swiss_round(history: Sequence[Result], players: Sequence[int], number: int) -> Round:
    """The next Swiss round for the active ``players`` (in seeding order).

    Players are ranked by points (seeding order among equals; a late joiner has 0).
    With an odd count the bye goes to the lowest-ranked player with the fewest byes.
    The rest are paired down the ranking, each with the nearest player they have not
    met: a depth-first search that backtracks when the players left cannot all be
    paired. Only if no pairing without a rematch exists are rematches allowed, as few
    as possible; the bye then still goes to someone who has not had one.
    """
    total = points(history)
    ranked = tuple(sorted(players, key=lambda p: -total[p]))
    had = byes(history)
    fewest = min((had[p] for p in ranked), default=0)
    candidates: list[int | None] = (
        [p for p in reversed(ranked) if had[p] == fewest] if len(ranked) % 2 else [None]
    )
    met = meetings(history)
    surplus = first_seat_surplus(history)
    for rematches in range(len(ranked) // 2 + 1):
        for bye in candidates:
            rest = tuple(p for p in ranked if p != bye)
            pairs = _pair_down(rest, met, rematches, set())
            if pairs is not None:
                return Round(
                    number,
                    tuple(seat_order(pair, surplus) for pair in pairs),
                    () if bye is None else (bye,),
                )
    raise AssertionError("allowing a rematch in every pairing always pairs everyone")


def _pair_down(
    ranked: tuple[int, ...],
    met: Counter[frozenset[int]],
    rematches: int,
    dead_ends: set[tuple[tuple[int, ...], int]],
) -> list[tuple[int, int]] | None:
    """Pairs for ``ranked`` with at most ``rematches`` rematches, or None if impossible.

    ``dead_ends`` remembers the lists already found unpairable, so backtracking never
    explores the same remainder twice.
    """
    if not ranked:
        return []
    if (ranked, rematches) in dead_ends:
        return None
    top, others = ranked[0], ranked[1:]
    for i, opponent in enumerate(others):
        rematch = int(met[frozenset((top, opponent))] > 0)
        if rematch > rematches:
            continue
        rest = _pair_down(others[:i] + others[i + 1 :], met, rematches - rematch, dead_ends)
        if rest is not None:
            return [(top, opponent), *rest]
    dead_ends.add((ranked, rematches))
    return None
