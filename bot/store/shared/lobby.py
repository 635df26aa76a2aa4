"""A game before its first move, written once for every store: created in the lobby
(with its seats, and at once started where an opening says so: a league match, a daily
attempt, a rematch, a solo game), joined, left and started — each one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.domain.clocks import Clocks, awaited, tell_next
from bot.store.damage import state_columns
from bot.store.faults import StaleGame
from bot.store.rows import Opening, iso
from bot.store.shared.agreements import AgreementsSQL
from bot.store.shared.leagues import link_match
from bot.store.shared.leases import fence
from bot.store.shared.waits import Queued, WaitsSQL
from bot.store.sql import ROW, Body, Duplicate, Many, Q


class LobbySQL(WaitsSQL, AgreementsSQL):
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        creator_id: int,
        creator_name: str,
        clocks: Clocks | None = None,
        rated: bool = True,
        others: Sequence[tuple[int, str, str | None]] = (),
        opening: Opening | None = None,
    ) -> int:
        """A new game in the lobby, its creator in seat 0 and ``others`` (user, name, AI
        level) after them; started at once by ``opening``; all in one transaction.

        Raises :class:`StaleGame` if the channel already has a live game, the opening's
        league match has its game already, or its daily attempt is made; and
        :class:`~bot.store.faults.LeaseLost` if the opening's lease is held no more.
        """
        values = dict(
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=game_key,
            options=json.dumps(options),
            seed=seed,
            creator_id=creator_id,
            **_clock_columns(clocks or Clocks()),
            rated=rated,
        )
        people = [(creator_id, creator_name, None), *others]
        try:
            return await self._write(self._create(self.clock(), values, people, opening))
        except Duplicate as exc:
            if exc.constraint == "games_live_channel":
                raise StaleGame("this channel already has a live game") from exc
            if exc.constraint == "daily_entries_pkey":
                raise StaleGame("today's challenge has been opened already") from exc
            raise

    def _create(
        self,
        moment: datetime,
        values: dict[str, object],
        people: Sequence[tuple[int, str, str | None]],
        opening: Opening | None,
    ) -> Body[int]:
        now = iso(moment)
        if opening is not None and opening.fence is not None:
            yield from fence(now, opening.fence)
        if opening is not None and opening.rematch is not None:
            # the rematch's row, taken first: a second click opening it waits here, and
            # then finds it opened
            yield from self._agree_rematch(now, *opening.rematch)
        game_id = yield from self._insert_game(now, values, people)
        if opening is None:
            return game_id
        yield from self._start(moment, game_id, 0, opening)
        if opening.match is not None:
            yield from link_match(opening.match, game_id)
        if opening.entry is not None:
            day, shared_in = opening.entry
            creator_id, creator_name, _ai = people[0]
            yield Q.count(
                "INSERT INTO daily_entries (day, user_id, name, guild_id, game_id) "
                "VALUES (:day, :user_id, :name, :guild_id, :game_id)",
                day=day,
                user_id=creator_id,
                name=creator_name,
                guild_id=shared_in,
                game_id=game_id,
            )
        if opening.rematch is not None:
            yield Q.count(
                "UPDATE rematches SET opened = :game_id WHERE game_id = :finished",
                game_id=game_id,
                finished=opening.rematch[0],
            )
        return game_id

    def _insert_game(
        self, now: str, values: dict[str, object], people: Sequence[tuple[int, str, str | None]]
    ) -> Body[int]:
        """Insert a game in the lobby (``values``: its columns) and its seats; its id."""
        (game_id,) = yield Q(
            "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, "
            "creator_id, created_at, updated_at, move_hours, deadline_policy, remind_hours, "
            "reminder_limit, reaction_hours, rated) VALUES (:guild_id, :channel_id, "
            ":game_key, 'lobby', :options, :seed, :creator_id, :now, :now, :move_hours, "
            ":deadline_policy, :remind_hours, :reminder_limit, :reaction_hours, :rated) "
            "RETURNING id",
            dict(values, now=now),
            ROW,
        )
        yield Many(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) "
            "VALUES (:game_id, :seat, :user_id, :name, :ai)",
            [
                dict(game_id=game_id, seat=seat, user_id=user, name=name, ai=ai)
                for seat, (user, name, ai) in enumerate(people)
            ],
        )
        return int(game_id)

    async def join(
        self, game_id: int, version: int, user_id: int, name: str, ai: str | None = None
    ) -> None:
        await self._write(self._join(self.now(), game_id, version, user_id, name, ai))

    def _join(
        self, now: str, game_id: int, version: int, user_id: int, name: str, ai: str | None
    ) -> Body[None]:
        yield from self._bump(now, game_id, version, {}, None)
        yield Q.count(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (:game_id, "
            "(SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = :game_id), "
            ":user_id, :name, :ai)",
            game_id=game_id,
            user_id=user_id,
            name=name,
            ai=ai,
        )

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""
        await self._write(self._leave(self.now(), game_id, version, user_id))

    def _leave(self, now: str, game_id: int, version: int, user_id: int) -> Body[None]:
        game = yield from self._bump(now, game_id, version, {}, None)
        (gone,) = [s.seat for s in game.seats if s.user_id == user_id]
        yield Q.count(
            "DELETE FROM seats WHERE game_id = :game_id AND seat = :seat",
            game_id=game_id,
            seat=gone,
        )
        # (game, seat) is unique: later seats move up one by one, upwards
        for seat in sorted(s.seat for s in game.seats if s.seat > gone):
            yield Q.count(
                "UPDATE seats SET seat = seat - 1 WHERE game_id = :game_id AND seat = :seat",
                game_id=game_id,
                seat=seat,
            )

    async def start(
        self,
        game_id: int,
        version: int,
        state: str,
        awaiting: Iterable[int],
        heads_ups: Sequence[tuple[int, str, str, str]] = (),
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        opening = Opening(state, tuple(awaiting), heads_ups, notices)
        await self._write(self._start(self.clock(), game_id, version, opening))

    def _start(self, moment: datetime, game_id: int, version: int, opening: Opening) -> Body[None]:
        """Start the game at ``version`` as ``opening`` has it, in the caller's transaction."""
        now = iso(moment)
        columns = dict(status="active", **state_columns(opening.state))
        game = yield from self._bump(now, game_id, version, columns, None)
        seats = awaited(game.seats, game.clocks, moment, opening.awaiting)
        seats, told = tell_next(seats, opening.heads_ups)
        yield from self._settle(now, game, seats, Queued(opening.notices, told))


def _clock_columns(clocks: Clocks) -> dict[str, object]:
    """A game's clocks, as its columns."""
    return dict(
        move_hours=clocks.move_hours,
        deadline_policy=clocks.policy,
        remind_hours=clocks.remind_hours,
        reminder_limit=clocks.reminder_limit,
        reaction_hours=clocks.reaction_hours,
    )
