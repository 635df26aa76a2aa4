"""Slash commands for playing: ``/game …``, ``/move`` and ``/turns``.

Each command turns its Discord input into one service call and shows the reply;
everything the rules or the lobby refuse comes back as a private message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.service import Refused
from bot.views import answer_error, caller_of, refuse, send_reply, table_of

if TYPE_CHECKING:
    from bot.client import Bridgekeeper

GAME_CHOICES = [app_commands.Choice(name=g.info.name, value=key) for key, g in engine.GAMES.items()]
MAX_NOTATION = 100


class Games(commands.Cog):
    """Open, join and play games in a channel or thread."""

    # games need several people in one place: not offered in DMs (solo play will be)
    game = app_commands.Group(
        name="game", description="Open, join and manage this channel's game", guild_only=True
    )

    def __init__(self, bot: Bridgekeeper) -> None:
        self.bot = bot
        self.service = bot.service

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_error(interaction, getattr(error, "original", error), f"/{name}")

    @game.command(name="new", description="Open a game in this channel")
    @app_commands.describe(game="Which game to play")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        reply = await self.service.create(table_of(interaction), caller_of(interaction), game.value)
        await send_reply(interaction, reply)

    @game.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.join(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.leave(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="start", description="Start the game with the players who joined")
    async def start(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.start(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="board", description="See the board (only you see it)")
    async def board(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.service.board(table_of(interaction)))

    @game.command(name="status", description="Players, scores and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.service.status(table_of(interaction)))

    @game.command(name="history", description="Every move so far")
    async def history(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.service.history(table_of(interaction)))

    @game.command(name="legal", description="List your legal moves (only you see them)")
    async def legal(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.legal(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="undo", description="Take back your last move, or agree to a take-back")
    async def undo(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.undo(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.resign(table_of(interaction), caller_of(interaction))
        )

    @game.command(name="abandon", description="Call the game off (its creator or a server manager)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        reply = await self.service.abandon(table_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @game.command(name="rules", description="How to play a game, and how to write its moves")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await refuse(interaction, self.service.rules_text(game.value))

    @app_commands.command(name="move", description="Play a move in this channel's game")
    @app_commands.guild_only()
    @app_commands.describe(notation="Your move, e.g. red tall b2 (pick from the suggestions)")
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        if len(notation) > MAX_NOTATION:
            raise Refused(
                f"That move is {len(notation)} characters long; no move is over {MAX_NOTATION}."
            )
        reply = await self.service.move(table_of(interaction), caller_of(interaction), notation)
        await send_reply(interaction, reply)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only legal moves, those containing what was typed first."""
        try:
            moves = await self.service.legal_moves(table_of(interaction), caller_of(interaction))
        except Refused:
            return []
        typed = " ".join(current.lower().split())
        # legal order, but moves that start with what was typed first
        ranked = [m for m in moves if m.startswith(typed)]
        ranked += [m for m in moves if typed in m and not m.startswith(typed)]
        return [app_commands.Choice(name=m, value=m) for m in ranked[:25]]

    @app_commands.command(name="hand", description="What only you can see in this game")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.hand(table_of(interaction), caller_of(interaction))
        )

    @app_commands.command(name="turns", description="Every game, anywhere, waiting for your move")
    async def turns(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.service.my_turns(caller_of(interaction)))


async def setup(bot: Bridgekeeper) -> None:
    await bot.add_cog(Games(bot))
