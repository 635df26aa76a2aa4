"""Match results as league points: placement points, forfeits and byes.

A result is what one table earned in one round. Points are exact fractions, not
floats: tied places share an average (three-way ties make thirds), and a float
rounding error must never split two players who are level on points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Kind = Literal["played", "forfeit", "bye"]


@dataclass(frozen=True)
class Scoring:
    """League points by finishing place at a full table, and what a bye is worth.

    ``places`` runs from first place down, e.g. ``(2, 0)`` for win/loss (a draw is
    then 1 each) or ``(6, 4, 2, 0)`` for four-player tables. ``bye`` None counts a
    bye as a win, as leagues stored before the bye option did; ``/league create`` now
    always sets it, by default to an average place's points (see ``Leagues.create``).
    """

    places: tuple[int, ...] = (2, 0)
    bye: int | None = None

    def __post_init__(self) -> None:
        if len(self.places) < 2:
            raise ValueError("Placement points need at least a first and a last place.")
        if any(a < b for a, b in zip(self.places, self.places[1:], strict=False)):
            raise ValueError("Placement points must not rise from one place to the next.")

    @classmethod
    def for_tables(cls, size: int) -> Scoring:
        """The default for tables of ``size``: 2 points per player beaten (6/4/2/0 for 4)."""
        return cls(tuple(2 * (size - 1 - place) for place in range(size)))

    @property
    def bye_points(self) -> Fraction:
        return Fraction(self.places[0] if self.bye is None else self.bye)

    def table(self, size: int) -> tuple[Fraction, ...]:
        """Points for places 1..``size`` at a table of that many players.

        A table smaller or larger than the scoring spreads the same range evenly over
        its places (6/4/2/0 at a table of 3 gives 6/3/0): otherwise, with uneven
        tables, sitting at the smaller one would be worth more on average.
        """
        top = len(self.places) - 1
        out = []
        for place in range(size):
            at = Fraction(place * top, size - 1)
            low = int(at)
            high = min(low + 1, top)
            out.append(self.places[low] + (self.places[high] - self.places[low]) * (at - low))
        return tuple(out)


@dataclass(frozen=True)
class Result:
    """One table's outcome in one round, or a bye (a "table" of one player).

    ``players`` are in seat order; ``places`` are finishing places (1 is best, tied
    players share one); ``scores`` are game scores; ``points`` are league points.
    """

    round: int
    kind: Kind
    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    points: tuple[Fraction, ...]

    @property
    def is_game(self) -> bool:
        """Whether players met here (a played or forfeited match, not a bye)."""
        return self.kind != "bye"


def placement_points(places: Sequence[int], scoring: Scoring) -> tuple[Fraction, ...]:
    """Each player's points for ``places``; tied players share the points they span.

    Two players tied for 2nd of four with 6/4/2/0 span places 2 and 3: 3 points each.
    """
    table = scoring.table(len(places))
    out = []
    for place in places:
        ahead = sum(other < place for other in places)
        tied = sum(other == place for other in places)
        out.append(sum(table[ahead : ahead + tied], Fraction(0)) / tied)
    return tuple(out)


def played(
    round: int,
    players: Sequence[int],
    places: Sequence[int],
    scores: Sequence[int],
    scoring: Scoring,
) -> Result:
    """A finished game's result, from its finishing places and game scores."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("A match needs at least two different players.")
    if not len(players) == len(places) == len(scores):
        raise ValueError("A match needs one place and one score per player.")
    if min(places) != 1 or max(places) > len(players):
        raise ValueError("Places run from 1 to the number of players.")
    return Result(
        round,
        "played",
        tuple(players),
        tuple(places),
        tuple(scores),
        placement_points(places, scoring),
    )


def forfeit(
    round: int, players: Sequence[int], forfeiting: Sequence[int], scoring: Scoring
) -> Result:
    """A match settled by forfeit: forfeiters last with 0 points, everyone else the win.

    The others did nothing wrong, so each earns what winning would have given them
    rather than a share of a finishing order that was never played out.
    """
    if len(players) < 2 or not set(forfeiting) <= set(players):
        raise ValueError("A forfeit needs a table of two or more, forfeiters among them.")
    win = scoring.table(len(players))[0]
    lost = [p in forfeiting for p in players]
    return Result(
        round,
        "forfeit",
        tuple(players),
        tuple(len(players) if out else 1 for out in lost),
        tuple(0 for _ in players),
        tuple(Fraction(0) if out else win for out in lost),
    )


def bye(round: int, player: int, scoring: Scoring) -> Result:
    """A round without a game for ``player``, worth the league's bye points."""
    return Result(round, "bye", (player,), (1,), (0,), (scoring.bye_points,))


def show(value: Fraction) -> str:
    """A points figure for people: ``6``, ``1.5``, ``3.33``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")
