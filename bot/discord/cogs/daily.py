"""``/daily …``: the Euler challenge, played in the player's DMs."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import permissions
from bot.discord.callers import caller_of, table_of
from bot.discord.cogs.base import AnsweringCog, in_dm, noted, permission_note, personal
from bot.discord.host import Host
from bot.service import Refused


@personal
class DailyCog(
    AnsweringCog,
    commands.GroupCog,
    name="Daily",
    group_name="daily",
    group_description="The daily solo challenge against Euler",
):
    """``/daily …``: today's challenge in your DMs, its leaderboard, your record, its channel.

    A person may install the bot to their account and play it from anywhere; Discord sets
    where a command runs for the whole group, so ``/daily setup`` checks for itself."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Today's challenge, in your DMs")
    async def play(self, interaction: discord.Interaction) -> None:
        # a server's daily channel counts the result only where the server added the bot
        guild_id = interaction.guild_id if interaction.is_guild_integration() else None
        await in_dm(
            interaction,
            self.bot,
            lambda table: self.bot.service.daily.play(table, caller_of(interaction), guild_id),
            "Here is today's challenge, which you asked me for:",
            "Today's challenge is waiting in your DMs. Good luck!",
        )

    @app_commands.command(name="leaderboard", description="Today by margin, and all time")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, await self.bot.service.daily.leaderboard())

    @app_commands.command(name="stats", description="Your daily record (only you see it)")
    async def stats(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.bot.service.daily.stats(caller_of(interaction))
        )

    @app_commands.command(name="setup", description="Post challenges and results in this channel")
    async def setup(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is not None and not interaction.is_guild_integration():
            raise Refused(
                "I'm not a member of this server, only installed to your account, so I can't "
                "post here: a server manager adds me to the server first (the invite link is "
                "in my profile), then runs `/daily setup` in the channel."
            )
        note = permission_note(interaction, permissions.DAILY, "post the daily challenge")
        reply = await self.bot.service.daily.setup(table_of(interaction), caller_of(interaction))
        await self.bot.answer(interaction, noted(reply, note))
