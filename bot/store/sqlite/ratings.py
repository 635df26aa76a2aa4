"""Stored ratings in SQLite (:class:`bot.store.interface.Ratings`). The numbers come from
the ratings feature (:mod:`bot.ratings`), handed in as a function: the store reads and
writes them inside the transaction that needs them, and computes nothing."""

from __future__ import annotations

import sqlite3

from bot.ratings import Rating
from bot.store.interface import Replay
from bot.store.queries import RATED
from bot.store.rows import Rate
from bot.store.sqlite.connection import Connection


def rate_game(conn: sqlite3.Connection, now: str, game_id: int, rate: Rate) -> None:
    """Move the players' ratings by a finished game's places, if it is rated, inside the
    transaction of the move that finished it."""
    guild, key, rated = conn.execute(
        f"SELECT g.guild_id, g.game_key, {RATED} FROM games g WHERE g.id = ?", (game_id,)
    ).fetchone()
    if not rated:
        return
    seats = conn.execute(
        "SELECT user_id, name, place FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall()
    guild = guild or 0
    conn.execute(  # the rebuild replays games in exactly this order
        "UPDATE games SET rating_seq = "
        "(SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games) WHERE id = ?",
        (game_id,),
    )
    before = []
    for user_id, _name, _place in seats:
        row = conn.execute(
            "SELECT mu, sigma, games FROM ratings "
            "WHERE guild_id = ? AND game_key = ? AND user_id = ?",
            (guild, key, user_id),
        ).fetchone()
        before.append(Rating(*row) if row else Rating())
    after = rate(before, [place for _u, _n, place in seats])
    conn.executemany(
        "INSERT OR REPLACE INTO ratings "
        "(guild_id, game_key, user_id, name, mu, sigma, games, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (guild, key, user_id, name, r.mu, r.sigma, r.games, now)
            for (user_id, name, _place), r in zip(seats, after, strict=True)
        ],
    )


class RatingsSQL(Connection):
    async def ratings(self, guild_id: int | None, game_key: str) -> list[tuple[int, str, Rating]]:
        """A server's ratings for one game, best shown rating first."""
        rows = await self.rows(
            "SELECT user_id, name, mu, sigma, games FROM ratings "
            "WHERE guild_id = ? AND game_key = ? ORDER BY mu - 3 * sigma DESC, user_id",
            (guild_id or 0, game_key),
        )
        return [(r[0], r[1], Rating(r[2], r[3], r[4])) for r in rows]

    async def rebuild_ratings(self, replay: Replay) -> tuple[int, bool]:
        """Replace every rating by ``replay`` of the stored results, in the order they were
        rated, in one transaction. Returns the number of games replayed and whether the
        result equals what was stored, to the last bit."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> tuple[int, bool]:
            games = conn.execute(
                "SELECT id, guild_id, game_key FROM games WHERE status = 'finished' AND rated = 1 "
                "AND rating_seq IS NOT NULL ORDER BY rating_seq"
            ).fetchall()
            results = []
            for game_id, guild, key in games:
                seats = conn.execute(
                    "SELECT user_id, name, place FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                ).fetchall()
                results.append((guild or 0, key, seats))
            table = replay(results)
            stored = {
                (g, k, u): Rating(mu, sigma, n)
                for g, k, u, mu, sigma, n in conn.execute(
                    "SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings"
                )
            }
            same = stored == {k: r for k, (_name, r) in table.items()}
            conn.execute("DELETE FROM ratings")
            conn.executemany(
                "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(*k, name, r.mu, r.sigma, r.games, now) for k, (name, r) in table.items()],
            )
            return sum(len(seats) >= 2 for _g, _k, seats in results), same

        return await self.write(unit)
