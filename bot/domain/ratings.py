"""Multiplayer ratings: OpenSkill's Plackett–Luce model, shown conservatively.

Plackett–Luce rates free-for-all games of any size from finishing places, ties
included, so one model serves two-player duels and six-player tables alike. A rating
is shown as mu − 3·sigma: what a player is very likely at least worth, which rises as
results come in; until a few games are played it is marked provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5
_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def label(self) -> str:
        return f"{self.shown:.1f}{'?' if self.provisional else ''}"


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one game, from their finishing places (1 = best)."""
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=list(places))
    return [
        Rating(team[0].mu, team[0].sigma, r.games + 1)
        for team, r in zip(after, before, strict=True)
    ]


def replay(
    games: Sequence[tuple[int, str, Sequence[tuple[int, str, int]]]],
) -> dict[tuple[int, str, int], tuple[str, Rating]]:
    """Every rating from scratch: each rated game (server, game, seats as (user, name,
    place)) in the order it was rated, as :func:`rate` rated it then. Games with fewer
    than two seats move nothing."""
    table: dict[tuple[int, str, int], tuple[str, Rating]] = {}
    for guild, key, seats in games:
        if len(seats) < 2:
            continue
        keys = [(guild, key, user_id) for user_id, _name, _place in seats]
        before = [table.get(k, ("", Rating()))[1] for k in keys]
        after = rate(before, [place for _u, _n, place in seats])
        for k, (_u, name, _p), r in zip(keys, seats, after, strict=True):
            table[k] = (name, r)
    return table
