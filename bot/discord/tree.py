"""The bot's command tree, which keeps what Discord answered when the commands were synced.

A message that tells its reader to run a command is most useful when the command can be
clicked: Discord writes ``</game board:ID>`` as the command's name, and a click fills it
in. That needs the id Discord gave the command, which only the sync's answer says; until
the commands are synced (or when Discord gave no id) a command stays plain text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.abc import Snowflake

#: the bot the tree belongs to
BotT = TypeVar("BotT", bound=discord.Client, covariant=True)


class Tree(app_commands.CommandTree[BotT]):
    """A ``CommandTree`` that remembers each synced command's mention, by its full name."""

    def __init__(self, client: BotT, **options: Any) -> None:
        super().__init__(client, **options)
        self.mentions: dict[str, str] = {}

    async def sync(self, *, guild: Snowflake | None = None) -> list[app_commands.AppCommand]:
        synced = await super().sync(guild=guild)
        if guild is None:  # the global commands: the only ones this bot has
            self.mentions = dict(_leaves(synced))
        return synced

    def mention(self, name: str) -> str | None:
        """The clickable mention of the command called ``name`` (``game board``), or None
        for a name Discord gave no id, or a group (only a command that runs is clicked)."""
        return self.mentions.get(name)


def _leaves(synced: list[app_commands.AppCommand]) -> Iterator[tuple[str, str]]:
    """Each command that runs, as (full name, mention): the top-level commands without
    sub-commands, and every sub-command, at any depth."""
    stack: list = list(synced)
    while stack:
        command = stack.pop()
        groups = [o for o in command.options if isinstance(o, app_commands.AppCommandGroup)]
        if groups:
            stack.extend(groups)
        elif isinstance(command, app_commands.AppCommandGroup):
            yield command.qualified_name, command.mention
        else:
            yield command.name, command.mention
