"""Running rounds: starting the season, drawing and opening each round's games, and the
once-a-minute tick that settles finished games and late rounds.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from functools import partial

from bot.domain.clocks import Clocks
from bot.domain.leagues.formats import (
    BadLeague,
    next_round,
)
from bot.service.context import Context
from bot.service.games import results_of, stored_game
from bot.service.inputs import Refused
from bot.service.leagues.book import (
    LeagueBook,
    OpenTable,
    league_format,
    league_scoring,
    match_result,
)
from bot.service.leagues.tables import LeagueTables
from bot.service.lobby import Lobby
from bot.service.marks import when
from bot.service.pings import game_label
from bot.service.replies import Caller, Reply, Table
from bot.service.timers import Post, Posted, post_once
from bot.store import Drawn, LeagueRow, LeaseLost, Match, StaleGame, iso, parse_time

log = logging.getLogger(__name__)


class LeagueRounds:
    """Running rounds: starting the season, drawing and opening each round's games, and the
    minute's tick that moves every league on. A league is stepped under its lease, so of
    several processes sharing the database one at a time does it, and each of its writes
    checks the lease in its own transaction (a process that stalled past it is refused).

    Each step is one transaction and safe to run again: the start with round 1's draw, a
    round's draw, each match's game (opened, seated, started and linked to its match at
    once), the round's opening. Its posts (the round's announcement, each match's first
    board, the final standings) are marked due in the transaction that makes them due,
    and marked made once posted: a pass that dies in between leaves them to the next.

    ``open_table`` is the front end's: where a match is played (a thread on Discord)."""

    def __init__(
        self,
        context: Context,
        book: LeagueBook,
        lobby: Lobby,
        tables: LeagueTables,
        open_table: OpenTable,
    ) -> None:
        self.store = context.store
        self.book = book
        self.lobby = lobby
        self.tables = tables
        self.open_table = open_table

    async def let_go(self) -> None:
        """Give up the leases of the leagues this process keeps (the stalled ones)."""
        for league_id in list(self.book.stalls):
            await self.book.let_go(league_id)

    async def start(
        self, guild_id: int | None, caller: Caller, name: str, post: Post | None = None
    ) -> list[Posted]:
        """Close sign-up and open round 1. Its posts go to ``post`` (see :meth:`tick`);
        returned without it."""
        league = await self.book.league(guild_id, name)
        if caller.user_id != league.created_by and not await self.book.may_organise(
            guild_id, caller
        ):
            raise Refused("Only the league's organiser or a server manager can start it.")
        async with self.book.lock_of(league.id):
            if not await self.book.hold(league.id):
                raise Refused(
                    f"The {league.name} league is moving on right now (a round is opening); "
                    "look again in a minute."
                )
            posted: list[Posted] = []
            try:
                await self._start(await self.book.league(guild_id, name), post, posted)
            except Refused:
                raise
            except Exception:
                if not posted:
                    raise
                # some matches are open: post them now; the next tick opens the rest and
                # announces the round
                log.exception("league %d (%s) started only in part", league.id, league.name)
            finally:
                await self.book.let_go(league.id)
        return posted

    async def _start(self, league: LeagueRow, post: Post | None, posted: list[Posted]) -> None:
        """Close sign-up and open round 1 (the start and its draw are one transaction)."""
        if league.status != "open":
            raise Refused(f"The {league.name} league has already started.")
        members = await self.store.members(league.id)
        try:
            rounds = league_format(league).round_count(len(members))
        except BadLeague as exc:
            raise Refused(str(exc)) from None
        running = replace(league, status="running", rounds=rounds, starts_at=None)
        await self._open_round(running, 1, post, posted, starting=True)

    async def _open_round(
        self,
        league: LeagueRow,
        number: int,
        post: Post | None,
        posted: list[Posted],
        *,
        starting: bool = False,
    ) -> None:
        """Draw round ``number`` (with the league's start, if ``starting``), open a thread
        and game per match, mark the round open, and post what that made due.

        Each is a transaction of its own that a pass after a crash finds made and goes
        past: the draw is recorded whole or not at all, each game is linked to its match
        as it opens, so the next pass opens only the matches still without one. What was
        posted stays posted if anything fails after it; the rest is posted next minute.
        """
        try:
            if not [m for m in await self.store.matches(league.id) if m.round == number]:
                await self._draw(league, number, starting)
            matches = [m for m in await self.store.matches(league.id) if m.round == number]
            names = {m.user_id: m.name for m in await self.store.members(league.id)}
            tables = [m for m in matches if m.kind == "played"]
            for index, match in enumerate(tables, start=1):
                if match.game_id is None:  # else opened on an earlier try
                    await self._open_game(league, match, index, names)
            deadline = self.store.clock() + timedelta(hours=league.round_hours)
            await self.store.open_round(
                league.id, number, iso(deadline), self.book.fence(league.id)
            )
        finally:
            await self._post_due(league, post, posted)

    async def _draw(self, league: LeagueRow, number: int, starting: bool) -> None:
        """Pair round ``number`` and record its matches, byes and forfeits settled, in one
        transaction (with the league's start, if ``starting``)."""
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
        drawn = [Drawn("bye", (player,), (1,)) for player in plan.byes]
        for players in plan.forfeits:
            gone = tuple(p for p in players if p in dropped)
            places = tuple(len(players) if p in dropped else 1 for p in players)
            drawn.append(Drawn("forfeit", tuple(players), places, gone))
        drawn += [Drawn("played", tuple(players)) for players in plan.tables]
        fence = self.book.fence(league.id)
        rounds = league.rounds if starting else None
        await self.store.draw_round(league.id, number, drawn, fence, rounds=rounds)

    async def _open_game(
        self, league: LeagueRow, match: Match, index: int, names: dict[int, str]
    ) -> None:
        """A thread for the match, and in it the match's game: opened, seated, started
        and linked to the match in one transaction under the league's lease."""
        if not await self.book.hold(league.id):  # renewed: Discord may take a while
            raise LeaseLost(f"league {league.id} was taken over while opening match {match.id}")
        title = f"{league.name} R{match.round} T{index}: " + " v ".join(
            names[p] for p in match.players
        )
        table = await self.open_table(league, match.id, title[:100])
        try:
            await self.lobby.open_game(
                table,
                [Caller(p, names[p]) for p in match.players],
                league.game_key,
                clocks=Clocks(move_hours=league.move_hours),
                match=match.id,
                fence=self.book.fence(league.id),
            )
        except StaleGame:  # another process opened it as this one waited on Discord
            log.warning("league match %d was opened meanwhile", match.id)

    async def _post_due(self, league: LeagueRow, post: Post | None, posted: list[Posted]) -> None:
        """Post what the league's transactions made due and no pass has posted yet: its
        news (a round's announcement, or its final standings), then each new match's
        first board; each marked made once posted (:func:`~bot.service.timers.post_once`),
        under the league's lease (:class:`LeaseLost` once another process holds it: it
        posts the rest)."""
        league = await self.book.league(league.guild_id, league.name)
        matches = await self.store.matches(league.id)
        due = []
        if league.news_pending:
            news = await self._news(league, matches)
            due.append((news, partial(self.store.news_posted, league.id)))
        for match in matches:
            if match.post_pending:
                board = await self._match_post(league, match)
                due.append((board, partial(self.store.match_posted, match.id)))
        hold = partial(self.book.hold, league.id)
        for item, mark in due:
            if not await post_once(item, mark, post, posted, hold):
                raise LeaseLost(f"league {league.id} was taken over while posting")

    async def _news(self, league: LeagueRow, matches: list[Match]) -> Posted:
        """The league's latest news, for its channel: the current round's announcement,
        or the final standings once it is over."""
        home = Table(league.channel_id, league.guild_id)
        if league.status == "finished":
            standing = await self.tables.standings(league.guild_id, league.name)
            final = Reply(
                text=f"**{league.name} is over.** Final standings:\n{standing.text}",
                image=standing.image,
                alt=standing.alt,
                alt_whole=standing.alt_whole,
            )
            return Posted(home, final)
        names = {m.user_id: m.name for m in await self.store.members(league.id)}
        current = [m for m in matches if m.round == league.round]
        tables = [m for m in current if m.kind == "played"]
        assert league.round_deadline is not None  # a running league's round has one
        deadline = parse_time(league.round_deadline)
        lines = [
            f"**{league.name}** — round {league.round} of {league.rounds}, until {when(deadline)}."
        ]
        lines += [
            f"Table {i}: " + ", ".join(names[p] for p in m.players) for i, m in enumerate(tables, 1)
        ]
        lines += [f"Bye: {names[m.players[0]]}" for m in current if m.kind == "bye"]
        return Posted(home, Reply(text=await self.tables.linked(league, "\n".join(lines))))

    async def _match_post(self, league: LeagueRow, match: Match) -> Posted:
        """A new match's first board, in its thread. The service pings only whoever moves
        first; a new match pings every player seated, and only them, so nobody learns of
        their league game by chance."""
        # a new match is a table, with its game in its thread
        assert match.game_id is not None and match.channel_id is not None
        reply = await self.lobby.opening(match.game_id)
        names = {m.user_id: m.name for m in await self.store.members(league.id)}
        first = ", ".join(names[u] for u in reply.awaiting if u in names)
        label = game_label(league.game_key, match.game_id)
        reply = replace(
            reply,
            text=f"**{league.name}** — your league match. {reply.text}",
            mentions=match.players,
            ping=f"your **{league.name}** match begins in **{label}**: {first} to play first.",
        )
        return Posted(Table(match.channel_id, league.guild_id), reply)

    async def tick(self, post: Post | None = None) -> list[Posted]:
        """Settle what finished, forfeit what ran out of time, open what comes next.

        Each league steps on its own: one that cannot go on (too few players left to
        seat a table, a thread Discord refused) says why once in its channel and waits,
        while every other league carries on.

        With ``post``, the posts of what a step stores (a round's announcement, each new
        match's board, the final standings) are posted as they are due and marked made
        once posted, by the league's lease holder: each is made at least once, and only a
        process that dies between posting and marking posts it twice. Without ``post`` they
        are marked made at once and returned. The other posts (why a league stalls, a
        round's forfeits) are returned either way, for the caller to post.
        """
        posted: list[Posted] = []
        for listed in await self.store.leagues_due_to_start():
            await self._tick_one(listed, post, posted)
        for listed in await self.store.leagues_to_step():
            await self._tick_one(listed, post, posted)
        return posted

    async def _tick_one(self, listed: LeagueRow, post: Post | None, posted: list[Posted]) -> None:
        """One league's share of the tick, under its lock in this process and its lease
        among processes: started if it is due to, stepped if it runs, its final standings
        posted if they are not yet. A league that stalled keeps its lease (this process
        renews it each minute as it tries again), so the process that said why is the one
        that goes on trying, and no other process says it again."""
        async with self.book.lock_of(listed.id):
            league = await self._held(listed)
            if league is None:
                return
            stalled = False
            try:
                if league.status == "open":
                    await self._start_due(league, post, posted)
                elif league.status == "running":
                    await self._step(league, post, posted)
                else:
                    await self._post_due(league, post, posted)
            except LeaseLost as exc:  # another process carries on with it
                log.warning("%s", exc)
            except Exception as exc:  # one league must not stop the others
                posted += self._stalled(league, exc)
                stalled = True
            else:
                self.book.stalls.pop(league.id, None)
            finally:
                if not stalled:
                    await self.book.let_go(league.id)

    async def _start_due(self, league: LeagueRow, post: Post | None, posted: list[Posted]) -> None:
        """A league whose start time came: started, or told why not (too few players),
        and left for a person to start."""
        try:
            await self._start(league, post, posted)
        except Refused as exc:
            await self.store.update_league(league.id, starts_at=None)
            text = f"The {league.name} league could not start: {exc} Start it with `/league start`."
            posted.append(Posted(Table(league.channel_id, league.guild_id), Reply(text=text)))

    async def _held(self, listed: LeagueRow) -> LeagueRow | None:
        """The league as it stands once this process holds its lease, if it is still as
        listed (another process may have stepped it since the list was read); None,
        holding nothing, otherwise."""
        if not await self.book.hold(listed.id):
            return None
        try:
            league = await self.store.league(listed.guild_id or 0, listed.name)
        except BaseException:
            await self.book.let_go(listed.id)
            raise
        if league is None or (league.id, league.status) != (listed.id, listed.status):
            await self.book.let_go(listed.id)
            return None
        return league

    def _stalled(self, league: LeagueRow, error: Exception) -> list[Posted]:
        """The reason a league cannot go on, for its channel: once, not every minute.

        Remembered in memory only, so after a restart the reason is posted once more,
        which also reminds the organiser that the league still waits for them.
        """
        refused = isinstance(error, Refused)
        seen = str(error) if refused else f"{type(error).__name__}: {error}"
        if self.book.stalls.get(league.id) == seen:
            return []
        self.book.stalls[league.id] = seen
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

    async def _step(self, league: LeagueRow, post: Post | None, posted: list[Posted]) -> None:
        """One running league's pass: what an earlier pass made due and did not post
        first; what it posts goes straight into ``posted`` so a failure half-way loses
        none of the notices already made."""
        await self._post_due(league, post, posted)
        now = self.store.clock()
        current = [m for m in await self.store.matches(league.id) if m.round == league.round]
        late = league.round_deadline is not None and now >= parse_time(league.round_deadline)
        for match in current:
            if not match.settled:
                posted += await self._settle(match, late)
        current = [m for m in await self.store.matches(league.id) if m.round == league.round]
        if not all(m.settled for m in current):
            return
        assert league.rounds is not None  # fixed when the league started
        if league.round < league.rounds:
            await self._open_round(league, league.round + 1, post, posted)
            return
        await self.store.finish_league(league.id, self.book.fence(league.id))
        await self._post_due(league, post, posted)

    async def _settle(self, match: Match, late: bool) -> list[Posted]:
        # unsettled: a table, its game in its thread (a bye is settled as it is drawn)
        assert match.game_id is not None and match.channel_id is not None
        if match.game_status == "finished":
            places, scores = results_of(await self.store.seats(match.game_id))
            await self.store.settle_match(match.id, "played", places, scores)
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
        game = await stored_game(self.store, match.game_id)
        seats = await self.store.seats(match.game_id)
        holding_up = [s.user_id for s in seats if s.awaiting] or list(match.players)
        places = [len(match.players) if p in holding_up else 1 for p in match.players]
        try:  # the game called off and the match settled as their forfeit, at once
            await self.store.abandon(game.id, game.version, forfeit=(match.id, places, holding_up))
        except StaleGame:  # a move landed this very moment: settle it next tick
            return []
        names = ", ".join(s.name for s in seats if s.user_id in holding_up)
        text = f"The round's time is up: this match is settled as a forfeit by {names}."
        return [Posted(Table(match.channel_id, game.guild_id), Reply(text=text))]
