"""Leagues run by the bot: sign-up, rounds of real games, results, standings.

The pairing and scoring rules are pure (``bot.leagues``); this module keeps a league's
life in the store and plays its matches as ordinary games through the service. Rounds
move on in :meth:`Organiser.tick`, the same once-a-minute pass that runs deadlines:
finished games are settled, a round past its deadline is settled by forfeits, and the
next round (or the end of the season) follows. Every step is recorded before the next,
so a restart carries on where it stopped. No Discord here: a front end says where a
match is played by giving ``open_table`` (a thread on Discord).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from fractions import Fraction

import engine
from bot.inputs import (
    LEAGUE_MOVE_TIME,
    LEAGUE_ROUNDS,
    PLACE_POINTS,
    ROUND_TIME,
    SHOWN,
    TABLE_SIZE,
    check_count,
    parse_hours,
    parse_start,
)
from bot.leagues.formats import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    BadLeague,
    Format,
    next_round,
)
from bot.leagues.formats import schedule as build_schedule
from bot.leagues.results import Result, Scoring, bye, forfeit, played, show
from bot.leagues.standings import (
    AVERAGE_PLACE,
    BUCHHOLZ,
    BUCHHOLZ_CUT1,
    GAME_SCORE,
    HEAD_TO_HEAD,
    explain,
    standings,
)
from bot.scheduler import Posted
from bot.service import Caller, Refused, Reply, Service, Table, ordinal
from bot.store import Clocks, LeagueRow, Match, StaleGame, iso, parse_time
from renders.standings import render_table

log = logging.getLogger(__name__)

LEAGUE_NAME = 60  # characters: it heads every match thread's title, which Discord cuts at 100

#: where a match is played: (league, match id, title) -> a fresh channel or thread
OpenTable = Callable[[LeagueRow, int, str], Awaitable[Table]]


async def numbered_tables(league: LeagueRow, match_id: int, title: str) -> Table:
    """A place per match with no Discord about (the terminal, tests)."""
    return Table(channel_id=10_000_000 + match_id, guild_id=league.guild_id)


TIEBREAK_LABELS = {  # short: the standings image must read on a phone
    HEAD_TO_HEAD: "H2H",
    BUCHHOLZ: "Buch",
    BUCHHOLZ_CUT1: "Cut1",
    AVERAGE_PLACE: "Avg",
    GAME_SCORE: "Score",
}


def _cell(value: object) -> str:
    if value is None:
        return "–"
    return show(value) if isinstance(value, Fraction) else str(value)


def _format(league: LeagueRow) -> Format:
    """The league's format; a round robin's stored round count is its own, not a choice."""
    info = engine.get(league.game_key).info
    fixed = league.format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
    rounds = None if fixed else league.rounds
    return Format(league.format, info.min_players, info.max_players, league.table_size, rounds)


def _progress(league: LeagueRow, matches: list[Match]) -> str:
    """How far the season is, for a standings title: a round still being played is not
    counted as done, so the table never claims results that are not in yet."""
    total = league.rounds or "?"
    if league.status == "open" or league.round == 0:
        return "before round 1"
    playing = any(not m.settled for m in matches if m.round == league.round)
    if not playing:
        return f"after round {league.round} of {total}"
    if league.round == 1:
        return f"with round 1 of {total} in play"
    return f"after round {league.round - 1} of {total}, round {league.round} in play"


def _scoring(league: LeagueRow) -> Scoring:
    return Scoring(league.points, league.bye_points)


def _result(match: Match, scoring: Scoring) -> Result:
    if match.kind == "bye":
        return bye(match.round, match.players[0], scoring)
    if match.kind == "forfeit":
        return forfeit(match.round, match.players, match.forfeiting, scoring)
    return played(match.round, match.players, match.places, match.scores, scoring)


def finishing_order(names: list[str], places: Sequence[int]) -> str:
    """``1st Bob · 2nd Ada``, best first; a shared place is marked, as in ``=2nd``."""
    shared = {p for p in places if list(places).count(p) > 1}
    ranked = sorted(zip(places, names, strict=True), key=lambda pair: pair[0])
    return " · ".join(f"{'=' if p in shared else ''}{ordinal(p)} {n}" for p, n in ranked)


class Organiser:
    def __init__(self, service: Service, open_table: OpenTable = numbered_tables) -> None:
        self.service = service
        self.store = service.store
        self.open_table = open_table
        #: league id -> the error it last could not go on for (see :meth:`_stalled`)
        self._stalls: dict[int, str] = {}

    # -- sign-up ----------------------------------------------------------------------------

    async def create(
        self,
        table: Table,
        caller: Caller,
        name: str,
        game_key: str,
        format_name: str,
        *,
        table_size: int = 2,
        rounds: int | None = None,
        points: str | None = None,
        round_time: str = "7d",
        move_time: str | None = "2d",
        starts: str | None = None,
        bye: int | None = None,
    ) -> Reply:
        """Open a league for sign-up in ``table``'s channel.

        ``bye`` is what a round without a game is worth; by default what an average
        place earns, rounded down (a draw's 1 of 2/0, 3 of 6/4/2/0), so that sitting
        out is neither a gift nor a punishment. Many chess Swisses give a bye a full
        win instead: pass the win's points for that.
        """
        if table.guild_id is None:
            raise Refused("Leagues belong to a server: create one in a server channel.")
        if not await self._may_organise(table.guild_id, caller):
            raise Refused("Only a server manager or the league organiser role can create a league.")
        if game_key not in engine.GAMES:
            raise Refused(f"There is no game called '{game_key[:SHOWN]}'.")
        info = engine.get(game_key).info
        name = name.strip()
        if not 1 <= len(name) <= LEAGUE_NAME:
            raise Refused(
                f"A league's name is 1 to {LEAGUE_NAME} characters; that one has {len(name)}."
            )
        check_count(table_size, "table_size", TABLE_SIZE)
        if rounds is not None:
            check_count(rounds, "rounds", LEAGUE_ROUNDS)
        try:
            fmt = Format(format_name, info.min_players, info.max_players, table_size, rounds)
            scoring = self._parse_points(points, fmt, bye)
        except (BadLeague, ValueError) as exc:
            raise Refused(str(exc)) from None
        league = LeagueRow(
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            name=name,
            game_key=game_key,
            format=format_name,
            table_size=table_size,
            rounds=rounds,
            points=scoring.places,
            bye_points=scoring.bye,
            round_hours=parse_hours(round_time, ROUND_TIME),
            move_hours=parse_hours(move_time, LEAGUE_MOVE_TIME) if move_time else None,
            seed=secrets.randbits(31),
            created_by=caller.user_id,
            starts_at=self._start_time(starts),
        )
        if not league.name:
            raise Refused("A league needs a name.")
        try:
            await self.store.create_league(league)
        except StaleGame:
            raise Refused(f"This server already has a league called '{league.name}'.") from None
        return Reply(
            text=(
                f"{caller.name} opened the **{league.name}** league: {info.name}, {format_name}"
                f"{f' at tables of {table_size}' if format_name == 'rotating' else ''}, points "
                f"{'/'.join(map(str, scoring.places))} by place, {scoring.bye} for a bye, "
                f"{round_time} per round. Join with `/league join name:{league.name}`."
                + (
                    f" It starts by itself at {league.starts_at[:16].replace('T', ' ')} UTC."
                    if league.starts_at
                    else ""
                )
            )
        )

    def _start_time(self, text: str | None) -> str | None:
        """``2026-12-01 18:00`` (UTC) or a delay such as ``3d``; None to start by hand."""
        if not text:
            return None
        return iso(parse_start(text, self.store.clock()))

    async def _may_organise(self, guild_id: int | None, caller: Caller) -> bool:
        role = await self.store.organiser_role(guild_id or 0)
        return caller.manager or (role is not None and role in caller.roles)

    async def set_role(self, guild_id: int | None, caller: Caller, role_id: int | None) -> Reply:
        """Let a role organise leagues besides server managers (managers only)."""
        if guild_id is None or not caller.manager:
            raise Refused("Only a server manager can choose the league organiser role.")
        await self.store.set_organiser_role(guild_id, role_id)
        who = f"<@&{role_id}> and server managers" if role_id else "server managers only"
        return Reply(text=f"Leagues can now be organised by {who}.", private=True)

    @staticmethod
    def _parse_points(text: str | None, fmt: Format, bye: int | None = None) -> Scoring:
        """The league's points by place, and its bye (see :meth:`create` for the default)."""
        if not text:
            places = (
                Scoring().places
                if fmt.table_size == 2
                else Scoring.for_tables(fmt.table_size).places
            )
        else:
            try:
                places = tuple(int(p) for p in text.replace(",", "/").split("/"))
            except ValueError:
                raise ValueError(
                    f"'{text[:30]}' is not a list of points by place, like 6/4/2/0."
                ) from None
            low, high = PLACE_POINTS
            if len(places) > TABLE_SIZE[1] or not all(low <= p <= high for p in places):
                raise ValueError(
                    f"points must be up to {TABLE_SIZE[1]} numbers from {low} to {high} by "
                    f"place, like 6/4/2/0; '{text[:30]}' is not."
                )
        if bye is None:
            bye = sum(places) // len(places)
        elif not 0 <= bye <= max(places):
            raise ValueError(f"A bye is worth 0 to {max(places)} points (a win), not {bye}.")
        return Scoring(places, bye)

    async def _league(self, guild_id: int | None, name: str) -> LeagueRow:
        league = await self.store.league(guild_id or 0, name.strip())
        if league is None:
            raise Refused(f"There is no league called '{name[:SHOWN]}' in this server.")
        return league

    async def join(self, guild_id: int | None, caller: Caller, name: str) -> Reply:
        league = await self._league(guild_id, name)
        members = await self.store.members(league.id)
        if league.status == "finished":
            raise Refused(f"The {league.name} league is over.")
        if league.status == "running" and not _format(league).late_joiners:
            raise Refused(
                f"The {league.name} league has started; a {league.format} can't take late joiners."
            )
        if any(m.user_id == caller.user_id and not m.dropped for m in members):
            raise Refused(f"You are already in the {league.name} league.")
        await self.store.add_member(league.id, caller.user_id, caller.name)
        late = " You play from the next round." if league.status == "running" else ""
        count = sum(not m.dropped for m in members) + 1
        return Reply(text=f"{caller.name} joined the {league.name} league ({count} players).{late}")

    async def leave(
        self, guild_id: int | None, caller: Caller, name: str
    ) -> tuple[Reply, list[Posted]]:
        """Leave a league: before the start simply off the list; once it runs, the
        leaver's game in play is resigned and settled as their forfeit, so the round
        does not wait for a player who has gone. Returns the answer and the notices for
        the match threads."""
        league = await self._league(guild_id, name)
        members = await self.store.members(league.id)
        if not any(m.user_id == caller.user_id and not m.dropped for m in members):
            raise Refused(f"You are not in the {league.name} league.")
        notices = []
        if league.status == "running":
            notices = await self._forfeit_live(league, caller)
        await self.store.drop_member(league.id, caller.user_id, remove=league.status == "open")
        after = " Unplayed matches count as forfeits." if league.status == "running" else ""
        return Reply(text=f"{caller.name} left the {league.name} league.{after}"), notices

    async def _forfeit_live(self, league: LeagueRow, leaver: Caller) -> list[Posted]:
        """Resign ``leaver``'s unsettled league games and settle each as their forfeit.

        The resignation goes through the service, so the game's log and rating say the
        leaver lost; a game of three or more that would play on without them is called
        off, since its match is settled now and the others get a win's points.
        """
        posted = []
        for match in await self.store.matches(league.id):
            if match.settled or match.game_id is None or leaver.user_id not in match.players:
                continue
            if match.game_status in ("finished", "abandoned"):  # over already: tick settles it
                continue
            table = Table(match.channel_id, league.guild_id)
            if match.game_status == "active":
                # a game that will not take a resignation right now is called off below
                with contextlib.suppress(Refused):
                    await self.service.resign(table, Caller(leaver.user_id, leaver.name))
            game = await self.store.game(match.game_id)
            if game.status == "active":
                try:
                    await self.store.abandon(game.id, game.version)
                except StaleGame:  # a move landed this very moment
                    raise Refused(
                        "Your league game changed at that moment; please try again."
                    ) from None
                game = await self.store.game(match.game_id)
            size = len(match.players)
            places = [size if p == leaver.user_id else 1 for p in match.players]
            await self.store.settle_match(match.id, "forfeit", places, [0] * size, [leaver.user_id])
            text = (
                f"{leaver.name} left the {league.name} league and resigned: this match counts "
                f"as a forfeit by {leaver.name}, and the game ends here."
            )
            posted.append(Posted(table, Reply(text=text, game_id=game.id, version=game.version)))
        return posted

    # -- rounds -----------------------------------------------------------------------------

    async def start(self, guild_id: int | None, caller: Caller, name: str) -> list[Posted]:
        league = await self._league(guild_id, name)
        if caller.user_id != league.created_by and not await self._may_organise(guild_id, caller):
            raise Refused("Only the league's organiser or a server manager can start it.")
        posted: list[Posted] = []
        try:
            await self._start(league, posted)
        except Refused:
            raise
        except Exception:
            if not posted:
                raise
            # some matches are open: post them now; the next tick opens the rest and
            # announces the round (see _open_round)
            log.exception("league %d (%s) started only in part", league.id, league.name)
        return posted

    async def _start(self, league: LeagueRow, posted: list[Posted]) -> None:
        """Close sign-up and open round 1, appending its posts to ``posted``."""
        if league.status != "open":
            raise Refused(f"The {league.name} league has already started.")
        members = await self.store.members(league.id)
        try:
            rounds = _format(league).round_count(len(members))
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
            title = f"{league.name} R{number} T{index}: " + " v ".join(
                names[p] for p in match.players
            )
            table = await self.open_table(league, match.id, title[:100])
            reply = await self._open_game(league, match.id, table, match.players)
            posted.append(Posted(table, reply))
        deadline = self.store.clock() + timedelta(hours=league.round_hours)
        await self.store.update_league(league.id, round=number, round_deadline=iso(deadline))
        lines = [
            f"**{league.name}** — round {number} of {league.rounds}, until "
            f"{iso(deadline)[:16].replace('T', ' ')} UTC."
        ]
        lines += [
            f"Table {i}: " + ", ".join(names[p] for p in m.players) for i, m in enumerate(tables, 1)
        ]
        lines += [f"Bye: {names[m.players[0]]}" for m in matches if m.kind == "bye"]
        announce = Reply(text="\n".join(lines))
        posted.insert(first, Posted(Table(league.channel_id, league.guild_id), announce))

    async def _draw(self, league: LeagueRow, number: int) -> None:
        """Pair round ``number`` and record its matches; byes and forfeits settle at once."""
        members = await self.store.members(league.id)
        scoring = _scoring(league)
        history = [_result(m, scoring) for m in await self.store.matches(league.id) if m.settled]
        dropped = {m.user_id for m in members if m.dropped}
        try:
            plan = next_round(
                _format(league),
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
        return replace(
            reply,
            text=f"**{league.name}** — your league match. {reply.text}",
            mentions=tuple(players),
        )

    async def tick(self) -> list[Posted]:
        """Settle what finished, forfeit what ran out of time, open what comes next.

        Each league steps on its own: one that cannot go on (too few players left to
        seat a table, a thread Discord refused) says why once in its channel and waits,
        while every other league carries on.
        """
        posted: list[Posted] = []
        for league in await self.store.leagues_due_to_start():
            try:
                await self._start(league, posted)
            except Refused as exc:  # too few players: say so, and leave the start to a person
                await self.store.update_league(league.id, starts_at=None)
                text = (
                    f"The {league.name} league could not start: {exc} Start it with /league start."
                )
                posted.append(Posted(Table(league.channel_id, league.guild_id), Reply(text=text)))
            except Exception as exc:  # one league must not stop the others
                posted += self._stalled(league, exc)
        for league in await self.store.running_leagues():
            try:
                await self._step(league, posted)
            except Exception as exc:  # one league must not stop the others
                posted += self._stalled(league, exc)
            else:
                self._stalls.pop(league.id, None)
        return posted

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
            if _format(league).late_joiners:
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

    # -- looking ----------------------------------------------------------------------------

    async def standings(self, guild_id: int | None, name: str) -> Reply:
        league = await self._league(guild_id, name)
        members = await self.store.members(league.id)
        scoring = _scoring(league)
        matches = await self.store.matches(league.id)
        results = [_result(m, scoring) for m in matches if m.settled]
        fmt = _format(league)
        rows = standings([m.user_id for m in members], results, fmt.tiebreaks)
        names = {m.user_id: m.name + (" (left)" if m.dropped else "") for m in members}
        when = _progress(league, matches)
        lines = [f"**{league.name}** standings {when}"]
        lines += [
            f"{row.rank}. {names[row.player]} — {show(row.points)} pts, {row.games} games"
            for row in rows
        ]
        why = explain(rows, fmt.tiebreaks, names)
        if why:
            lines.append(why)
        # a tie-break nobody has a value for yet (head to head before anyone is level)
        # would only be a column of dashes on a narrow screen
        shown = [t for t in fmt.tiebreaks if any(row.tiebreak(t) is not None for row in rows)]
        columns = ["#", "Player", "Pts", "GP", *(TIEBREAK_LABELS[t] for t in shown)]
        table = [
            [str(row.rank), names[row.player], show(row.points), str(row.games)]
            + [_cell(row.tiebreak(t)) for t in shown]
            for row in rows
        ]
        image = await asyncio.to_thread(
            render_table, f"{league.name} standings", columns, table, when
        )
        return Reply(text="\n".join(lines), image=image)

    async def league_names(self, guild_id: int | None, typed: str = "") -> list[str]:
        """This server's league names containing ``typed``, for autocomplete (at most 25,
        Discord's limit); running leagues first, as those are the ones people look up."""
        order = {"running": 0, "open": 1, "finished": 2}
        found = [
            lg
            for lg in await self.store.leagues(guild_id or 0)
            if typed.strip().casefold() in lg.name.casefold()
        ]
        return [lg.name for lg in sorted(found, key=lambda lg: order[lg.status])][:25]

    async def list_leagues(self, guild_id: int | None) -> Reply:
        """Every league in the server with its game and how far it has got (private)."""
        leagues = await self.store.leagues(guild_id or 0)
        if not leagues:
            return Reply(text="This server has no leagues yet.", private=True)
        lines = ["**Leagues here**"]
        for lg in leagues:
            where = {
                "open": "sign-up open",
                "running": f"round {lg.round} of {lg.rounds}",
                "finished": "finished",
            }[lg.status]
            game = engine.get(lg.game_key).info.name
            lines.append(f"{lg.name} — {game}, {lg.format}, {where}, in <#{lg.channel_id}>")
        return Reply(text="\n".join(lines), private=True)

    async def schedule(self, guild_id: int | None, name: str) -> Reply:
        """Round robins are fixed from the start; other formats pair one round at a time."""
        league = await self._league(guild_id, name)
        members = await self.store.members(league.id)
        names = {m.user_id: m.name for m in members}
        lines = [f"**{league.name}** schedule"]
        fmt = _format(league)
        if league.status == "open":
            lines.append("Rounds are drawn when the league starts.")
        elif fmt.name in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
            for r in build_schedule(fmt, [m.user_id for m in members], league.seed):
                games = ", ".join(" v ".join(names[p] for p in t) for t in r.tables)
                lines.append(f"R{r.number}: {games}" + "".join(f"; bye {names[p]}" for p in r.byes))
        else:
            current = [m for m in await self.store.matches(league.id) if m.round == league.round]
            lines.append(
                f"Round {league.round} of {league.rounds} (the next is drawn from results):"
            )
            lines += [" v ".join(names[p] for p in m.players) for m in current if m.kind != "bye"]
        return Reply(text="\n".join(lines), private=True)

    async def results(self, guild_id: int | None, name: str) -> Reply:
        league = await self._league(guild_id, name)
        names = {m.user_id: m.name for m in await self.store.members(league.id)}
        lines = [f"**{league.name}** results"]
        for m in await self.store.matches(league.id):
            who = " v ".join(names[p] for p in m.players)
            if not m.settled:
                outcome = "playing"
            elif m.kind == "bye":
                outcome = "bye"
            elif m.kind == "forfeit":
                outcome = "forfeit by " + ", ".join(names[p] for p in m.forfeiting)
            else:
                outcome = finishing_order([names[p] for p in m.players], m.places)
            lines.append(f"R{m.round}: {who} — {outcome}")
        # whole: a long season is split into messages by the front end, never cut here
        return Reply(text="\n".join(lines), private=True)
