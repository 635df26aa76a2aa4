"""The play-by-post loop: every minute, run what is due and deliver queued notices.

All timers live in the database, so starting this loop after a restart re-arms them
all; the scheduler and the store make sure nothing due fires twice.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.scheduler import Scheduler
from bot.service import Table
from bot.store import Notice
from bot.views import jump_link

if TYPE_CHECKING:
    from bot.client import Bridgekeeper

log = logging.getLogger(__name__)


class Postal(commands.Cog):
    def __init__(self, bot: Bridgekeeper) -> None:
        self.bot = bot
        self.scheduler = Scheduler(bot.service)

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=60)
    async def loop(self) -> None:
        try:
            await self.run_once()
        except Exception:  # the loop must outlive any one bad tick
            log.exception("play-by-post tick failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> None:
        """One tick: deadline moves, league rounds and daily news posted, notices sent.

        Each source and each post stands alone: one that fails is logged and the rest of
        the minute's work still goes out, rather than all of it waiting on the worst.
        """
        sources = (
            self.scheduler.tick,
            self.bot.organiser.tick,
            self.bot.daily.settle,
            self.bot.daily.rollover,
        )
        due = []
        for source in sources:
            try:
                due += await source()
            except Exception:
                log.exception("%s failed this tick", source.__qualname__)
        for item in due:
            try:
                await self.bot.post(item.table, item.reply)
            except Exception:
                log.exception("a post to channel %d failed", item.table.channel_id)
        for notice in await self.scheduler.deliveries():
            try:
                await self._deliver(notice)
            except discord.HTTPException as exc:  # closed DMs, deleted channels
                log.warning(
                    "notice %d to user %d not delivered: %s", notice.id, notice.user_id, exc
                )
            await self.bot.service.store.mark_sent(notice.id)

    async def _deliver(self, notice: Notice) -> None:
        link = jump_link(Table(notice.channel_id, notice.guild_id))
        if notice.via == "dm":
            user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
            await user.send(f"{notice.text}\n{link}")
            return
        channel = await self.bot.channel_of(notice.channel_id)
        await channel.send(
            f"<@{notice.user_id}> {notice.text}",
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.user_id)]
            ),
        )
