"""The play-by-post loop: every minute, run what is due and deliver queued notices.

All timers live in the database, so starting this loop after a restart re-arms them
all; the timers and the store make sure nothing due fires twice. Each post and each
notice is tried on its own: one deleted channel or closed DM never holds up the rest.
A notice is claimed in the database before it is sent (two processes never both send
it); one Discord refuses is tried again a few times, a DM then becomes a mention.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import discord
from discord.ext import commands, tasks

from bot.discord.callers import jump_link
from bot.discord.cogs.base import post_or_retry
from bot.discord.delivery import post
from bot.discord.host import Host
from bot.discord.messages import parts_of
from bot.discord.views import SnoozeButton
from bot.service import Reply, Table
from bot.service.marks import link
from bot.service.minute import MinutePass
from bot.store import Notice

log = logging.getLogger(__name__)
#: seconds after an AI's pause its pass runs, so the clock has surely reached it
PAST_DUE = 0.05


class Postal(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.timers = bot.service.timers
        service = bot.service
        self.minute = MinutePass(service.timers, service.league_rounds, service.daily)
        self._passing = asyncio.Lock()  # one pass at a time: the minute's, an AI's
        self._soon: set[asyncio.Task[None]] = set()  # passes due before the next minute
        bot.service.context.on_ai_waiting = self.pass_in

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        """On the way down: no more passes, and the leases this process holds let go, so
        another process (or this bot, restarted) need not wait for them to run out."""
        self.loop.cancel()
        for task in self._soon:
            task.cancel()
        async with self._passing:
            await self.minute.let_go()

    @tasks.loop(seconds=60)
    async def loop(self) -> None:
        await self._pass()

    def pass_in(self, seconds: float) -> None:
        """Run a pass ``seconds`` from now: an AI seat's pause ends then, and it should not
        wait for the next minute to move. Its wait is in the database all the same, so a
        restart in between only makes it wait for that minute."""
        task = asyncio.get_running_loop().create_task(self._pass_after(seconds))
        self._soon.add(task)
        task.add_done_callback(self._soon.discard)

    async def _pass_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds + PAST_DUE)
        await self._pass()

    async def _pass(self) -> None:
        try:
            await self.run_once()
        except Exception:  # the loop must outlive any one bad tick
            log.exception("play-by-post tick failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> None:
        """One pass (:class:`bot.service.minute.MinutePass`): its posts to their channels, its
        notices as mentions or DMs. One at a time in a process: the leases it takes are
        this process's, and would not keep a second pass of its own off the same work."""
        async with self._passing:
            await self.minute.run(partial(post_or_retry, self.bot), self._send)

    async def _send(self, notice: Notice) -> None:
        """Deliver one notice; one that fails, for whatever reason, is put back to be tried
        again a few times (:meth:`bot.service.timers.Timers.undelivered`), so it never holds
        up the notices after it nor comes back for ever."""
        try:
            await self._deliver(notice)
        except Exception as exc:
            outcome = await self.timers.undelivered(notice)
            if isinstance(exc, discord.HTTPException):  # closed DMs, deleted channels
                log.warning(
                    "notice %d to user %d not delivered (%s next): %s",
                    notice.id, notice.user_id, outcome, exc,
                )  # fmt: skip
            else:
                log.exception("notice %d could not be delivered (%s next)", notice.id, outcome)
            return
        await self.timers.sent(notice)

    async def _deliver(self, notice: Notice) -> None:
        """A DM names its game and links to its channel and to its page, where players
        can follow that (a digest, of several games, has both on each line); a mention
        goes to the game's channel, the page's link under it. A ``board`` notice is a
        timer's move whose process died before posting it: its board, rebuilt, in the
        channel."""
        if notice.kind == "board":
            item = await self.timers.board(notice)
            await self.bot.post(item.table, item.reply)
            return
        mention = self.bot.tree.mention
        snooze: tuple[discord.ui.Item, ...] = ()
        if notice.kind == "reminder" and notice.turn_since is not None:
            assert notice.game_id is not None  # a reminder is of a game's turn
            snooze = (SnoozeButton.of(notice.game_id, notice.turn_since),)
        page = None if notice.game_id is None else await self.bot.service.pages.link(notice.game_id)
        if notice.via == "dm":
            user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
            text, where = notice.text, []
            if notice.channel_id is not None:
                where.append(jump_link(Table(notice.channel_id, notice.guild_id)))
            if page is not None:
                where.append(link("Game page", page))
            if where:
                text += "\n" + " · ".join(where)
            await post(user, parts_of(Reply(text), snooze, mention))
            return
        assert notice.channel_id is not None  # not a DM: a mention in its game's channel
        channel = await self.bot.channel_of(notice.channel_id)
        text = f"<@{notice.user_id}> {notice.text}"
        if page is not None:
            text += "\n" + link("Game page", page)
        addressed = Reply(text, mentions=(notice.user_id,))
        await post(channel, parts_of(addressed, snooze, mention))
