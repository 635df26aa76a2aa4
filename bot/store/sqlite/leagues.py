"""Leagues, members and matches in SQLite (:class:`bot.store.interface.Leagues`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from bot.store.faults import StaleGame
from bot.store.queries import LEAGUE_COLUMNS, league_of, match_of
from bot.store.rows import LeagueRow, Match, Member
from bot.store.sqlite.connection import Connection
from bot.store.sqlite.files import unique_failed


def _insert(conn: sqlite3.Connection, sql: str, params: Sequence) -> int:
    return int(conn.execute(sql, params).lastrowid)


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

    async def running_leagues(self) -> list[LeagueRow]:
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' ORDER BY id"
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

    async def add_match(self, league_id: int, round: int, kind: str, players: list[int]) -> int:
        return await self.write(
            _insert,
            "INSERT INTO league_matches (league_id, round, kind, players) VALUES (?, ?, ?, ?)",
            (league_id, round, kind, json.dumps(players)),
        )

    async def link_match(self, match_id: int, game_id: int) -> None:
        def unit(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE league_matches SET game_id = ? WHERE id = ?", (game_id, match_id))
            conn.execute("UPDATE games SET league_match = ? WHERE id = ?", (match_id, game_id))

        await self.write(unit)

    async def settle_match(
        self,
        match_id: int,
        kind: str,
        places: list[int],
        scores: list[int],
        forfeiting: list[int] = (),
    ) -> bool:
        """Record a match's outcome once; False if it was already settled."""
        changed = await self.execute(
            "UPDATE league_matches SET kind = ?, places = ?, scores = ?, forfeiting = ?, "
            "settled = 1 WHERE id = ? AND settled = 0",
            (kind, json.dumps(places), json.dumps(scores), json.dumps(list(forfeiting)))
            + (match_id,),
        )
        return changed == 1

    async def matches(self, league_id: int) -> list[Match]:
        rows = await self.rows(
            "SELECT m.id, m.round, m.kind, m.players, m.game_id, m.places, m.scores, "
            "m.forfeiting, m.settled, g.status, g.channel_id FROM league_matches m "
            "LEFT JOIN games g ON g.id = m.game_id WHERE m.league_id = ? ORDER BY m.round, m.id",
            (league_id,),
        )
        return [match_of(r) for r in rows]
