"""The web's pages beyond a game's: a league's, the daily challenge's, a player's and a
server's games in progress, each what its Discord command shows, with every game linked
to its page.

Each is reached like a game's page, through an address signed for its kind
(:data:`~bot.service.pages.KINDS`), and shows nothing a channel would not: the daily
challenge's page shows today's results exactly as ``/daily leaderboard`` does (names
and margins, no game), and links a day's games once the day is over, when their dice
are no secret; a player's page lists today's daily game without its link for the same
reason. A server's page lists nothing unless its managers turned it on
(:meth:`Listings.set_server_page`): otherwise it is not there, like any wrong address.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import engine
from bot.service.daily import STEADY_MEANS, Challenge, all_time
from bot.service.daily import Daily as DailyFeature
from bot.service.games import Games
from bot.service.inputs import Refused
from bot.service.leagues.tables import LeagueTables, outcome
from bot.service.pages import Pages
from bot.service.replies import Caller, Reply, Table, ordinal
from bot.store import parse_time

#: past days of the daily challenge a page shows
PAST_DAYS = 14


@dataclass(frozen=True)
class Link:
    """Words, and the page they lead to (None: shown without a link)."""

    text: str
    path: str | None = None


@dataclass(frozen=True)
class MatchLine:
    round: int
    players: tuple[Link, ...]
    outcome: str
    game: Link | None  # its game's page, once it has one


@dataclass(frozen=True)
class LeaguePage:
    name: str
    game: str  # the game's name
    format: str
    status: str  # open, running, finished
    when: str  # how far the season is
    columns: tuple[str, ...]
    rows: tuple[tuple[Link, ...], ...]  # the standings, the player's cell linked
    why: str  # why players level stand in their order
    legend: str  # the short column headings in words
    matches: tuple[MatchLine, ...]  # every match drawn so far, by round
    schedule: tuple[str, ...]  # rounds still to come, where they are fixed


@dataclass(frozen=True)
class DailyRow:
    name: str
    margin: int
    status: str  # won, tied, lost
    game: str | None  # its game's page, once the day is over


@dataclass(frozen=True)
class DailyPage:
    today: Challenge
    todays: tuple[DailyRow, ...]  # finished games of today, best margin first
    past: tuple[tuple[str, tuple[DailyRow, ...]], ...]  # (day, its rows), latest first
    all_time: tuple[tuple[str, float, int, int, int], ...]  # name, rating, wins, streak, best
    ranking: str  # how the all-time figure is made, in words


@dataclass(frozen=True)
class PlayerPage:
    name: str
    ratings: tuple[tuple[str, str, int], ...]  # game, rating as shown, rated games
    playing: tuple[Link, ...]
    finished: tuple[Link, ...]
    elsewhere: int  # games not listed: their server keeps its page off, or played in private
    average_wait: float | None  # seconds from their turn's start to their move
    moves_timed: int


@dataclass(frozen=True)
class GameLine:
    game: Link
    players: str
    turn: str


@dataclass(frozen=True)
class ServerPage:
    games: tuple[GameLine, ...]


class Listings:
    """League, daily challenge, player and server pages: public, read only."""

    def __init__(
        self, pages: Pages, games: Games, tables: LeagueTables, daily: DailyFeature
    ) -> None:
        self.pages = pages
        self.store = pages.store
        self.games = games
        self.tables = tables
        self.daily = daily

    async def league(self, league_id: int, token: str) -> LeaguePage | None:
        if not await self.pages.signed(league_id, token, "league"):
            return None
        league = await self.store.league_by_id(league_id)
        if league is None:
            return None
        members = await self.store.members(league.id)
        names = {m.user_id: m.name for m in members}
        people = {u: Link(n, await self.pages.path(u, "player")) for u, n in names.items()}
        table = await self.tables.table(league)
        rows = tuple(
            (Link(rank), Link(player, people[user].path), *(Link(v) for v in values))
            for (rank, player, *values), user in zip(table.rows, table.players, strict=True)
        )
        matches = []
        for m in await self.store.matches(league.id):
            game = None
            if m.game_id is not None:
                game = Link(f"Game #{m.game_id}", await self.pages.path(m.game_id))
            who = tuple(people[p] for p in m.players)
            matches.append(MatchLine(m.round, who, outcome(m, names), game))
        schedule = self.tables.coming(league, [m.user_id for m in members], names)
        return LeaguePage(
            name=league.name,
            game=engine.get(league.game_key).info.name,
            format=league.format,
            status=league.status,
            when=table.when,
            columns=table.columns,
            rows=rows,
            why=table.why,
            legend=table.legend,
            matches=tuple(matches),
            schedule=tuple(schedule),
        )

    async def daily_page(self, token: str) -> DailyPage | None:
        if not await self.pages.signed(0, token, "daily"):
            return None
        today = await self.daily.challenge()
        entries = [e for e in await self.store.all_entries() if e.status != "playing"]
        first = (date.fromisoformat(today.day) - timedelta(days=PAST_DAYS)).isoformat()
        by_day: dict[str, list[DailyRow]] = {}
        for e in sorted(entries, key=lambda e: (-e.margin, e.name)):
            if e.day < first:
                continue
            # today's games stay unlinked, as /daily leaderboard shows them: their dice
            # are the challenge still being played
            game = None if e.day == today.day else await self.pages.path(e.game_id)
            by_day.setdefault(e.day, []).append(DailyRow(e.name, e.margin, e.status, game))
        return DailyPage(
            today=today,
            todays=tuple(by_day.pop(today.day, [])),
            past=tuple((day, tuple(rows)) for day, rows in sorted(by_day.items(), reverse=True)),
            all_time=tuple(
                (r.name, r.rating, r.wins, r.streak, r.best)
                for r in all_time(entries, today.day)[:20]
            ),
            ranking=STEADY_MEANS,
        )

    async def player(self, user_id: int, token: str) -> PlayerPage | None:
        if not await self.pages.signed(user_id, token, "player"):
            return None
        played = await self.store.played_games(user_id)
        if not played:
            return None
        # a game's own address goes only to those who see its channel: the page lists the
        # games anyone may find anyway, on their server's page (turned on) or the daily
        # challenge's; today's daily game, still a secret there, is listed unlinked
        entries = await self.store.entries(user_id=user_id)
        daily = {e.game_id for e in entries}
        today = {e.game_id for e in entries if e.day == self.daily.today()}
        playing, finished, elsewhere = [], [], 0
        for g in played:
            if not (g.listed or g.game_id in daily):
                elsewhere += 1
                continue
            title = f"{engine.get(g.game_key).info.name} #{g.game_id}"
            path: str | None = await self.pages.path(g.game_id)
            note = ""
            if g.game_id in today:
                path, note = None, " — today's daily challenge: its page opens tomorrow"
            if g.status in ("lobby", "active"):
                waiting = " (waiting for players)" if g.status == "lobby" else ""
                playing.append(Link(title + waiting + note, path))
            else:
                place = f", {ordinal(g.place)}" if g.place is not None else ""
                finished.append(Link(f"{title} ({g.status}{place}){note}", path))
        waits = [
            (parse_time(made) - parse_time(before)).total_seconds()
            for before, made in await self.store.move_waits(user_id)
        ]
        ratings = tuple(
            (engine.get(key).info.name, r.label(), r.games)
            for _guild, key, r in await self.store.player_ratings(user_id)
        )
        return PlayerPage(
            name=played[0].name,
            ratings=ratings,
            playing=tuple(playing),
            finished=tuple(finished),
            elsewhere=elsewhere,
            average_wait=sum(waits) / len(waits) if waits else None,
            moves_timed=len(waits),
        )

    async def server(self, guild_id: int, token: str) -> ServerPage | None:
        if not await self.pages.signed(guild_id, token, "server"):
            return None
        if not await self.store.server_page(guild_id):
            return None
        lines = []
        for game_id in await self.store.games_in_play(guild_id):
            try:
                game = await self.games.load(game_id, damaged=True)
            except Refused:  # gone since
                continue
            page = await self.pages.page(game)
            lines.append(
                GameLine(
                    Link(page.title, await self.pages.path(game_id)),
                    ", ".join(p.name for p in page.players),
                    page.turn,
                )
            )
        return ServerPage(tuple(lines))

    async def set_server_page(self, table: Table, caller: Caller, on: bool) -> Reply:
        """A server manager turns the server's page of games in progress on or off; on,
        they are given its address, privately, to share as they like."""
        if table.guild_id is None or not caller.manager:
            raise Refused("A server manager turns the server's page on or off, in the server.")
        await self.store.set_server_page(table.guild_id, on)
        if not on:
            return Reply(text="This server's page of games is off: its address shows nothing.")
        site = self.pages.site
        where = (
            f"at {site}{await self.pages.path(table.guild_id, 'server')}"
            if site is not None
            else "once this bot serves its pages (BRIDGEKEEPER_WEB is off here)"
        )
        return Reply(
            text=f"This server's page of games in progress is on, {where}. Whoever has the "
            "address sees the games; turn it off to close it.",
            private=True,
        )
