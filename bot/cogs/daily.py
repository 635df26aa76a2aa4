"""``/daily …``: the Euler challenge, played in the player's DMs."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import permissions
from bot.cogs.base import AnsweringCog, noted, permission_note
from bot.delivery import refuse
from bot.host import Host
from bot.service import Table
from bot.views import caller_of, send_reply, table_of

DMS_CLOSED = (
    "I can't send you a direct message (your privacy settings block DMs from this "
    "server's members), so today's challenge could not be delivered. It is waiting in our "
    "DM all the same: open a DM with me and use `/game board` there to play it."
)


class DailyCog(
    AnsweringCog,
    commands.GroupCog,
    name="Daily",
    group_name="daily",
    group_description="The daily solo challenge against Euler",
):
    """``/daily …``: today's challenge in your DMs, its leaderboard, your record, its channel."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Today's challenge, in your DMs")
    async def play(self, interaction: discord.Interaction) -> None:
        dm = interaction.user.dm_channel or await interaction.user.create_dm()
        table = Table(channel_id=dm.id)
        reply = await self.bot.daily.play(table, caller_of(interaction), interaction.guild_id)
        if interaction.guild_id is None:
            await send_reply(interaction, reply)
            return
        try:
            await self.bot.post(table, reply)
        except discord.Forbidden:  # the player's privacy settings refuse the bot's DMs
            await refuse(interaction, DMS_CLOSED)
            return
        await refuse(interaction, "Today's challenge is waiting in your DMs. Good luck!")

    @app_commands.command(name="leaderboard", description="Today by margin, and all time")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.bot.daily.leaderboard())

    @app_commands.command(name="stats", description="Your daily record (only you see it)")
    async def stats(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.bot.daily.stats(caller_of(interaction)))

    @app_commands.command(name="setup", description="Post challenges and results in this channel")
    @app_commands.guild_only()
    async def setup(self, interaction: discord.Interaction) -> None:
        note = permission_note(interaction, permissions.DAILY, "post the daily challenge")
        reply = await self.bot.daily.setup(table_of(interaction), caller_of(interaction))
        await send_reply(interaction, noted(reply, note))
