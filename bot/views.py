"""Buttons for playing by post, and the one place a service reply becomes a Discord message.

Every button is a :class:`discord.ui.DynamicItem`: its custom id carries the game id,
the game's version and an index into that position's legal moves, nothing else. That
is all a click needs to be understood after a restart, a stale click (the game moved
on) is recognised from the version, and no move's content ever sits in an id.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.service import Caller, Refused, Reply, Table

if TYPE_CHECKING:
    from bot.client import Bridgekeeper

MAX_BUTTONS = 25  # five rows of five
log = logging.getLogger(__name__)


def caller_of(interaction: discord.Interaction) -> Caller:
    perms = interaction.permissions
    return Caller(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        manager=bool(interaction.guild_id and perms.manage_guild),
    )


def table_of(interaction: discord.Interaction) -> Table:
    return Table(channel_id=interaction.channel_id, guild_id=interaction.guild_id)


def split_move(notation: str) -> tuple[str, str]:
    """A move's group (what to play) and target (where): ``red tall`` / ``b2``."""
    group, _, target = notation.rpartition(" ")
    return (group or notation), target or notation


def groups_of(moves: Sequence[str]) -> list[str]:
    """The distinct groups of a list of legal moves, in their first-seen order."""
    return list(dict.fromkeys(split_move(m)[0] for m in moves))


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Answer an interaction with a service reply: files, pings and play button included."""
    kwargs: dict = {}
    content = reply.text
    if reply.mentions:
        content += "\n" + " ".join(f"<@{u}>" for u in reply.mentions)
    kwargs["allowed_mentions"] = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in reply.mentions]
    )
    if reply.image is not None:
        kwargs["file"] = discord.File(io.BytesIO(reply.image), filename="board.png")
    if reply.playable and reply.game_id is not None and not reply.private:
        view = discord.ui.View(timeout=None)
        view.add_item(PlayButton(reply.game_id, reply.version))
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=reply.private, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=reply.private, **kwargs)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """A private, specific refusal: the asker alone sees it."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def answer_error(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Every command and button ends here on failure, so the user always gets an answer.

    A refusal is the user's to read; anything else is our bug: logged in full, and the
    user gets a private apology rather than Discord's "interaction failed".
    """
    if isinstance(error, Refused):
        await refuse(interaction, str(error))
        return
    log.error("%s failed", what, exc_info=error)
    try:
        await refuse(interaction, "Something went wrong on my side, sorry; it has been logged.")
    except discord.HTTPException:
        log.warning("could not tell the user that %s failed", what)


def _choice_view(items: Sequence[discord.ui.Item]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items[:MAX_BUTTONS]:
        view.add_item(item)
    return view


def _more_note(count: int) -> str:
    if count <= MAX_BUTTONS:
        return ""
    return f"\n(Showing {MAX_BUTTONS} of {count}; type `/move` for the rest.)"


class _GameButton:
    """Shared by the buttons whose id is ``bk:<kind>:<game>:<version>[:<index>]``.

    A mixin, because discord.py wants a ``template`` on every DynamicItem subclass.
    """

    game_id: int
    version: int
    index: int

    def _remember(self, game_id: int, version: int, index: int) -> None:
        self.game_id = game_id
        self.version = version
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ):
        return cls(int(match["game"]), int(match["version"]), int(match["index"] or 0))

    async def legal(self, interaction: discord.Interaction, bot: Bridgekeeper) -> list[str]:
        """The clicker's legal moves, refused if this button's position is gone."""
        expect = (self.game_id, self.version)
        return await bot.service.legal_moves(table_of(interaction), caller_of(interaction), expect)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bridgekeeper = interaction.client  # type: ignore[assignment]
        try:
            await self.clicked(interaction, bot)
        except Exception as exc:  # answered and logged in one place
            await answer_error(interaction, exc, f"button {type(self).__name__}")

    async def clicked(self, interaction: discord.Interaction, bot: Bridgekeeper) -> None:
        raise NotImplementedError


_ID = r":(?P<game>\d+):(?P<version>\d+)(?::(?P<index>\d+))?"


def _button(
    kind: str, style: discord.ButtonStyle, label: str, game_id: int, version: int, index: int
) -> discord.ui.Button:
    """A picker button whose id ``bk:<kind>:<game>:<version>:<index>`` matches ``_ID``."""
    return discord.ui.Button(
        label=label[:80], style=style, custom_id=f"bk:{kind}:{game_id}:{version}:{index}"
    )


class PlayButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"bk:play" + _ID):
    """Under each public board: opens the clicker's private move picker."""

    def __init__(self, game_id: int, version: int, index: int = 0) -> None:
        button = discord.ui.Button(
            label="Play",
            emoji="\N{BLACK RIGHT-POINTING TRIANGLE}",
            style=discord.ButtonStyle.primary,
            custom_id=f"bk:play:{game_id}:{version}",
        )
        super().__init__(button)
        self._remember(game_id, version, index)

    async def clicked(self, interaction: discord.Interaction, bot: Bridgekeeper) -> None:
        moves = await self.legal(interaction, bot)
        groups = groups_of(moves)
        buttons = [GroupButton(self.game_id, self.version, i, g) for i, g in enumerate(groups)]
        await interaction.response.send_message(
            "Choose what to play:" + _more_note(len(groups)),
            view=_choice_view(buttons),
            ephemeral=True,
        )


class GroupButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"bk:grp" + _ID):
    """One kind of move (``red tall``); shows where it may go."""

    def __init__(self, game_id: int, version: int, index: int = 0, label: str = "…") -> None:
        super().__init__(
            _button("grp", discord.ButtonStyle.secondary, label, game_id, version, index)
        )
        self._remember(game_id, version, index)

    async def clicked(self, interaction: discord.Interaction, bot: Bridgekeeper) -> None:
        moves = await self.legal(interaction, bot)
        groups = groups_of(moves)
        if self.index >= len(groups):
            raise Refused("That choice is no longer offered; press Play again.")
        group = groups[self.index]
        buttons = [
            MoveButton(self.game_id, self.version, i, split_move(m)[1])
            for i, m in enumerate(moves)
            if split_move(m)[0] == group
        ]
        await interaction.response.edit_message(
            content=f"**{group}** — choose where:" + _more_note(len(buttons)),
            view=_choice_view(buttons),
        )


class MoveButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"bk:mv" + _ID):
    """One legal move, by its index in the position's legal moves; plays it."""

    def __init__(self, game_id: int, version: int, index: int = 0, label: str = "…") -> None:
        super().__init__(_button("mv", discord.ButtonStyle.success, label, game_id, version, index))
        self._remember(game_id, version, index)

    async def clicked(self, interaction: discord.Interaction, bot: Bridgekeeper) -> None:
        moves = await self.legal(interaction, bot)
        if self.index >= len(moves):
            raise Refused("That move is no longer offered; press Play again.")
        reply = await bot.service.move(
            table_of(interaction),
            caller_of(interaction),
            moves[self.index],
            (self.game_id, self.version),
        )
        await interaction.response.edit_message(
            content=f"You played `{moves[self.index]}`.", view=None
        )
        await send_reply(interaction, reply)


DYNAMIC_ITEMS = (PlayButton, GroupButton, MoveButton)
