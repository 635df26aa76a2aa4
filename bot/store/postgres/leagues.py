"""Leagues, members and matches in PostgreSQL (:class:`bot.store.interface.Leagues`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import asyncpg

from bot.store.faults import StaleGame
from bot.store.postgres.connection import Connection, Tx
from bot.store.postgres.leases import fence
from bot.store.queries import LEAGUE_COLUMNS, league_of, match_of
from bot.store.rows import Drawn, Fence, LeagueRow, Match, Member


async def settle_once(
    tx: Tx,
    match_id: int,
    kind: str,
    places: Sequence[int],
    scores: Sequence[int],
    forfeiting: Sequence[int],
) -> bool:
    """Record a match's outcome, in the caller's transaction, once (across every
    process): False if it was already settled."""
    return bool(
        await tx.execute(
            "UPDATE league_matches SET kind = $1, places = $2, scores = $3, forfeiting = $4, "
            "settled = TRUE WHERE id = $5 AND NOT settled",
            kind,
            json.dumps(list(places)),
            json.dumps(list(scores)),
            json.dumps(list(forfeiting)),
            match_id,
        )
    )


async def link_match(tx: Tx, match_id: int, game_id: int) -> None:
    """Link a league match to the game opened for it, its first board due to be posted,
    in the game's own transaction: :class:`StaleGame` if the match has a game already."""
    if not await tx.execute(
        "UPDATE league_matches SET game_id = $2, post_pending = TRUE "
        "WHERE id = $1 AND game_id IS NULL",
        match_id,
        game_id,
    ):
        raise StaleGame(f"league match {match_id} has its game already")
    await tx.execute("UPDATE games SET league_match = $1 WHERE id = $2", match_id, game_id)


class LeaguesPG(Connection):
    async def create_league(self, league: LeagueRow) -> int:
        try:
            row = await self.row(
                "INSERT INTO leagues (guild_id, channel_id, name, game_key, format, "
                "table_size, rounds, points, bye_points, round_hours, move_hours, seed, "
                "created_by, created_at, starts_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) "
                "RETURNING id",
                (league.guild_id, league.channel_id, league.name, league.game_key)
                + (league.format, league.table_size, league.rounds, json.dumps(league.points))
                + (league.bye_points, league.round_hours, league.move_hours, league.seed)
                + (league.created_by, self.now(), league.starts_at),
            )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != "leagues_guild_name":
                raise
            raise StaleGame(f"a league called {league.name!r} exists") from exc
        return int(row[0])

    async def league(self, guild_id: int, name: str) -> LeagueRow | None:
        row = await self.row(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = $1 "
            "AND lower(name) = lower($2) ORDER BY name = $2 DESC, id LIMIT 1",
            (guild_id, name),
        )
        return league_of(row)

    async def leagues_due_to_start(self) -> list[LeagueRow]:
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'open' "
            "AND starts_at IS NOT NULL AND starts_at <= $1 ORDER BY id",
            (self.now(),),
        )
        return [league_of(r) for r in rows]

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """A server's leagues, by name (for ``/league list`` and name autocomplete)."""
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = $1 ORDER BY name",
            (guild_id,),
        )
        return [league_of(r) for r in rows]

    async def league_match_of(self, game_id: int) -> int | None:
        """The league match a game is played for, if any: players may not call those off."""
        row = await self.row("SELECT league_match FROM games WHERE id = $1", (game_id,))
        return None if row is None else row[0]

    async def leagues_to_step(self) -> list[LeagueRow]:
        """Leagues the minute's pass steps: those running, and those over whose final
        standings are not posted yet."""
        rows = await self.rows(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' OR news_pending "
            "ORDER BY id"
        )
        return [league_of(r) for r in rows]

    async def update_league(self, league_id: int, **columns: object) -> None:
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=2))
        await self.execute(
            f"UPDATE leagues SET {sets} WHERE id = $1", (league_id, *columns.values())
        )

    async def members(self, league_id: int) -> list[Member]:
        rows = await self.rows(
            "SELECT user_id, name, dropped FROM league_members WHERE league_id = $1 "
            "ORDER BY joined",
            (league_id,),
        )
        return [Member(*r) for r in rows]

    async def add_member(self, league_id: int, user_id: int, name: str) -> None:
        await self.execute(
            "INSERT INTO league_members (league_id, user_id, name, joined) VALUES ($1, $2, $3, "
            "(SELECT COALESCE(MAX(joined), 0) + 1 FROM league_members WHERE league_id = $1)) "
            "ON CONFLICT (league_id, user_id) DO UPDATE SET dropped = FALSE",
            (league_id, user_id, name),
        )

    async def drop_member(self, league_id: int, user_id: int, *, remove: bool) -> None:
        """Before the start a leaver is simply removed; after it, marked as dropped."""
        if remove:
            sql = "DELETE FROM league_members WHERE league_id = $1 AND user_id = $2"
        else:
            sql = "UPDATE league_members SET dropped = TRUE WHERE league_id = $1 AND user_id = $2"
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
        transaction under ``held`` (whose row lock makes another process's draw wait for
        this one, and then find it made); ``rounds`` starts the league with it. False,
        writing nothing, if it was drawn (or started) already."""
        now = self.now()

        async def unit(tx: Tx) -> bool:
            await fence(tx, now, held)
            if rounds is not None and not await tx.execute(
                "UPDATE leagues SET status = 'running', rounds = $1, starts_at = NULL "
                "WHERE id = $2 AND status = 'open'",
                rounds,
                league_id,
            ):
                return False
            if await tx.fetchrow(
                "SELECT 1 FROM league_matches WHERE league_id = $1 AND round = $2",
                league_id,
                number,
            ):
                return False
            for match in drawn:
                row = await tx.fetchrow(
                    "INSERT INTO league_matches (league_id, round, kind, players) "
                    "VALUES ($1, $2, $3, $4) RETURNING id",
                    league_id,
                    number,
                    match.kind,
                    json.dumps(match.players),
                )
                if match.places is not None:
                    zeros = [0] * len(match.players)
                    await settle_once(tx, row[0], match.kind, match.places, zeros, match.forfeiting)
            return True

        return await self.write(unit)

    async def open_round(self, league_id: int, number: int, deadline: str, held: Fence) -> bool:
        """Round ``number`` is open (every game of it), until ``deadline``: its
        announcement is due. False if it was already."""
        now = self.now()

        async def unit(tx: Tx) -> bool:
            await fence(tx, now, held)
            return bool(
                await tx.execute(
                    "UPDATE leagues SET round = $1, round_deadline = $2, news_pending = TRUE "
                    "WHERE id = $3 AND round < $1",
                    number,
                    deadline,
                    league_id,
                )
            )

        return await self.write(unit)

    async def finish_league(self, league_id: int, held: Fence) -> bool:
        """The season is over: its final standings are due. False if it was already."""
        now = self.now()

        async def unit(tx: Tx) -> bool:
            await fence(tx, now, held)
            return bool(
                await tx.execute(
                    "UPDATE leagues SET status = 'finished', round_deadline = NULL, "
                    "news_pending = TRUE WHERE id = $1 AND status = 'running'",
                    league_id,
                )
            )

        return await self.write(unit)

    async def news_posted(self, league_id: int) -> bool:
        """Mark the league's news made; True if it was due (once, of every caller)."""
        changed = await self.execute(
            "UPDATE leagues SET news_pending = FALSE WHERE id = $1 AND news_pending = TRUE",
            (league_id,),
        )
        return changed == 1

    async def match_posted(self, match_id: int) -> bool:
        """Mark the match's first board made; True if it was due (once, of every caller)."""
        changed = await self.execute(
            "UPDATE league_matches SET post_pending = FALSE WHERE id = $1 AND post_pending = TRUE",
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
        """Record a match's outcome once, across every process; False if already settled."""
        return await self.write(settle_once, match_id, kind, places, scores, forfeiting)

    async def matches(self, league_id: int) -> list[Match]:
        rows = await self.rows(
            "SELECT m.id, m.round, m.kind, m.players, m.game_id, m.places, m.scores, "
            "m.forfeiting, m.settled, g.status, g.channel_id, m.post_pending FROM league_matches m "
            "LEFT JOIN games g ON g.id = m.game_id WHERE m.league_id = $1 "
            "ORDER BY m.round, m.id",
            (league_id,),
        )
        return [match_of(r) for r in rows]
