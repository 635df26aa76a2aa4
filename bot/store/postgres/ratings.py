"""Stored ratings in PostgreSQL (:class:`bot.store.interface.Ratings`). The numbers come
from the ratings feature (:mod:`bot.ratings`), handed in as a function; the store reads
and writes them inside the transaction that needs them, and computes nothing.

Processes finishing games at once must not both read a player's rating before either
writes it, and a rebuild must replay games in the order they were rated: rating takes a
transaction-wide advisory lock, so rated games are numbered and rated one at a time, in
the order their transactions commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ratings import Rating
from bot.store.interface import Replay
from bot.store.postgres.connection import Connection, Tx
from bot.store.postgres.waits import Game, Seat, Statement
from bot.store.rows import Rate

#: the advisory lock rating takes, until its transaction ends
_RATING_LOCK = 0x7261_7469_6E67  # "rating"
_UPSERT = (
    "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, updated_at) "
    "SELECT {guild}, {key}, v.u, v.n, v.mu, v.sigma, v.games, {now} FROM unnest({users}::bigint[], "
    "{names}::text[], {mus}::float8[], {sigmas}::float8[], {games}::int[]) "
    "AS v(u, n, mu, sigma, games) ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET "
    "name = EXCLUDED.name, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = EXCLUDED.games, "
    "updated_at = EXCLUDED.updated_at"
)


async def rate_game(
    tx: Tx, now: str, game: Game, seats: Sequence[Seat], rate: Rate
) -> Callable[[Statement], str]:
    """Number the finished game in rating order and work out its players' new ratings
    (two trips, under the rating lock); returns the statement that stores them, for the
    move's last statement to run as one of its parts."""
    await tx.execute("SELECT pg_advisory_xact_lock($1)", _RATING_LOCK)
    guild = game.guild_id or 0
    stored = await tx.fetch(
        "WITH q AS (UPDATE games SET rating_seq = "
        "(SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games) WHERE id = $4) "
        "SELECT user_id, mu, sigma, games FROM ratings "
        "WHERE guild_id = $1 AND game_key = $2 AND user_id = ANY($3::bigint[])",
        guild,
        game.game_key,
        [s.user_id for s in seats],
        game.id,
    )
    known = {r[0]: Rating(r[1], r[2], r[3]) for r in stored}
    after = rate([known.get(s.user_id, Rating()) for s in seats], [s.place for s in seats])

    def upsert(sql: Statement) -> str:
        return _UPSERT.format(
            guild=sql(guild),
            key=sql(game.game_key),
            now=sql(now),
            users=sql([s.user_id for s in seats]),
            names=sql([s.name for s in seats]),
            mus=sql([r.mu for r in after]),
            sigmas=sql([r.sigma for r in after]),
            games=sql([r.games for r in after]),
        )

    return upsert


class RatingsPG(Connection):
    async def ratings(self, guild_id: int | None, game_key: str) -> list[tuple[int, str, Rating]]:
        """A server's ratings for one game, best shown rating first."""
        rows = await self.rows(
            "SELECT user_id, name, mu, sigma, games FROM ratings "
            "WHERE guild_id = $1 AND game_key = $2 ORDER BY mu - 3 * sigma DESC, user_id",
            (guild_id or 0, game_key),
        )
        return [(r[0], r[1], Rating(r[2], r[3], r[4])) for r in rows]

    async def rebuild_ratings(self, replay: Replay) -> tuple[int, bool]:
        """Replace every rating by ``replay`` of the stored results, in the order they were
        rated, in one transaction under the rating lock. Returns the number of games
        replayed and whether the result equals what was stored, to the last bit."""
        now = self.now()

        async def unit(tx: Tx) -> tuple[int, bool]:
            await tx.execute("SELECT pg_advisory_xact_lock($1)", _RATING_LOCK)
            rows = await tx.fetch(
                "SELECT g.id, COALESCE(g.guild_id, 0), g.game_key, s.user_id, s.name, s.place "
                "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'finished' "
                "AND g.rated AND g.rating_seq IS NOT NULL ORDER BY g.rating_seq, s.seat"
            )
            games: dict[int, tuple[int, str, list]] = {}
            for game_id, guild, key, user, name, place in rows:
                games.setdefault(game_id, (guild, key, []))[2].append((user, name, place))
            results = list(games.values())
            table = replay(results)
            stored = {
                (g, k, u): Rating(mu, sigma, n)
                for g, k, u, mu, sigma, n in await tx.fetch(
                    "SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings"
                )
            }
            same = stored == {k: r for k, (_name, r) in table.items()}
            await tx.execute("DELETE FROM ratings")
            keys = list(table)
            await tx.execute(
                "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, "
                "updated_at) SELECT v.g, v.k, v.u, v.n, v.mu, v.sigma, v.games, $8 FROM "
                "unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::float8[], "
                "$6::float8[], $7::int[]) AS v(g, k, u, n, mu, sigma, games)",
                [k[0] for k in keys],
                [k[1] for k in keys],
                [k[2] for k in keys],
                [table[k][0] for k in keys],
                [table[k][1].mu for k in keys],
                [table[k][1].sigma for k in keys],
                [table[k][1].games for k in keys],
                now,
            )
            return sum(len(seats) >= 2 for _g, _k, seats in results), same

        return await self.write(unit)
