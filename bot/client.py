"""The Discord bot object: a ``commands.Bot`` wired to the service."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.cogs.games import Games
from bot.cogs.postal import Postal
from bot.service import Service
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)


class Bridgekeeper(commands.Bot):
    """Needs no privileged intents: everything arrives as interactions."""

    def __init__(self, service: Service, **options) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.service = service

    async def setup_hook(self) -> None:
        await self.add_cog(Games(self))
        await self.add_cog(Postal(self))
        # buttons posted before a restart keep working: they are matched by custom id
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
