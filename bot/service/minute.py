"""The minute's pass: everything timed that is due, in one order, whoever runs it.

The bot's loop (``bot/discord/cogs/postal.py``), the start-up timing and the timers bench run
this same pass, so what the bench measures is what the bot does. Each source and each
post stands alone: one that fails is logged and the rest of the minute's work still
goes out; each source's posts go out before the next source runs, so a failing source
cannot strand what another already committed. No Discord here: the caller says how a
post and a notice are delivered.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.service.daily import Daily
from bot.service.leagues import LeagueRounds
from bot.service.timers import Post, Posted, Timers
from bot.store import Notice

log = logging.getLogger(__name__)


class MinutePass:
    def __init__(self, timers: Timers, rounds: LeagueRounds, daily: Daily) -> None:
        self.timers = timers
        self.rounds = rounds
        self.daily = daily

    async def let_go(self) -> None:
        """Give up the leases held (the daily posts', stalled leagues'): the process stops."""
        await self.daily.let_go()
        await self.rounds.let_go()

    async def run(self, post: Post, send: Callable[[Notice], Awaitable[None]]) -> int:
        """Timers (deadline and AI moves, reminders), league rounds, the daily settling
        and rollover, then the notices due; returns how many posts and notices went out.

        The timers' moves are posted one by one as they are stored (``post`` goes to the
        timers, with a stand-in for each post in case this process dies first), and so
        are the leagues' rounds and the daily posts (each marked made once posted, so one
        this process dies before posting is posted by the next pass); the other posts
        once each source is done."""
        posted = 0

        async def post_one(item: Posted) -> bool:
            nonlocal posted
            done = await post(item)
            posted += done
            return done

        sources: tuple[tuple[str, Callable[[], Awaitable[list[Posted]]]], ...] = (
            ("timers", lambda: self.timers.tick(post_one)),
            ("leagues", lambda: self.rounds.tick(post_one)),
            ("daily settling", lambda: self.daily.settle(post_one)),
            ("daily rollover", lambda: self.daily.rollover(post_one)),
        )
        for name, source in sources:
            try:
                items = await source()
            except Exception:
                log.exception("play-by-post: %s failed", name)
                continue
            for item in items:
                await post_one(item)
        notices = await self.timers.deliveries()
        return posted + await self.send_claimed(notices, send)

    async def send_claimed(
        self, notices: list[Notice], send: Callable[[Notice], Awaitable[None]]
    ) -> int:
        """Send each claimed notice whose claim is still this process's, checked (and
        extended) just before it goes: if the process stalled past its claims, another
        has taken them over and sends them, so this one leaves them. How many went."""
        sent = 0
        for notice in notices:
            if await self.timers.still_ours(notice):
                await send(notice)
                sent += 1
            else:
                log.warning("notice %d was taken over by another process: not sent", notice.id)
        return sent
