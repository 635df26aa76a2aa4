"""What the web's pages read beyond a game (:class:`bot.store.interface.PageReads`),
written once for every store: a league by its id, a player's games, moves and ratings, a
server's games in progress, and whether that server's page is on. Only reads, but for
the one switch its managers turn."""

from __future__ import annotations

from bot.domain.ratings import Rating
from bot.store.rows import LeagueRow, PlayedGame
from bot.store.shared.base import Base
from bot.store.shared.leagues import LEAGUE_COLUMNS, league_of
from bot.store.sql import Q

#: at most this many of a player's games, and of their moves timed, the latest first
PLAYER_GAMES = 200
PLAYER_MOVES = 1000


class PagesSQL(Base):
    async def league_by_id(self, league_id: int) -> LeagueRow | None:
        row = await self._read(
            Q.row(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = :id", id=league_id)
        )
        return None if row is None else league_of(row)

    async def league_of_game(self, game_id: int) -> LeagueRow | None:
        """The league a game is a match of, if any."""
        columns = ", ".join(f"l.{c.strip()}" for c in LEAGUE_COLUMNS.split(","))
        row = await self._read(
            Q.row(
                f"SELECT {columns} FROM games g JOIN league_matches m ON m.id = g.league_match "
                "JOIN leagues l ON l.id = m.league_id WHERE g.id = :game_id",
                game_id=game_id,
            )
        )
        return None if row is None else league_of(row)

    async def played_games(self, user_id: int) -> list[PlayedGame]:
        """The games a user has a seat in, the latest to change first."""
        rows = await self._read(
            Q.rows(
                "SELECT g.id, g.game_key, g.status, g.updated_at, s.name, s.place, "
                "gs.page IS TRUE FROM seats s JOIN games g ON g.id = s.game_id "
                "LEFT JOIN guild_settings gs ON gs.guild_id = g.guild_id "
                "WHERE s.user_id = :user_id "
                f"ORDER BY g.updated_at DESC, g.id DESC LIMIT {PLAYER_GAMES}",
                user_id=user_id,
            )
        )
        return [
            PlayedGame(game_id, key, status, updated_at, name, place, listed=bool(listed))
            for game_id, key, status, updated_at, name, place, listed in rows
        ]

    async def move_waits(self, user_id: int) -> list[tuple[str, str]]:
        """When each of a user's latest moves was made, after the entry before it in its
        game's log (the moment their turn could begin): (before, made) each."""
        rows = await self._read(
            Q.rows(
                "SELECT (SELECT p.created_at FROM moves p WHERE p.game_id = m.game_id "
                "AND p.seq = m.seq - 1), m.created_at FROM moves m "
                "WHERE m.user_id = :user_id AND m.kind = 'move' AND m.seq > 1 "
                f"ORDER BY m.created_at DESC LIMIT {PLAYER_MOVES}",
                user_id=user_id,
            )
        )
        return [(before, made) for before, made in rows if before is not None]

    async def player_ratings(self, user_id: int) -> list[tuple[int, str, Rating]]:
        """A user's ratings: (server, game, rating) each, the most played first."""
        rows = await self._read(
            Q.rows(
                "SELECT guild_id, game_key, mu, sigma, games FROM ratings "
                "WHERE user_id = :user_id ORDER BY games DESC, game_key, guild_id",
                user_id=user_id,
            )
        )
        return [(r[0], r[1], Rating(r[2], r[3], r[4])) for r in rows]

    async def games_in_play(self, guild_id: int) -> list[int]:
        """A server's games under way, the latest to move first."""
        rows = await self._read(
            Q.rows(
                "SELECT id FROM games WHERE guild_id = :guild_id AND status = 'active' "
                "ORDER BY updated_at DESC, id DESC",
                guild_id=guild_id,
            )
        )
        return [r[0] for r in rows]

    async def server_page(self, guild_id: int) -> bool:
        row = await self._read(
            Q.row("SELECT page FROM guild_settings WHERE guild_id = :guild_id", guild_id=guild_id)
        )
        return row is not None and bool(row[0])

    async def set_server_page(self, guild_id: int, on: bool) -> None:
        await self._write(
            Q.count(
                "INSERT INTO guild_settings (guild_id, page) VALUES (:guild_id, :on) "
                "ON CONFLICT (guild_id) DO UPDATE SET page = excluded.page",
                guild_id=guild_id,
                on=on,
            )
        )
