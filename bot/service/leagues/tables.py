"""Looking at leagues: standings (as a picture), the list, the schedule and the results."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass

import engine
from bot.domain.leagues.formats import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
)
from bot.domain.leagues.formats import schedule as build_schedule
from bot.domain.leagues.results import show
from bot.domain.leagues.standings import (
    explain,
    standings,
)
from bot.service.leagues.book import (
    TIEBREAK_LABELS,
    LeagueBook,
    cell,
    finishing_order,
    league_format,
    league_scoring,
    match_result,
    progress,
)
from bot.service.marks import channel, when
from bot.service.pages import Pages
from bot.service.replies import Reply
from bot.store import LeagueRow, Match, parse_time
from renders.standings import render_table
from renders.text.common import plural


class LeagueTables:
    """Looking at leagues: standings (as a picture), the list, the schedule and the results."""

    def __init__(self, book: LeagueBook, pages: Pages) -> None:
        self.store = book.store
        self.book = book
        self.pages = pages

    async def linked(self, league: LeagueRow, text: str) -> str:
        """A league's post, with the link to the league's page."""
        return await self.pages.under(text, "League page", league.id, "league")

    async def standings(self, guild_id: int | None, name: str) -> Reply:
        league = await self.book.league(guild_id, name)
        standing = await self.table(league)
        when, columns, table = standing.when, list(standing.columns), standing.rows
        lines = [f"**{league.name}** standings {when}"]
        lines += [
            f"{rank}. {player} — {points} {'pt' if points == '1' else 'pts'}, "
            f"{plural(int(games), 'game')}"
            for rank, player, points, games, *_ in table
        ]
        if standing.why:
            lines.append(standing.why)
        image = await asyncio.to_thread(
            render_table, f"{league.name} standings", columns, table, when
        )
        # the picture's table in words, for a screen reader: a row a line
        alt = [f"{league.name} standings {when}"] + [
            f"{rank}. {player}: "
            + ", ".join(f"{c} {v}" for c, v in zip(columns[2:], values, strict=True))
            for rank, player, *values in table
        ]
        return Reply(
            text=await self.linked(league, "\n".join(lines)),
            image=image,
            alt="\n".join(alt),
            alt_whole="/league standings",
        )

    async def table(self, league: LeagueRow) -> Standings:
        """A league's standings as a table: rank, player, points, games played, then each
        tie-break someone has a value for, and in words why players level are ordered."""
        members = await self.store.members(league.id)
        scoring = league_scoring(league)
        matches = await self.store.matches(league.id)
        results = [match_result(m, scoring) for m in matches if m.settled]
        fmt = league_format(league)
        rows = standings([m.user_id for m in members], results, fmt.tiebreaks)
        names = {m.user_id: m.name + (" (left)" if m.dropped else "") for m in members}
        # a tie-break nobody has a value for yet (head to head before anyone is level)
        # would only be a column of dashes on a narrow screen
        shown = [t for t in fmt.tiebreaks if any(row.tiebreak(t) is not None for row in rows)]
        return Standings(
            when=progress(league, matches),
            columns=("#", "Player", "Pts", "GP", *(TIEBREAK_LABELS[t] for t in shown)),
            rows=tuple(
                (str(row.rank), names[row.player], show(row.points), str(row.games))
                + tuple(cell(row.tiebreak(t)) for t in shown)
                for row in rows
            ),
            players=tuple(row.player for row in rows),
            why=explain(rows, fmt.tiebreaks, names),
            legend=" · ".join(
                ["Pts: points", "GP: games played"] + [f"{TIEBREAK_LABELS[t]}: {t}" for t in shown]
            ),
        )

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
                "open": "sign-up open" + _until(" until", lg.starts_at),
                "running": f"round {lg.round} of {lg.rounds}"
                + _until(", until", lg.round_deadline),
                "finished": "finished",
            }[lg.status]
            game = engine.get(lg.game_key).info.name
            lines.append(f"{lg.name} — {game}, {lg.format}, {where}, in {channel(lg.channel_id)}")
        return Reply(text="\n".join(lines), private=True)

    async def schedule(self, guild_id: int | None, name: str) -> Reply:
        """Round robins are fixed from the start; other formats pair one round at a time."""
        league = await self.book.league(guild_id, name)
        members = await self.store.members(league.id)
        names = {m.user_id: m.name for m in members}
        lines = [f"**{league.name}** schedule"]
        fmt = league_format(league)
        if league.status == "open":
            lines.append(f"Rounds are drawn when the league starts{_until(',', league.starts_at)}.")
        elif fmt.name in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
            lines += self.coming(league, [m.user_id for m in members], names, since=0)
        else:
            current = [m for m in await self.store.matches(league.id) if m.round == league.round]
            lines.append(
                f"Round {league.round} of {league.rounds} (the next is drawn from results):"
            )
            lines += [" v ".join(names[p] for p in m.players) for m in current if m.kind != "bye"]
        return Reply(text="\n".join(lines), private=True)

    @staticmethod
    def coming(
        league: LeagueRow, players: list[int], names: Mapping[int, str], since: int | None = None
    ) -> list[str]:
        """A round robin's rounds after round ``since`` (the league's current one by
        default), a line each, fixed from the start; nothing for a format that pairs
        each round from the last one's results."""
        fmt = league_format(league)
        if fmt.name not in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN) or league.status == "open":
            return []
        after = league.round if since is None else since
        return [
            f"R{r.number}: "
            + ", ".join(" v ".join(names[p] for p in t) for t in r.tables)
            + "".join(f"; bye {names[p]}" for p in r.byes)
            for r in build_schedule(fmt, players, league.seed)
            if r.number > after
        ]

    async def results(self, guild_id: int | None, name: str) -> Reply:
        league = await self.book.league(guild_id, name)
        names = {m.user_id: m.name for m in await self.store.members(league.id)}
        lines = [f"**{league.name}** results"]
        for m in await self.store.matches(league.id):
            who = " v ".join(names[p] for p in m.players)
            lines.append(f"R{m.round}: {who} — {outcome(m, names)}")
        # whole: a long season is split into messages by the front end, never cut here
        return Reply(text="\n".join(lines), private=True)


@dataclass(frozen=True)
class Standings:
    """A league's standings (:meth:`LeagueTables.table`): each row the columns' texts."""

    when: str  # how far the season is
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    players: tuple[int, ...]  # each row's player
    why: str  # why players level stand in their order; empty when none are
    legend: str  # what each short column heading stands for


def outcome(match: Match, names: Mapping[int, str]) -> str:
    """How a match stands, in words: playing, a bye, a forfeit, or its finishing order."""
    if not match.settled:
        return "playing"
    if match.kind == "bye":
        return "bye"
    if match.kind == "forfeit":
        return "forfeit by " + ", ".join(names[p] for p in match.forfeiting)
    assert match.places is not None  # settled, and played
    return finishing_order([names[p] for p in match.players], match.places)


def _until(words: str, stored: str | None) -> str:
    """``words`` and the stored moment, marked for the front end; nothing without one."""
    return f"{words} {when(parse_time(stored))}" if stored else ""
