"""Standings: points, then the published tie-breaks in order, then a shared rank.

Every tie-break value is kept on the row, not just used for sorting, so the
standings post can show them and :func:`explain` can say which one decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from bot.domain.leagues.results import Result, show
from bot.domain.leagues.rounds import meetings, points

HEAD_TO_HEAD = "head to head"
BUCHHOLZ = "Buchholz"
BUCHHOLZ_CUT1 = "Buchholz cut-1"
AVERAGE_PLACE = "average placement"
GAME_SCORE = "game score"

T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    """One player's line. A tie-break the league does not use is None.

    ``head_to_head``: points won in games among the players level on points with
    this one, if they have all met each other (else None). ``buchholz``: the sum of
    opponents' points; ``buchholz_cut1`` the same without the weakest opponent.
    ``average_place``: mean finishing place in games (byes left out); lower is
    better. ``game_score``: the games' own scores, summed.
    """

    rank: int
    player: int
    points: Fraction
    games: int
    byes: int
    head_to_head: Fraction | None
    buchholz: Fraction | None
    buchholz_cut1: Fraction | None
    average_place: Fraction | None
    game_score: int | None

    def tiebreak(self, name: str) -> Fraction | int | None:
        return {
            HEAD_TO_HEAD: self.head_to_head,
            BUCHHOLZ: self.buchholz,
            BUCHHOLZ_CUT1: self.buchholz_cut1,
            AVERAGE_PLACE: self.average_place,
            GAME_SCORE: self.game_score,
        }[name]


def standings(
    players: Sequence[int], results: Iterable[Result], tiebreaks: Sequence[str]
) -> list[Row]:
    """The table, best first; players level on points and every tie-break share a rank."""
    results = list(results)
    total = points(results)
    games: dict[int, list[tuple[Result, int]]] = {p: [] for p in players}
    for result in results:
        if result.is_game:
            for seat, player in enumerate(result.players):
                if player in games:
                    games[player].append((result, seat))
    head_to_head = _head_to_head(players, results, total)
    rows = []
    for player in players:
        played = games[player]
        opponents = sorted(
            total[other] for r, seat in played for other in r.players if other != player
        )
        average = (
            Fraction(sum(r.places[seat] for r, seat in played), len(played)) if played else None
        )
        rows.append(
            Row(
                0,  # ranked below, once everyone is sorted
                player,
                Fraction(total[player]),
                len(played),
                sum(not r.is_game and r.players[0] == player for r in results),
                _used(HEAD_TO_HEAD, head_to_head.get(player), tiebreaks),
                _used(BUCHHOLZ, sum(opponents, Fraction(0)), tiebreaks),
                _used(BUCHHOLZ_CUT1, sum(opponents[1:], Fraction(0)), tiebreaks),
                _used(AVERAGE_PLACE, average, tiebreaks),
                _used(GAME_SCORE, sum(r.scores[seat] for r, seat in played), tiebreaks),
            )
        )
    keys = {row.player: _sort_key(row, tiebreaks) for row in rows}
    rows.sort(key=lambda row: keys[row.player])
    return [
        replace(row, rank=1 + sum(keys[o.player] < keys[row.player] for o in rows)) for row in rows
    ]


def explain(rows: Sequence[Row], tiebreaks: Sequence[str], names: Mapping[int, str]) -> str:
    """Which tie-break put each player ahead of the next one level on points.

    One line per such neighbour, e.g. "Ada is ahead of Bob on Buchholz (9 to 7).";
    empty when nobody is level on points.
    """
    lines = []
    for above, below in zip(rows, rows[1:], strict=False):
        if above.points != below.points:
            continue
        first, second = names[above.player], names[below.player]
        for name in tiebreaks:
            a, b = above.tiebreak(name), below.tiebreak(name)
            if a != b:
                lines.append(f"{first} is ahead of {second} on {name} ({_show(a)} to {_show(b)}).")
                break
        else:
            lines.append(f"{first} and {second} share rank {above.rank}: level on every tie-break.")
    return "\n".join(lines)


def _used(name: str, value: T, tiebreaks: Sequence[str]) -> T | None:
    """A tie-break's value where the league breaks ties by it; else None (not shown)."""
    return value if name in tiebreaks else None


def _head_to_head(
    players: Sequence[int], results: list[Result], total: Mapping[int, Fraction]
) -> dict[int, Fraction]:
    """Points won in games among each group level on points, where all of them met.

    A group in which some have not met each other gets no value: comparing what
    only some of them scored against the others would not be fair.
    """
    met = meetings(results)
    groups: dict[Fraction, list[int]] = {}
    for player in players:
        groups.setdefault(total[player], []).append(player)
    out = {}
    for group in groups.values():
        inside = set(group)
        if len(group) < 2 or any(
            met[frozenset((a, b))] == 0 for a in group for b in group if a < b
        ):
            continue
        for player in group:
            out[player] = sum(
                (
                    earned
                    for r in results
                    if r.is_game and inside.issuperset(r.players)
                    for who, earned in zip(r.players, r.points, strict=True)
                    if who == player
                ),
                Fraction(0),
            )
    return out


def _sort_key(row: Row, tiebreaks: Sequence[str]) -> tuple[Fraction, ...]:
    """Ascending sorts best first: higher is better except for average placement."""
    key = [-row.points]
    for name in tiebreaks:
        value = row.tiebreak(name)
        if name == AVERAGE_PLACE:
            key.append(Fraction(10**9) if value is None else Fraction(value))
        else:
            key.append(-Fraction(value or 0))
    return tuple(key)


def _show(value: Fraction | int | None) -> str:
    return "–" if value is None else show(Fraction(value))
