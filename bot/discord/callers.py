"""Who asks and where, read from a Discord interaction, and a link back to a table.

Every command and every button starts by turning its interaction into the service's
:class:`~bot.service.Caller` and :class:`~bot.service.Table`; they live here, below
the cogs and the buttons, so both can use them without importing each other.
"""

from __future__ import annotations

import discord

from bot.service import Caller, Table


def jump_link(table: Table) -> str:
    """A link that opens the game's channel or thread in Discord."""
    return f"https://discord.com/channels/{table.guild_id or '@me'}/{table.channel_id}"


def caller_of(interaction: discord.Interaction) -> Caller:
    perms = interaction.permissions
    return Caller(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        manager=bool(interaction.guild_id and perms.manage_guild),
        roles=tuple(role.id for role in getattr(interaction.user, "roles", ())),
    )


def table_of(interaction: discord.Interaction) -> Table:
    """Where the interaction was made; its hints name the server's commands only in a
    server that added the bot, where Discord offers them to everyone."""
    assert interaction.channel_id is not None  # a command or a click comes from a channel
    return Table(
        channel_id=interaction.channel_id,
        guild_id=interaction.guild_id,
        server_commands=interaction.is_guild_integration(),
    )
