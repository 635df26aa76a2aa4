"""``/rating`` and ``/leaderboard``: ratings per server and game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.callers import caller_of
from bot.discord.cogs.base import AnsweringCog
from bot.discord.cogs.options import GAME_CHOICES
from bot.discord.host import Host
from bot.service import Caller


class Ratings(AnsweringCog):
    """Ratings and the best players of a server."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="rating", description="A player's rating in this server")
    @app_commands.describe(player="Whose rating (default: yours)", game="One game (default: all)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        who = Caller(player.id, player.display_name) if player else caller_of(interaction)
        reply = await self.service.ratings.rating(
            interaction.guild_id, who, game.value if game else None
        )
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        await self.bot.answer(
            interaction, await self.service.ratings.leaderboard(interaction.guild_id, game.value)
        )
