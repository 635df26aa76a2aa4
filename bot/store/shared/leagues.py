"""Leagues, members and matches (:class:`bot.store.interface.Leagues`), written once for
every store."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.faults import StaleGame
from bot.store.rows import Drawn, Fence, LeagueRow, Match, Member
from bot.store.shared.base import Base
from bot.store.shared.leases import fence
from bot.store.sql import Body, Duplicate, Q

LEAGUE_COLUMNS = (
    "guild_id, channel_id, name, game_key, format, table_size, rounds, points, bye_points, "
    "round_hours, move_hours, seed, created_by, id, status, round, round_deadline, starts_at, "
    "news_pending"
)


def league_of(row: Sequence) -> LeagueRow:
    values = list(row)
    values[7] = tuple(json.loads(values[7]))
    values[18] = bool(values[18])
    return LeagueRow(*values)


def match_of(r: Sequence) -> Match:
    return Match(
        r[0],
        r[1],
        r[2],
        tuple(json.loads(r[3])),
        r[4],
        tuple(json.loads(r[5])) if r[5] else None,
        tuple(json.loads(r[6])) if r[6] else None,
        tuple(json.loads(r[7])) if r[7] else (),
        bool(r[8]),
        r[9],
        r[10],
        bool(r[11]),
    )


def settle_once(
    match_id: int,
    kind: str,
    places: Sequence[int],
    scores: Sequence[int],
    forfeiting: Sequence[int],
) -> Q:
    """Record a match's outcome, in the caller's transaction, once (across every
    process): it changes no row if the match was already settled."""
    return Q.count(
        "UPDATE league_matches SET kind = :kind, places = :places, scores = :scores, "
        "forfeiting = :forfeiting, settled = TRUE WHERE id = :match_id AND settled = FALSE",
        kind=kind,
        places=json.dumps(list(places)),
        scores=json.dumps(list(scores)),
        forfeiting=json.dumps(list(forfeiting)),
        match_id=match_id,
    )


def link_match(match_id: int, game_id: int) -> Body[None]:
    """Link a league match to the game opened for it, its first board due to be posted,
    in the game's own transaction: :class:`StaleGame` if the match has a game already."""
    linked = yield Q.count(
        "UPDATE league_matches SET game_id = :game_id, post_pending = TRUE "
        "WHERE id = :match_id AND game_id IS NULL",
        game_id=game_id,
        match_id=match_id,
    )
    if not linked:
        raise StaleGame(f"league match {match_id} has its game already")
    yield Q.count(
        "UPDATE games SET league_match = :match_id WHERE id = :game_id",
        match_id=match_id,
        game_id=game_id,
    )


class LeaguesSQL(Base):
    async def create_league(self, league: LeagueRow) -> int:
        try:
            row = await self._write(
                Q.one(
                    "INSERT INTO leagues (guild_id, channel_id, name, game_key, format, "
                    "table_size, rounds, points, bye_points, round_hours, move_hours, seed, "
                    "created_by, created_at, starts_at) VALUES (:guild_id, :channel_id, :name, "
                    ":game_key, :format, :table_size, :rounds, :points, :bye_points, "
                    ":round_hours, :move_hours, :seed, :created_by, :now, :starts_at) "
                    "RETURNING id",
                    guild_id=league.guild_id,
                    channel_id=league.channel_id,
                    name=league.name,
                    game_key=league.game_key,
                    format=league.format,
                    table_size=league.table_size,
                    rounds=league.rounds,
                    points=json.dumps(league.points),
                    bye_points=league.bye_points,
                    round_hours=league.round_hours,
                    move_hours=league.move_hours,
                    seed=league.seed,
                    created_by=league.created_by,
                    now=self.now(),
                    starts_at=league.starts_at,
                )
            )
        except Duplicate as exc:
            if exc.constraint != "leagues_guild_name":
                raise
            raise StaleGame(f"a league called {league.name!r} exists") from exc
        return int(row[0])

    async def league(self, guild_id: int, name: str) -> LeagueRow | None:
        """The server's league called ``name``, whatever its case (the one of exactly that
        name first, should two differ only by case)."""
        row = await self._read(
            Q.row(
                f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = :guild_id "
                "AND lower(name) = lower(:name) ORDER BY name = :name DESC, id LIMIT 1",
                guild_id=guild_id,
                name=name,
            )
        )
        return None if row is None else league_of(row)

    async def leagues_due_to_start(self) -> list[LeagueRow]:
        return await self._leagues(
            "status = 'open' AND starts_at IS NOT NULL AND starts_at <= :now ORDER BY id",
            now=self.now(),
        )

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """A server's leagues, by name (for ``/league list`` and name autocomplete)."""
        return await self._leagues("guild_id = :guild_id ORDER BY name", guild_id=guild_id)

    async def leagues_to_step(self) -> list[LeagueRow]:
        """Leagues the minute's pass steps: those running, and those over whose final
        standings are not posted yet."""
        return await self._leagues("status = 'running' OR news_pending = TRUE ORDER BY id")

    async def _leagues(self, where: str, **params: object) -> list[LeagueRow]:
        rows = await self._read(
            Q.rows(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE {where}", **params)
        )
        return [league_of(r) for r in rows]

    async def league_match_of(self, game_id: int) -> int | None:
        """The league match a game is played for, if any: players may not call those off."""
        row = await self._read(
            Q.row("SELECT league_match FROM games WHERE id = :game_id", game_id=game_id)
        )
        return None if row is None else row[0]

    async def update_league(self, league_id: int, **columns: object) -> None:
        sets = ", ".join(f"{name} = :{name}" for name in columns)
        await self._write(
            Q(
                f"UPDATE leagues SET {sets} WHERE id = :league_id",
                dict(columns, league_id=league_id),
            )
        )

    async def members(self, league_id: int) -> list[Member]:
        rows = await self._read(
            Q.rows(
                "SELECT user_id, name, dropped FROM league_members WHERE league_id = :league_id "
                "ORDER BY joined",
                league_id=league_id,
            )
        )
        return [Member(r[0], r[1], bool(r[2])) for r in rows]

    async def add_member(self, league_id: int, user_id: int, name: str) -> None:
        await self._write(
            Q.count(
                "INSERT INTO league_members (league_id, user_id, name, joined) VALUES "
                "(:league_id, :user_id, :name, (SELECT COALESCE(MAX(joined), 0) + 1 "
                "FROM league_members WHERE league_id = :league_id)) "
                "ON CONFLICT (league_id, user_id) DO UPDATE SET dropped = FALSE",
                league_id=league_id,
                user_id=user_id,
                name=name,
            )
        )

    async def drop_member(self, league_id: int, user_id: int, *, remove: bool) -> None:
        """Before the start a leaver is simply removed; after it, marked as dropped."""
        if remove:
            sql = "DELETE FROM league_members WHERE league_id = :league_id AND user_id = :user_id"
        else:
            sql = (
                "UPDATE league_members SET dropped = TRUE "
                "WHERE league_id = :league_id AND user_id = :user_id"
            )
        await self._write(Q.count(sql, league_id=league_id, user_id=user_id))

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
        this one, and then find it made); ``rounds`` starts the league with it (sign-up
        closed, that many rounds). False, writing nothing, if it was drawn (or started)
        already."""
        return await self._write(self._draw(self.now(), league_id, number, drawn, held, rounds))

    def _draw(
        self,
        now: str,
        league_id: int,
        number: int,
        drawn: Sequence[Drawn],
        held: Fence,
        rounds: int | None,
    ) -> Body[bool]:
        yield from fence(now, held)
        if rounds is not None:
            started = yield Q.count(
                "UPDATE leagues SET status = 'running', rounds = :rounds, starts_at = NULL "
                "WHERE id = :league_id AND status = 'open'",
                rounds=rounds,
                league_id=league_id,
            )
            if not started:
                return False
        made = yield Q.row(
            "SELECT 1 FROM league_matches WHERE league_id = :league_id AND round = :round",
            league_id=league_id,
            round=number,
        )
        if made:
            return False
        for match in drawn:
            (match_id,) = yield Q.row(
                "INSERT INTO league_matches (league_id, round, kind, players) "
                "VALUES (:league_id, :round, :kind, :players) RETURNING id",
                league_id=league_id,
                round=number,
                kind=match.kind,
                players=json.dumps(match.players),
            )
            if match.places is not None:
                zeros = [0] * len(match.players)
                yield settle_once(match_id, match.kind, match.places, zeros, match.forfeiting)
        return True

    async def open_round(self, league_id: int, number: int, deadline: str, held: Fence) -> bool:
        """Round ``number`` is open (every game of it), until ``deadline``: its
        announcement is due. False if it was already."""
        return await self._fenced(
            held,
            Q.count(
                "UPDATE leagues SET round = :round, round_deadline = :deadline, "
                "news_pending = TRUE WHERE id = :league_id AND round < :round",
                round=number,
                deadline=deadline,
                league_id=league_id,
            ),
        )

    async def finish_league(self, league_id: int, held: Fence) -> bool:
        """The season is over: its final standings are due. False if it was already."""
        return await self._fenced(
            held,
            Q.count(
                "UPDATE leagues SET status = 'finished', round_deadline = NULL, "
                "news_pending = TRUE WHERE id = :league_id AND status = 'running'",
                league_id=league_id,
            ),
        )

    async def _fenced(self, held: Fence, change: Q) -> bool:
        """``change`` under the lease ``held``, in one transaction; whether it changed a row."""

        def unit(now: str) -> Body[bool]:
            yield from fence(now, held)
            return bool((yield change))

        return await self._write(unit(self.now()))

    async def news_posted(self, league_id: int) -> bool:
        """Mark the league's news made; True if it was due (once, of every caller)."""
        changed = await self._write(
            Q.count(
                "UPDATE leagues SET news_pending = FALSE "
                "WHERE id = :league_id AND news_pending = TRUE",
                league_id=league_id,
            )
        )
        return changed == 1

    async def match_posted(self, match_id: int) -> bool:
        """Mark the match's first board made; True if it was due (once, of every caller)."""
        changed = await self._write(
            Q.count(
                "UPDATE league_matches SET post_pending = FALSE "
                "WHERE id = :match_id AND post_pending = TRUE",
                match_id=match_id,
            )
        )
        return changed == 1

    async def settle_match(
        self,
        match_id: int,
        kind: str,
        places: list[int],
        scores: list[int],
        forfeiting: Sequence[int] = (),
    ) -> bool:
        """Record a match's outcome once, across every process; False if already settled."""
        changed = await self._write(settle_once(match_id, kind, places, scores, forfeiting))
        return bool(changed)

    async def matches(self, league_id: int) -> list[Match]:
        rows = await self._read(
            Q.rows(
                "SELECT m.id, m.round, m.kind, m.players, m.game_id, m.places, m.scores, "
                "m.forfeiting, m.settled, g.status, g.channel_id, m.post_pending "
                "FROM league_matches m LEFT JOIN games g ON g.id = m.game_id "
                "WHERE m.league_id = :league_id ORDER BY m.round, m.id",
                league_id=league_id,
            )
        )
        return [match_of(r) for r in rows]
