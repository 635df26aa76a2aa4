"""What the cogs and buttons need from the bot that runs them, as a type.

The client adds the cogs, so a cog that named the client class would import the module
that imports it. Typed against :class:`Host` instead, the cogs and views depend only on
the service layer, and any bot offering these (a test double, a sharded client) runs them.
The same goes for answering: the buttons a reply gets answer replies of their own, so
they reach the code that adds the buttons through the bot (``answer``), not an import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import discord

from bot.discord.tree import Tree
from bot.service import Reply, Service, StatusCard, Table

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel


@runtime_checkable
class Host(Protocol):
    service: Service

    @property
    def tree(self) -> Tree:
        """The commands, and the mentions Discord's sync gave them."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    async def post(self, table: Table, reply: Reply) -> None:
        """A service reply posted in a channel or thread, outside any interaction."""

    async def answer(self, interaction: discord.Interaction, reply: Reply) -> None:
        """A service reply as the answer to ``interaction``, its buttons under its board."""

    async def answer_away(
        self, interaction: discord.Interaction, table: Table, reply: Reply
    ) -> None:
        """A reply to a move made far from its game: posted at ``table``, shown privately."""

    async def refresh_statuses(
        self, game_ids: Sequence[int], known: Mapping[int, StatusCard] | None = None
    ) -> list[str]:
        """Bring these games' pinned status up to date (as ``known`` has it, where it
        has it); what the asker should know."""

    async def channel_of(self, channel_id: int) -> PartialMessageableChannel:
        """Somewhere to send to."""

    def get_user(self, user_id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def wait_until_ready(self) -> None: ...


def host_of(interaction: discord.Interaction) -> Host:
    """The bot a button's click reached: discord.py types it as any ``Client``; the
    buttons are only ever added by a :class:`Host`."""
    client = interaction.client
    assert isinstance(client, Host)
    return client
