"""Running rounds: starting the season, drawing and opening each round's games, and the
once-a-minute tick that settles finished games and late rounds.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

from bot.clocks import Clocks
from bot.leagues.formats import (
    BadLeague,
    next_round,
)
from bot.marks import when
from bot.organiser.base import (
    LeaseLost,
    OrganiserBase,
    league_format,
    league_scoring,
    match_result,
)
from bot.scheduler import Posted
from bot.service import Caller, Refused, Reply, Table
from bot.service.pings import game_label
from bot.store import LeagueRow, Match, StaleGame, iso, parse_time

log = logging.getLogger(__name__)


class Rounds(OrganiserBase):
    """Running rounds: starting the season, drawing and opening each round's games, and the
    minute's tick that moves every league on. A league is stepped under its lease, so of
    several processes sharing the database one at a time does it."""

    async def start(self, guild_id: int | None, caller: Caller, name: str) -> list[Posted]:
        league = await self._league(guild_id, name)
        if caller.user_id != league.created_by and not await self._may_organise(guild_id, caller):
            raise Refused("Only the league's organiser or a server manager can start it.")
        async with self._lock_of(league.id):
            if not await self._hold(league.id):
                raise Refused(
                    f"The {league.name} league is moving on right now (a round is opening); "
                    "look again in a minute."
                )
            posted: list[Posted] = []
            try:
                await self._start(await self._league(guild_id, name), posted)
            except Refused:
                raise
            except Exception:
                if not posted:
                    raise
                # some matches are open: post them now; the next tick opens the rest and
                # announces the round (see _open_round)
                log.exception("league %d (%s) started only in part", league.id, league.name)
            finally:
                await self._let_go(league.id)
        return posted

    async def _start(self, league: LeagueRow, posted: list[Posted]) -> None:
        """Close sign-up and open round 1, appending its posts to ``posted``."""
        if league.status != "open":
            raise Refused(f"The {league.name} league has already started.")
        members = await self.store.members(league.id)
        try:
            rounds = league_format(league).round_count(len(members))
        except BadLeague as exc:
            raise Refused(str(exc)) from None
        await self.store.update_league(league.id, status="running", rounds=rounds, starts_at=None)
        league = await self._league(league.guild_id, league.name)
        await self._open_round(league, 1, posted)

    async def _open_round(self, league: LeagueRow, number: int, posted: list[Posted]) -> None:
        """Draw round ``number``, open a thread and game per match, and announce it.

        The draw is recorded whole before any game opens, and each opened game is linked
        to its match, so if Discord fails half-way the next tick opens only the matches
        still without a game instead of drawing the round again. Posts go into ``posted``
        as each game opens, so those already made survive a failure after them; the
        announcement goes in front of them once the whole round is open.
        """
        members = await self.store.members(league.id)
        names = {m.user_id: m.name for m in members}
        if not [m for m in await self.store.matches(league.id) if m.round == number]:
            await self._draw(league, number)
        matches = [m for m in await self.store.matches(league.id) if m.round == number]
        tables = [m for m in matches if m.kind == "played"]
        first = len(posted)
        for index, match in enumerate(tables, start=1):
            if match.game_id is not None:  # opened on an earlier try
                continue
            if not await self._hold(league.id):  # renewed: opening a match takes a while
                raise LeaseLost(f"league {league.id} was taken over while opening round {number}")
            title = f"{league.name} R{number} T{index}: " + " v ".join(
                names[p] for p in match.players
            )
            table = await self.open_table(league, match.id, title[:100])
            reply = await self._open_game(league, match.id, table, match.players)
            posted.append(Posted(table, reply))
        deadline = self.store.clock() + timedelta(hours=league.round_hours)
        await self.store.update_league(league.id, round=number, round_deadline=iso(deadline))
        lines = [f"**{league.name}** — round {number} of {league.rounds}, until {when(deadline)}."]
        lines += [
            f"Table {i}: " + ", ".join(names[p] for p in m.players) for i, m in enumerate(tables, 1)
        ]
        lines += [f"Bye: {names[m.players[0]]}" for m in matches if m.kind == "bye"]
        announce = Reply(text="\n".join(lines))
        posted.insert(first, Posted(Table(league.channel_id, league.guild_id), announce))

    async def _draw(self, league: LeagueRow, number: int) -> None:
        """Pair round ``number`` and record its matches; byes and forfeits settle at once."""
        members = await self.store.members(league.id)
        scoring = league_scoring(league)
        history = [
            match_result(m, scoring) for m in await self.store.matches(league.id) if m.settled
        ]
        dropped = {m.user_id for m in members if m.dropped}
        try:
            plan = next_round(
                league_format(league),
                history,
                [m.user_id for m in members],
                dropped,
                number,
                league.seed,
            )
        except BadLeague as exc:
            raise Refused(str(exc)) from None
        for player in plan.byes:
            match_id = await self.store.add_match(league.id, number, "bye", [player])
            await self.store.settle_match(match_id, "bye", [1], [0])
        for players in plan.forfeits:
            match_id = await self.store.add_match(league.id, number, "forfeit", list(players))
            gone = [p for p in players if p in dropped]
            places = [len(players) if p in dropped else 1 for p in players]
            await self.store.settle_match(match_id, "forfeit", places, [0] * len(players), gone)
        for players in plan.tables:
            await self.store.add_match(league.id, number, "played", list(players))

    async def _open_game(
        self, league: LeagueRow, match_id: int, table: Table, players: tuple[int, ...]
    ) -> Reply:
        names = {m.user_id: m.name for m in await self.store.members(league.id)}
        seats = [Caller(p, names[p]) for p in players]
        clocks = Clocks(move_hours=league.move_hours)
        opened = await self.service.create(table, seats[0], league.game_key, clocks=clocks)
        for caller in seats[1:]:
            await self.service.join(table, caller)
        reply = await self.service.start(table, seats[0])
        await self.store.link_match(match_id, opened.game_id)
        # the service pings only whoever moves first; a new match pings every player seated,
        # and only them, so nobody learns of their league game by chance
        first = ", ".join(names[u] for u in reply.awaiting if u in names)
        label = game_label(league.game_key, opened.game_id)
        return replace(
            reply,
            text=f"**{league.name}** — your league match. {reply.text}",
            mentions=tuple(players),
            ping=f"your **{league.name}** match begins in **{label}**: {first} to play first.",
        )

    async def tick(self) -> list[Posted]:
        """Settle what finished, forfeit what ran out of time, open what comes next.

        Each league steps on its own: one that cannot go on (too few players left to
        seat a table, a thread Discord refused) says why once in its channel and waits,
        while every other league carries on.
        """
        posted: list[Posted] = []
        for listed in await self.store.leagues_due_to_start():
            await self._tick_one(listed, "open", posted)
        for listed in await self.store.running_leagues():
            await self._tick_one(listed, "running", posted)
        return posted

    async def _tick_one(self, listed: LeagueRow, status: str, posted: list[Posted]) -> None:
        """One league's share of the tick, under its lock in this process and its lease
        among processes: started if it is due to, stepped if it runs. A league that
        stalled keeps its lease (this process renews it each minute as it tries again),
        so the process that said why is the one that goes on trying, and no other
        process says it again."""
        async with self._lock_of(listed.id):
            league = await self._held(listed, status)
            if league is None:
                return
            stalled = False
            try:
                if status == "open":
                    await self._start_due(league, posted)
                else:
                    await self._step(league, posted)
            except LeaseLost as exc:  # another process carries on with it
                log.warning("%s", exc)
            except Exception as exc:  # one league must not stop the others
                posted += self._stalled(league, exc)
                stalled = True
            else:
                self._stalls.pop(league.id, None)
            finally:
                if not stalled:
                    await self._let_go(league.id)

    async def _start_due(self, league: LeagueRow, posted: list[Posted]) -> None:
        """A league whose start time came: started, or told why not (too few players),
        and left for a person to start."""
        try:
            await self._start(league, posted)
        except Refused as exc:
            await self.store.update_league(league.id, starts_at=None)
            text = f"The {league.name} league could not start: {exc} Start it with `/league start`."
            posted.append(Posted(Table(league.channel_id, league.guild_id), Reply(text=text)))

    async def _held(self, listed: LeagueRow, status: str) -> LeagueRow | None:
        """The league as it stands once this process holds its lease, if it is still
        ``status`` (another process may have stepped it since the list was read); None,
        holding nothing, otherwise."""
        if not await self._hold(listed.id):
            return None
        try:
            league = await self.store.league(listed.guild_id or 0, listed.name)
        except BaseException:
            await self._let_go(listed.id)
            raise
        if league is None or league.id != listed.id or league.status != status:
            await self._let_go(listed.id)
            return None
        return league

    def _stalled(self, league: LeagueRow, error: Exception) -> list[Posted]:
        """The reason a league cannot go on, for its channel: once, not every minute.

        Remembered in memory only, so after a restart the reason is posted once more,
        which also reminds the organiser that the league still waits for them.
        """
        refused = isinstance(error, Refused)
        seen = str(error) if refused else f"{type(error).__name__}: {error}"
        if self._stalls.get(league.id) == seen:
            return []
        self._stalls[league.id] = seen
        if refused:
            reason = str(error)
            if league_format(league).late_joiners:
                reason += " New players can still join with `/league join`."
        else:
            log.exception("league %d (%s) could not go on", league.id, league.name)
            reason = "Something went wrong on the bot's side; its operator can see the log."
        stage = f"after round {league.round}" if league.round else "at its start"
        text = (
            f"The **{league.name}** league cannot go on {stage}: {reason} "
            "It tries again every minute; an organiser may need to step in."
        )
        return [Posted(Table(league.channel_id, league.guild_id), Reply(text=text))]

    async def _step(self, league: LeagueRow, posted: list[Posted]) -> None:
        """One running league's pass; what it posts goes straight into ``posted`` so a
        failure half-way loses none of the notices already made."""
        now = self.store.clock()
        current = [m for m in await self.store.matches(league.id) if m.round == league.round]
        late = league.round_deadline is not None and now >= parse_time(league.round_deadline)
        for match in current:
            if not match.settled:
                posted += await self._settle(match, late)
        current = [m for m in await self.store.matches(league.id) if m.round == league.round]
        if not all(m.settled for m in current):
            return
        if league.round < league.rounds:
            await self._open_round(league, league.round + 1, posted)
            return
        await self.store.update_league(league.id, status="finished", round_deadline=None)
        standing = await self.standings(league.guild_id, league.name)
        final = Reply(
            text=f"**{league.name} is over.** Final standings:\n{standing.text}",
            image=standing.image,
            alt=standing.alt,
        )
        posted.append(Posted(Table(league.channel_id, league.guild_id), final))

    async def _settle(self, match: Match, late: bool) -> list[Posted]:
        if match.game_status == "finished":
            seats = await self.store.seats(match.game_id)
            await self.store.settle_match(
                match.id, "played", [s.place for s in seats], [s.score for s in seats]
            )
            return []
        if match.game_status == "abandoned":
            await self.store.settle_match(
                match.id,
                "forfeit",
                [len(match.players)] * len(match.players),
                [0] * len(match.players),
                list(match.players),
            )
            return []
        if not late:
            return []
        game = await self.store.game(match.game_id)
        seats = await self.store.seats(match.game_id)
        holding_up = [s.user_id for s in seats if s.awaiting] or list(match.players)
        try:
            await self.store.abandon(game.id, game.version)
        except StaleGame:  # a move landed this very moment: settle it next tick
            return []
        places = [len(match.players) if p in holding_up else 1 for p in match.players]
        await self.store.settle_match(
            match.id, "forfeit", places, [0] * len(match.players), holding_up
        )
        names = ", ".join(s.name for s in seats if s.user_id in holding_up)
        text = f"The round's time is up: this match is settled as a forfeit by {names}."
        return [Posted(Table(match.channel_id, game.guild_id), Reply(text=text))]
