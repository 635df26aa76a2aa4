"""Options: the games to choose from, and what people type, read before a command runs
(discord.py Transformers); each game's own options are ``bot.discord.cogs.game_options``.

A command then receives hours, never text to parse. A value that cannot be read stops the
command with the same refusal the terminal gives (``bot.service.inputs``), which the cogs' error
hook answers privately: discord.py runs the cog's check, which acknowledges the
interaction, before it transforms the options.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engine
import engine.ai
from bot.service.inputs import Span, parse_hours

#: Discord's limits on autocomplete: choices shown, and characters of a choice's name or value
CHOICES = 25
CHOICE_TEXT = 100

GAME_CHOICES = [app_commands.Choice(name=g.info.name, value=key) for key, g in engine.GAMES.items()]
SOLO_CHOICES = [c for c in GAME_CHOICES if engine.GAMES[c.value].info.min_players == 1]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in engine.ai.LEVELS]


class Duration(app_commands.Transformer):
    """``3d``, ``12h``, ``90m``, ``1w``, ``2 days`` as hours, within the option's ``span``."""

    def __init__(self, span: Span) -> None:
        self.span = span

    async def transform(self, interaction: discord.Interaction, value: str) -> float:
        return parse_hours(value, self.span)
