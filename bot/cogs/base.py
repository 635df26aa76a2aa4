"""What every cog of ours shares: acknowledge first, answer every failure."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery import acknowledge
from bot.views import answer_error


class AnsweringCog(commands.Cog):
    """Each command is deferred before it touches the database or draws, so Discord's
    3 seconds never run out on a slow board; each failure gets a private answer."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await acknowledge(interaction)
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_error(interaction, getattr(error, "original", error), f"/{name}")
