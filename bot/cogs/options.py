"""Options: the games to choose from, and what people type, read before a command runs
(discord.py Transformers).

A command then receives hours or a dict, never text to parse. A value that cannot be
read stops the command with the same refusal the terminal gives (``bot.inputs``), which
the cogs' error hook answers privately: discord.py runs the cog's check, which
acknowledges the interaction, before it transforms the options.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engine
import engine.ai
from bot.inputs import Refused, Span, parse_hours, parse_options
from engine.core import BadOptions

#: Discord's limits on autocomplete: choices shown, and characters of a choice's name or value
CHOICES = 25
CHOICE_TEXT = 100


def option_suggestions(game_key: str | None, typed: str) -> list[tuple[str, str]]:
    """(what to show, the text it puts in the box) for ``typed`` options of a game: the
    game's refusal first if what is typed is wrong, then each option not given yet."""
    game = engine.GAMES.get(game_key or "")
    if game is None:
        return []
    typed, partial = typed.strip(), ""
    try:
        given = parse_options(typed)
    except Refused:
        given = {}
        complete, _, partial = typed.rpartition(" ")
        try:
            given = parse_options(complete)
        except Refused as exc:
            return [(f"✗ {exc}", typed)]
        typed = complete
    else:
        try:
            game.new(game.info.min_players, given, 0)
        except BadOptions as exc:
            return [(f"✗ {exc}", typed)]
    prefix = f"{typed} " if typed else ""
    kept = [(typed, typed)] if typed else []  # what is typed so far, as it stands
    return kept + [
        (f"{name}= — {what}", f"{prefix}{name}=")
        for name, what in game.info.options.items()
        if name not in given and name.startswith(partial.partition("=")[0].lower())
    ]


GAME_CHOICES = [app_commands.Choice(name=g.info.name, value=key) for key, g in engine.GAMES.items()]
SOLO_CHOICES = [c for c in GAME_CHOICES if engine.GAMES[c.value].info.min_players == 1]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in engine.ai.LEVELS]


class Duration(app_commands.Transformer):
    """``3d``, ``12h``, ``90m``, ``1w``, ``2 days`` as hours, within the option's ``span``."""

    def __init__(self, span: Span) -> None:
        self.span = span

    async def transform(self, interaction: discord.Interaction, value: str) -> float:
        return parse_hours(value, self.span)


class GameOptions(app_commands.Transformer):
    """``start=ii-2-3 advanced=on`` as a dict; the game itself judges names and values.

    While it is typed, Discord shows the chosen game's options still to give (each with
    what it does), or, once the text names a value the game refuses, why: on a phone
    nobody has to remember a name or find the range in ``/game rules``."""

    async def transform(self, interaction: discord.Interaction, value: str) -> dict[str, str]:
        return parse_options(value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=label[:CHOICE_TEXT], value=text)
            for label, text in option_suggestions(interaction.namespace.game, value)
            if len(text) <= CHOICE_TEXT
        ][:CHOICES]
