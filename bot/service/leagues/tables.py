"""Looking at leagues: standings (as a picture), the list, the schedule and the results."""

from __future__ import annotations

import asyncio

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
from bot.service.replies import Reply
from bot.store import parse_time
from renders.standings import render_table
from renders.text.common import plural


class LeagueTables:
    """Looking at leagues: standings (as a picture), the list, the schedule and the results."""

    def __init__(self, book: LeagueBook) -> None:
        self.store = book.store
        self.book = book

    async def standings(self, guild_id: int | None, name: str) -> Reply:
        league = await self.book.league(guild_id, name)
        members = await self.store.members(league.id)
        scoring = league_scoring(league)
        matches = await self.store.matches(league.id)
        results = [match_result(m, scoring) for m in matches if m.settled]
        fmt = league_format(league)
        rows = standings([m.user_id for m in members], results, fmt.tiebreaks)
        names = {m.user_id: m.name + (" (left)" if m.dropped else "") for m in members}
        when = progress(league, matches)
        lines = [f"**{league.name}** standings {when}"]
        lines += [
            f"{row.rank}. {names[row.player]} — {show(row.points)} "
            f"{'pt' if row.points == 1 else 'pts'}, {plural(row.games, 'game')}"
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
            + [cell(row.tiebreak(t)) for t in shown]
            for row in rows
        ]
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
            text="\n".join(lines), image=image, alt="\n".join(alt), alt_whole="/league standings"
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
        league = await self.book.league(guild_id, name)
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
                assert m.places is not None  # settled, and played
                outcome = finishing_order([names[p] for p in m.players], m.places)
            lines.append(f"R{m.round}: {who} — {outcome}")
        # whole: a long season is split into messages by the front end, never cut here
        return Reply(text="\n".join(lines), private=True)


def _until(words: str, stored: str | None) -> str:
    """``words`` and the stored moment, marked for the front end; nothing without one."""
    return f"{words} {when(parse_time(stored))}" if stored else ""
