"""Stored ratings (:class:`bot.store.interface.Ratings`), written once for every store. The
numbers come from the ratings feature (:mod:`bot.domain.ratings`), handed in as a function: the
store reads and writes them inside the transaction that needs them, and computes nothing.

Games finishing at once must not both read a player's rating before either writes it,
and a rebuild must replay games in the order they were rated: rating takes the store's
rating lock (:meth:`RatingsSQL._lock_ratings`: SQLite's write transaction holds the
whole file already; PostgreSQL takes a lock of its own), so rated games are numbered and
rated one at a time, in the order their transactions commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.domain.clocks import Seat
from bot.domain.ratings import Rating
from bot.store.interface import Replay
from bot.store.rows import Rate
from bot.store.shared.base import Base
from bot.store.shared.seats import Game
from bot.store.sql import Body, Many, Q

#: a player's rating stored, over what was: ``{RATING_INSERT} VALUES (...) {RATING_UPSERT}``
RATING_INSERT = (
    "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, updated_at)"
)
RATING_UPSERT = (
    "ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET name = excluded.name, "
    "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
    "updated_at = excluded.updated_at"
)
#: one player's rating, as :data:`RATING_INSERT` takes it, named (:func:`rating_values`)
RATING_VALUES = "VALUES (:guild_id, :game_key, :user_id, :name, :mu, :sigma, :games, :now)"


def rating_values(
    now: str, ratings: Iterable[tuple[int, str, int, str, Rating]]
) -> list[dict[str, object]]:
    """:data:`RATING_VALUES` of each (server, game, user, name, rating)."""
    return [
        dict(
            guild_id=g,
            game_key=k,
            user_id=u,
            name=n,
            mu=r.mu,
            sigma=r.sigma,
            games=r.games,
            now=now,
        )
        for g, k, u, n, r in ratings
    ]


class RatingsSQL(Base):
    def _lock_ratings(self) -> Body[None]:
        """Take the rating lock till the transaction ends (see the module's docstring):
        nothing to take where the write transaction holds the whole database."""
        return
        yield

    def _rate(
        self, now: str, game: Game, seats: Sequence[Seat], rate: Rate
    ) -> Body[list[tuple[int, str, Rating]]]:
        """Number the finished ``game`` in rating order and work out its players' new
        ratings by their places in ``seats``: (user, name, rating after) a seat, for the
        move's own write to store (:meth:`~bot.store.shared.waits.WaitsSQL._settle`)."""
        yield from self._lock_ratings()
        stored = yield from self._numbered(game, [s.user_id for s in seats])
        known = {r[0]: Rating(r[1], r[2], r[3]) for r in stored}
        after = rate([known.get(s.user_id, Rating()) for s in seats], [_place(s) for s in seats])
        return [(s.user_id, s.name, r) for s, r in zip(seats, after, strict=True)]

    def _numbered(self, game: Game, users: Sequence[int]) -> Body[Sequence[Sequence]]:
        """Give ``game`` the next number in rating order (a rebuild replays games in it),
        and read its players' stored ratings: (user, mu, sigma, games) each."""
        yield Q.count(
            "UPDATE games SET rating_seq = (SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games) "
            "WHERE id = :game_id",
            game_id=game.id,
        )
        marks = {f"user{i}": user for i, user in enumerate(users)}
        return (
            yield Q(
                "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = :guild_id "
                f"AND game_key = :game_key AND user_id IN ({', '.join(f':{m}' for m in marks)})",
                dict(marks, guild_id=game.guild_id or 0, game_key=game.game_key),
            )
        )

    async def ratings(self, guild_id: int | None, game_key: str) -> list[tuple[int, str, Rating]]:
        """A server's ratings for one game, best shown rating first."""
        rows = await self._read(
            Q.rows(
                "SELECT user_id, name, mu, sigma, games FROM ratings WHERE guild_id = :guild_id "
                "AND game_key = :game_key ORDER BY mu - 3 * sigma DESC, user_id",
                guild_id=guild_id or 0,
                game_key=game_key,
            )
        )
        return [(r[0], r[1], Rating(r[2], r[3], r[4])) for r in rows]

    async def rebuild_ratings(self, replay: Replay) -> tuple[int, bool]:
        """Replace every rating by ``replay`` of the stored results, in the order they were
        rated, in one transaction under the rating lock. Returns the number of games
        replayed and whether the result equals what was stored, to the last bit."""
        return await self._write(self._rebuild(self.now(), replay))

    def _rebuild(self, now: str, replay: Replay) -> Body[tuple[int, bool]]:
        yield from self._lock_ratings()
        rows = yield Q.rows(
            "SELECT g.id, COALESCE(g.guild_id, 0), g.game_key, s.user_id, s.name, s.place "
            "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'finished' "
            "AND g.rated = TRUE AND g.rating_seq IS NOT NULL ORDER BY g.rating_seq, s.seat"
        )
        games: dict[int, tuple[int, str, list]] = {}
        for game_id, guild, key, user, name, place in rows:
            games.setdefault(game_id, (guild, key, []))[2].append((user, name, place))
        results = list(games.values())
        table = replay(results)
        stored = yield Q.rows("SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings")
        same = {(g, k, u): Rating(mu, sigma, n) for g, k, u, mu, sigma, n in stored} == {
            key: rating for key, (_name, rating) in table.items()
        }
        yield Q.count("DELETE FROM ratings")
        yield Many(
            f"{RATING_INSERT} {RATING_VALUES}",
            rating_values(now, ((*key, name, r) for key, (name, r) in table.items())),
        )
        return sum(len(seats) >= 2 for _g, _k, seats in results), same


def _place(seat: Seat) -> int:
    """A seat's place in a finished game: the move that finished it placed every seat."""
    if seat.place is None:
        raise ValueError(f"seat {seat.seat} ({seat.name}) of a finished game has no place")
    return seat.place
