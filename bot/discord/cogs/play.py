"""Top-level commands for playing: ``/move``, ``/solo``, ``/hand`` and ``/turns``.

Each command turns its Discord input into one service call and shows the reply;
everything the rules or the lobby refuse comes back as a private message.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import engine
from bot.discord import permissions
from bot.discord.callers import caller_of, table_of
from bot.discord.cogs.base import (
    AnsweringCog,
    at_the_table,
    bot_posts_here,
    in_dm,
    in_time,
    noted,
    permission_note,
    personal,
)
from bot.discord.cogs.game_options import game_options
from bot.discord.cogs.options import SOLO_CHOICES
from bot.discord.host import Host
from bot.service import Refused
from bot.service.picker import suggest

MAX_NOTATION = 100


class Play(AnsweringCog):
    """Move, play alone, see your own hand, and find the games waiting for you."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @personal
    @app_commands.command(name="solo", description="Play alone, right here: Seven Bridges vs Euler")
    @app_commands.describe(game="Which game (those with a rulebook opponent)")
    @app_commands.choices(game=SOLO_CHOICES)
    @game_options(engine.GAMES[c.value] for c in SOLO_CHOICES)
    async def solo(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        options: dict[str, Any] | None = None,  # each its own slash option: game_options
    ) -> None:
        key = game.value if game else SOLO_CHOICES[0].value
        if not bot_posts_here(interaction):  # a user's install, away from the bot: their DM
            await in_dm(
                interaction,
                self.bot,
                lambda table: self.service.lobby.solo(table, caller_of(interaction), key, options),
                "Here is the game you asked me for, to play in our DM:",
                "Your game is waiting in our DM: play it there, or from anywhere with the "
                "**Play** button `/turns` gives you.",
            )
            return
        note = permission_note(interaction, permissions.GAME, "host a game")
        reply = await self.service.lobby.solo(
            table_of(interaction), caller_of(interaction), key, options
        )
        await self.bot.answer(interaction, noted(reply, note))

    @at_the_table
    @app_commands.command(name="move", description="Play a move in this channel's game")
    @app_commands.describe(notation="Your move, e.g. red tall b2 (pick from the suggestions)")
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        if len(notation) > MAX_NOTATION:
            raise Refused(
                f"That move is {len(notation)} characters long; no move is over {MAX_NOTATION}."
            )
        reply = await self.service.play.move(
            table_of(interaction), caller_of(interaction), notation
        )
        await self.bot.answer(interaction, reply)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only legal moves, those containing what was typed first; none rather than
        late, since Discord drops suggestions that miss its 3 seconds."""
        moves = await in_time(
            self.service.play.legal_moves(table_of(interaction), caller_of(interaction))
        )
        if moves is None:
            return []
        return [app_commands.Choice(name=m, value=m) for m in suggest(moves, current)[:25]]

    @personal
    @app_commands.command(name="hand", description="Your own view of this game: hand, or sheet")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.service.play.hand(table_of(interaction), caller_of(interaction))
        )

    @personal
    @app_commands.command(name="turns", description="Every game, anywhere, waiting for your move")
    async def turns(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.service.looking.my_turns(caller_of(interaction))
        )
