"""Signing up: creating a league, its organiser role, joining and leaving."""

from __future__ import annotations

import contextlib
import secrets

import engine
from bot.domain.leagues.formats import (
    BadLeague,
    Format,
)
from bot.domain.leagues.results import Scoring
from bot.service.context import Context
from bot.service.games import stored_game
from bot.service.inputs import (
    LEAGUE_MOVE_TIME,
    LEAGUE_ROUNDS,
    PLACE_POINTS,
    ROUND_TIME,
    SHOWN,
    TABLE_SIZE,
    Refused,
    check_count,
    check_hours,
    check_text,
    format_hours,
    parse_start,
)
from bot.service.leagues.book import LEAGUE_NAME, LeagueBook, league_format
from bot.service.marks import role, when
from bot.service.play import Play
from bot.service.replies import Caller, Reply, Table
from bot.service.timers import Posted
from bot.store import LeagueRow, StaleGame, iso, parse_time
from renders.text.common import plural


class Leagues:
    """Signing up: creating a league, its organiser role, joining and leaving."""

    def __init__(self, context: Context, book: LeagueBook, play: Play) -> None:
        self.context = context
        self.store = context.store
        self.book = book
        self.play = play

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
        round_hours: float = 7 * 24,
        move_hours: float | None = 2 * 24,
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
        if not await self.book.may_organise(table.guild_id, caller):
            raise Refused("Only a server manager or the league organiser role can create a league.")
        if game_key not in engine.GAMES:
            raise Refused(f"There is no game called '{game_key[:SHOWN]}'.")
        info = engine.get(game_key).info
        name = check_text(name.strip(), "A league's name")
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
            round_hours=check_hours(round_hours, ROUND_TIME),
            move_hours=None if move_hours is None else check_hours(move_hours, LEAGUE_MOVE_TIME),
            seed=secrets.randbits(31),
            created_by=caller.user_id,
            starts_at=await self._start_time(starts, caller),
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
                f"{format_hours(round_hours)} per round. "
                f"Join with `/league join name:{league.name}`."
                + (
                    f" It starts by itself at {when(parse_time(league.starts_at))}."
                    if league.starts_at
                    else ""
                )
            )
        )

    async def _start_time(self, text: str | None, caller: Caller) -> str | None:
        """A date and time (in the caller's ``/settings`` time zone unless it says another),
        a Discord timestamp or a delay such as ``3d``; None to start by hand."""
        if not text:
            return None
        zone = (await self.store.settings(caller.user_id)).timezone
        return iso(parse_start(text, self.store.clock(), zone))

    async def set_role(self, guild_id: int | None, caller: Caller, role_id: int | None) -> Reply:
        """Let a role organise leagues besides server managers (managers only)."""
        if guild_id is None or not caller.manager:
            raise Refused("Only a server manager can choose the league organiser role.")
        await self.store.set_organiser_role(guild_id, role_id)
        who = f"{role(role_id)} and server managers" if role_id else "server managers only"
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

    async def join(self, guild_id: int | None, caller: Caller, name: str) -> Reply:
        league = await self.book.league(guild_id, name)
        members = await self.store.members(league.id)
        if league.status == "finished":
            raise Refused(f"The {league.name} league is over.")
        if league.status == "running" and not league_format(league).late_joiners:
            raise Refused(
                f"The {league.name} league has started; a {league.format} can't take late joiners."
            )
        if any(m.user_id == caller.user_id and not m.dropped for m in members):
            raise Refused(f"You are already in the {league.name} league.")
        check_text(caller.name, "Your name")
        await self.store.add_member(league.id, caller.user_id, caller.name)
        late = " You play from the next round." if league.status == "running" else ""
        count = sum(not m.dropped for m in members) + 1
        players = plural(count, "player")
        return Reply(text=f"{caller.name} joined the {league.name} league ({players}).{late}")

    async def leave(
        self, guild_id: int | None, caller: Caller, name: str
    ) -> tuple[Reply, list[Posted]]:
        """Leave a league: before the start simply off the list; once it runs, the
        leaver's game in play is resigned and settled as their forfeit, so the round
        does not wait for a player who has gone. Returns the answer and the notices for
        the match threads."""
        league = await self.book.league(guild_id, name)
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
            assert match.channel_id is not None  # a table's match: its game's thread
            table = Table(match.channel_id, league.guild_id)
            if match.game_status == "active":
                # a game that will not take a resignation right now is called off below
                with contextlib.suppress(Refused):
                    await self.play.resign(table, Caller(leaver.user_id, leaver.name))
            game = await stored_game(self.store, match.game_id)
            size = len(match.players)
            places = [size if p == leaver.user_id else 1 for p in match.players]
            if game.status == "active":  # called off and settled as the forfeit at once
                forfeit = (match.id, places, [leaver.user_id])
                try:
                    await self.store.abandon(game.id, game.version, forfeit=forfeit)
                except StaleGame:  # a move landed this very moment
                    raise Refused(
                        "Your league game changed at that moment; please try again."
                    ) from None
                game = await stored_game(self.store, match.game_id)
            else:
                await self.store.settle_match(
                    match.id, "forfeit", places, [0] * size, [leaver.user_id]
                )
            text = (
                f"{leaver.name} left the {league.name} league and resigned: this match counts "
                f"as a forfeit by {leaver.name}, and the game ends here."
            )
            posted.append(Posted(table, Reply(text=text, game_id=game.id, version=game.version)))
        return posted
