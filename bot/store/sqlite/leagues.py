"""Leagues, members and matches in SQLite (:class:`bot.store.interface.Leagues`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from bot.store.faults import StaleGame
from bot.store.queries import LEAGUE_COLUMNS, league_of, match_of
from bot.store.rows import Drawn, Fence, LeagueRow, Match, Member
from bot.store.sqlite.connection import Connection
from bot.store.sqlite.files import unique_failed
from bot.store.sqlite.leases import fence


def _insert(conn: sqlite3.Connection, sql: str, params: Sequence) -> int:
    return int(conn.execute(sql, params).lastrowid)


def settle_once(
    conn: sqlite3.Connection,
    match_id: int,
    kind: str,
    places: Sequence[int],
    scores: Sequence[int],
    forfeiting: Sequence[int],
) -> bool:
    """Record a match's outcome, in the caller's transaction, once: False if it was
    already settled."""
    return bool(
        conn.execute(
            "UPDATE league_matches SET kind = ?, places = ?, scores = ?, forfeiting = ?, "
            "settled = 1 WHERE id = ? AND settled = 0",
            (kind, json.dumps(list(places)), json.dumps(list(scores)))
            + (json.dumps(list(forfeiting)), match_id),
        ).rowcount
    )


def link_match(conn: sqlite3.Connection, match_id: int, game_id: int) -> None:
    """Link a league match to the game opened for it, its first board due to be posted,
    in the game's own transaction: :class:`StaleGame` if the match has a game already."""
    if not conn.execute(
        "UPDATE league_matches SET game_id = ?, post_pending = 1 WHERE id = ? AND game_id IS NULL",
        (game_id, match_id),
    ).rowcount:
        raise StaleGame(f"league match {match_id} has its game already")
    conn.execute("UPDATE games SET league_match = ? WHERE id = ?", (match_id, game_id))


class LeaguesSQL(Connection):
    async def create_league(self, league: LeagueRow) -> int:
        try:
            return await self.write(
                _insert,
                "INSERT INTO leagues (guild_id, channel_id, name, game_key, format, "
                "table_size, rounds, points, bye_points, round_hours, move_hours, seed, "
                "created_by, created_at, starts_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (league.guild_id, league.channel_id, league.name, league.game_key)
                + (league.format, league.table_size, league.rounds, json.dumps(league.points))
                + (league.bye_points, league.round_hours, league.move_hours, league.seed)
                + (league.created_by, self.now(), league.starts_at),
            )
        except sqlite3.IntegrityError as exc:
            if not unique_failed(exc, "leagues.guild_id, leagues.name"):
                raise
            raise StaleGame(f"a league called {league.name!r} exists") from exc

    async def league(self, guild_id: int, name: str) -> LeagueRow | None:
        row = await self.row(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND name = ? COLLATE NOCASE",
            (guild_id, name),
        )
        return league_of(row)

    async def leagues_due_to_start(self) -> list[LeagueRow]:
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'open' "
            "AND starts_at IS NOT NULL AND starts_at <= ? ORDER BY id",
            (self.now(),),
        )
        return [league_of(r) for r in rows]

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """A server's leagues, by name (for ``/league list`` and name autocomplete)."""
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY name",
            (guild_id,),
        )
        return [league_of(r) for r in rows]

    async def league_match_of(self, game_id: int) -> int | None:
        """The league match a game is played for, if any: players may not call those off."""
        row = await self.row("SELECT league_match FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    async def leagues_to_step(self) -> list[LeagueRow]:
        """Leagues the minute's pass steps: those running, and those over whose final
        standings are not posted yet."""
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' OR news_pending = 1 "
            "ORDER BY id"
        )
        return [league_of(r) for r in rows]

    async def update_league(self, league_id: int, **columns: object) -> None:
        sets = ", ".join(f"{name} = ?" for name in columns)
        await self.execute(
            f"UPDATE leagues SET {sets} WHERE id = ?", (*columns.values(), league_id)
        )

    async def members(self, league_id: int) -> list[Member]:
        rows = await self.rows(
            "SELECT user_id, name, dropped FROM league_members WHERE league_id = ? ORDER BY joined",
            (league_id,),
        )
        return [Member(r[0], r[1], bool(r[2])) for r in rows]

    async def add_member(self, league_id: int, user_id: int, name: str) -> None:
        await self.execute(
            "INSERT INTO league_members (league_id, user_id, name, joined) VALUES (?, ?, ?, "
            "(SELECT COALESCE(MAX(joined), 0) + 1 FROM league_members WHERE league_id = ?)) "
            "ON CONFLICT (league_id, user_id) DO UPDATE SET dropped = 0",
            (league_id, user_id, name, league_id),
        )

    async def drop_member(self, league_id: int, user_id: int, *, remove: bool) -> None:
        """Before the start a leaver is simply removed; after it, marked as dropped."""
        if remove:
            sql = "DELETE FROM league_members WHERE league_id = ? AND user_id = ?"
        else:
            sql = "UPDATE league_members SET dropped = 1 WHERE league_id = ? AND user_id = ?"
        await self.execute(sql, (league_id, user_id))

    async def draw_round(
        self,
        league_id: int,
        number: int,
        drawn: Sequence[Drawn],
        held: Fence,
        *,
        rounds: int | None = None,
    ) -> bool:
        """Record round ``number``'s draw whole, byes and forfeits settled, in one
        transaction under ``held``; ``rounds`` starts the league with it (sign-up closed,
        that many rounds). False, writing nothing, if it was drawn (or started) already."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> bool:
            fence(conn, now, held)
            if (
                rounds is not None
                and not conn.execute(
                    "UPDATE leagues SET status = 'running', rounds = ?, starts_at = NULL "
                    "WHERE id = ? AND status = 'open'",
                    (rounds, league_id),
                ).rowcount
            ):
                return False
            if conn.execute(
                "SELECT 1 FROM league_matches WHERE league_id = ? AND round = ?",
                (league_id, number),
            ).fetchone():
                return False
            for match in drawn:
                match_id = _insert(
                    conn,
                    "INSERT INTO league_matches (league_id, round, kind, players) "
                    "VALUES (?, ?, ?, ?)",
                    (league_id, number, match.kind, json.dumps(match.players)),
                )
                if match.places is not None:
                    zeros = [0] * len(match.players)
                    settle_once(conn, match_id, match.kind, match.places, zeros, match.forfeiting)
            return True

        return await self.write(unit)

    async def open_round(self, league_id: int, number: int, deadline: str, held: Fence) -> bool:
        """Round ``number`` is open (every game of it), until ``deadline``: its
        announcement is due. False if it was already."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> bool:
            fence(conn, now, held)
            return bool(
                conn.execute(
                    "UPDATE leagues SET round = ?, round_deadline = ?, news_pending = 1 "
                    "WHERE id = ? AND round < ?",
                    (number, deadline, league_id, number),
                ).rowcount
            )

        return await self.write(unit)

    async def finish_league(self, league_id: int, held: Fence) -> bool:
        """The season is over: its final standings are due. False if it was already."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> bool:
            fence(conn, now, held)
            return bool(
                conn.execute(
                    "UPDATE leagues SET status = 'finished', round_deadline = NULL, "
                    "news_pending = 1 WHERE id = ? AND status = 'running'",
                    (league_id,),
                ).rowcount
            )

        return await self.write(unit)

    async def news_posted(self, league_id: int) -> bool:
        """Mark the league's news made; True if it was due (once, of every caller)."""
        changed = await self.execute(
            "UPDATE leagues SET news_pending = 0 WHERE id = ? AND news_pending = 1",
            (league_id,),
        )
        return changed == 1

    async def match_posted(self, match_id: int) -> bool:
        """Mark the match's first board made; True if it was due (once, of every caller)."""
        changed = await self.execute(
            "UPDATE league_matches SET post_pending = 0 WHERE id = ? AND post_pending = 1",
            (match_id,),
        )
        return changed == 1

    async def settle_match(
        self,
        match_id: int,
        kind: str,
        places: list[int],
        scores: list[int],
        forfeiting: list[int] = (),
    ) -> bool:
        """Record a match's outcome once; False if it was already settled."""
        return await self.write(settle_once, match_id, kind, places, scores, forfeiting)

    async def matches(self, league_id: int) -> list[Match]:
        rows = await self.rows(
            "SELECT m.id, m.round, m.kind, m.players, m.game_id, m.places, m.scores, "
            "m.forfeiting, m.settled, g.status, g.channel_id, m.post_pending FROM league_matches m "
            "LEFT JOIN games g ON g.id = m.game_id WHERE m.league_id = ? ORDER BY m.round, m.id",
            (league_id,),
        )
        return [match_of(r) for r in rows]
