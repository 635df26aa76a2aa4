"""The daily Euler challenge: one solo Seven Bridges game per UTC day, the same for all.

The day's starting square and every die come from an HMAC of the date under a secret
kept in the database: nobody can work out a coming challenge, and two players who make
the same choices see the same dice (a re-roll draws the next numbers of the day's
stream, because the dice come from the game's seeded generator). The week climbs from
the rulebook's easiest starting squares on Monday to its hardest on Sunday. Each user
gets one attempt a day, played privately; abandoning it counts as a loss.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import partial

from bot.service.context import LEASE, Context
from bot.service.games import Games, solo_attempt
from bot.service.inputs import Refused
from bot.service.lobby import Lobby
from bot.service.marks import when
from bot.service.pages import Pages
from bot.service.replies import Caller, Reply, Table
from bot.service.timers import Post, Posted, day_ends, post_once
from bot.store import Attempt, Entry
from engine.seven_bridges.board import CITY, format_square
from renders.text.common import plural

GAME = "seven-bridges"
#: the rulebook's solo levels (1 easiest … 9 hardest) allowed as starts, Monday first
WEEK = ((1, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (7, 9))
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: all-time ranking: average margin as if every player had this many extra 0-margin days,
#: so one lucky day cannot top a steady record
STEADY = 5
#: that ranking in words, wherever its figure is shown beside a plain average
STEADY_MEANS = (
    f"margins added up and shared over the games played plus {STEADY}, so one lucky day "
    "cannot top a steady record"
)


@dataclass(frozen=True)
class Challenge:
    day: str
    seed: int
    start: str  # the starting square, e.g. ii-2-3
    levels: tuple[int, int]

    @property
    def weekday(self) -> str:
        return WEEKDAYS[date.fromisoformat(self.day).weekday()]


def challenge_for(day: str, secret: bytes) -> Challenge:
    """The challenge of ``day`` (YYYY-MM-DD): a pure function of the date and the secret."""
    digest = hmac.new(secret, day.encode(), hashlib.sha256).digest()
    low, high = WEEK[date.fromisoformat(day).weekday()]
    starts = [sq for sq, level in enumerate(CITY.solo_levels) if level and low <= level <= high]
    square = starts[int.from_bytes(digest[8:12], "big") % len(starts)]
    return Challenge(
        day, int.from_bytes(digest[:8], "big") >> 1, format_square(square), (low, high)
    )


def streak(days_won: set[str], today: str) -> int:
    """Days in a row beaten Euler, up to today (or yesterday, if today is still open)."""
    day = date.fromisoformat(today)
    if today not in days_won:
        day -= timedelta(days=1)
    count = 0
    while day.isoformat() in days_won:
        count += 1
        day -= timedelta(days=1)
    return count


def share_line(entry: Entry, challenge: Challenge, run: int) -> str:
    """What a player posts about their day: the outcome, never a square or a move."""
    outcome = {
        "won": f"beat Euler by {entry.margin}",
        "tied": "tied with Euler",
        "lost": f"lost to Euler by {-entry.margin}",
    }[entry.status]
    streak_text = f", {run}-day streak" if run > 1 else ""
    if entry.total is None:  # called off, its damaged state holding the totals
        outcome, totals = "lost to Euler", ""
    else:
        totals = f" — {entry.total} to {entry.euler}"
    return (
        f"Bridgekeeper daily {entry.day} ({challenge.weekday}): {entry.name} {outcome}"
        f"{totals}{streak_text}."
    )


class Daily:
    def __init__(self, context: Context, games: Games, lobby: Lobby, pages: Pages) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.lobby = lobby
        self.pages = pages

    async def _linked(self, text: str) -> str:
        """A daily post, with the link to the daily challenge's page (its one page)."""
        return await self.pages.under(text, "Daily page", 0, "daily")

    def today(self) -> str:
        return self.store.clock().date().isoformat()

    async def challenge(self, day: str | None = None) -> Challenge:
        return challenge_for(day or self.today(), await self.store.secret("daily"))

    async def play(self, table: Table, caller: Caller, guild_id: int | None) -> Reply:
        """Open today's game for the caller at ``table`` (their DM or a private thread),
        its result shared in ``guild_id``'s daily channel, if any."""
        today = await self.challenge()
        mine = await self.store.entries(user_id=caller.user_id)
        done = next((e for e in mine if e.day == today.day), None)
        if done is not None and done.status == "playing":
            raise Refused("Your game of today's challenge is still going: finish it there.")
        if done is not None:
            raise Refused(
                f"You have played today's challenge ({done.status}). The next one opens "
                f"{when(day_ends(self.store.clock()), 'R')}."
            )
        # the game opened, started and recorded as the attempt in one transaction: a
        # crash leaves the attempt whole, or nothing to hold the player back
        options = {"start": today.start}
        entry = (today.day, guild_id)
        reply = await self.lobby.solo(table, caller, GAME, options, seed=today.seed, entry=entry)
        head = (
            f"**Daily challenge {today.day}** ({today.weekday}, starting level "
            f"{today.levels[0]}–{today.levels[1]}): you against Euler, until "
            f"{when(day_ends(self.store.clock()))}. Good luck!"
        )
        return replace(reply, text=f"{head}\n{reply.text}")

    async def settle(self, post: Post | None = None) -> list[Posted]:
        """Share settled attempts' outcomes in their servers' daily channels, once.

        A move that ends a daily game settles its attempt itself; this also settles, as
        a safety net, attempts whose game ended before moves did that (an older row).
        With ``post`` (the minute's pass), each share line is posted, then marked
        shared, by the one process holding the daily lease: one that dies in between
        leaves it to the next holder. Without, each is marked, then returned."""
        for entry in await self.store.unsettled_entries():
            game = await self.games.load(entry.game_id, damaged=True)
            abandoned = entry.game_status == "abandoned"
            attempt = (
                Attempt("lost", None, None)  # its damaged state held the totals
                if game.state is None
                else solo_attempt(game, game.state, abandoned=abandoned)
            )
            assert attempt is not None  # a daily game is one alone against Euler
            await self.store.finish_entry(entry, attempt)
        if post is not None and not await self._hold():
            return []
        channels = await self.store.daily_channels()
        posted: list[Posted] = []
        for entry in await self.store.entries_to_share():
            if entry.guild_id not in channels:  # nowhere to share it: done with
                await self.store.claim_share(entry)
                continue
            won = {
                e.day for e in await self.store.entries(user_id=entry.user_id) if e.status == "won"
            }
            line = share_line(entry, await self.challenge(entry.day), streak(won, entry.day))
            line = await self._linked(line)
            item = Posted(Table(channels[entry.guild_id], entry.guild_id), Reply(text=line))
            mark = partial(self.store.claim_share, entry)
            if not await post_once(item, mark, post, posted, self._hold):
                break
        return posted

    async def rollover(self, post: Post | None = None) -> list[Posted]:
        """Today's challenge and yesterday's recap, once per day in every daily channel
        (with ``post``, posted then marked by the daily lease's holder, as :meth:`settle`)."""
        if post is not None and not await self._hold():
            return []
        today = await self.challenge()
        yesterday = (date.fromisoformat(today.day) - timedelta(days=1)).isoformat()
        done = [e for e in await self.store.entries(day=yesterday) if e.status != "playing"]
        recap = "Nobody played yesterday's challenge."
        if done:
            best = max(done, key=lambda e: e.margin)
            wins = sum(e.status == "won" for e in done)
            recap = (
                f"Yesterday: {len(done)} played, {wins} beat Euler; best margin "
                f"{best.margin:+d} by {best.name}."
            )
        text = (
            f"**Daily challenge {today.day}** — {today.weekday}, starting level "
            f"{today.levels[0]}–{today.levels[1]}. Play it with `/daily play` until "
            f"{when(day_ends(self.store.clock()))}.\n{recap}"
        )
        text = await self._linked(text)
        made = await self.store.daily_posted(today.day) if post is not None else set()
        posted: list[Posted] = []
        for guild, channel in (await self.store.daily_channels()).items():
            if guild in made:
                continue
            item = Posted(Table(channel, guild), Reply(text=text))
            mark = partial(self.store.claim_daily_post, today.day, guild)
            if not await post_once(item, mark, post, posted, self._hold):
                break
        return posted

    async def let_go(self) -> None:
        await self.store.drop_lease("daily", self.context.holder)

    async def _hold(self) -> bool:
        """The daily lease: one process at a time posts the challenge and its results."""
        until = self.store.clock() + LEASE
        return await self.store.take_lease("daily", self.context.holder, until)

    async def setup(self, table: Table, caller: Caller) -> Reply:
        if table.guild_id is None or not caller.manager:
            raise Refused("A server manager sets the daily channel, in the channel itself.")
        await self.store.set_daily_channel(table.guild_id, table.channel_id)
        return Reply(text="Daily challenges and results will be posted in this channel.")

    async def leaderboard(self) -> Reply:
        today = self.today()
        entries = await self.store.all_entries()
        todays = sorted(
            (e for e in entries if e.day == today and e.status != "playing"),
            key=lambda e: (-e.margin, e.name),
        )
        lines = [f"**Today ({today})** — by margin over Euler"]
        lines += [f"{i}. {e.name} {e.margin:+d}" for i, e in enumerate(todays[:10], 1)]
        if not todays:
            lines.append("No finished games yet today.")
        lines.append(f"**All time** — steady average margin ({STEADY_MEANS}), wins, streak, best")
        for i, row in enumerate(all_time(entries, today)[:10], 1):
            lines.append(
                f"{i}. {row.name} {row.rating:+.1f} ({plural(row.wins, 'win')}, streak "
                f"{row.streak}, best {row.best:+d})"
            )
        return Reply(text=await self._linked("\n".join(lines)))

    async def stats(self, caller: Caller) -> Reply:
        mine = [
            e for e in await self.store.entries(user_id=caller.user_id) if e.status != "playing"
        ]
        if not mine:
            raise Refused("You have not finished a daily challenge yet: `/daily play`.")
        row = all_time(mine, self.today())[0]
        average = sum(e.margin for e in mine) / len(mine)
        return Reply(
            text=(
                f"**{caller.name}**: {plural(len(mine), 'daily game')}, "
                f"{plural(row.wins, 'win')} over Euler, current streak {row.streak}, best "
                f"margin {row.best:+d}. Average margin {average:+.1f} a game; on the all-time "
                f"leaderboard {row.rating:+.1f}, the steady average ({STEADY_MEANS})."
            ),
            private=True,
        )


@dataclass(frozen=True)
class Standing:
    name: str
    rating: float
    wins: int
    streak: int
    best: int


def all_time(entries: Sequence[Entry], today: str) -> list[Standing]:
    by_user: dict[int, list[Entry]] = {}
    for e in entries:
        if e.status != "playing":
            by_user.setdefault(e.user_id, []).append(e)
    rows = []
    for games in by_user.values():
        won = {e.day for e in games if e.status == "won"}
        rows.append(
            Standing(
                name=games[-1].name,
                rating=sum(e.margin for e in games) / (len(games) + STEADY),
                wins=len(won),
                streak=streak(won, today),
                best=max(e.margin for e in games),
            )
        )
    return sorted(rows, key=lambda r: (-r.rating, r.name))
