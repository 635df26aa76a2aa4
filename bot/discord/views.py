"""The buttons under the bot's public posts and reminders, and every button it answers.

Like the picker's (``bot.discord.picking``), each is a :class:`discord.ui.DynamicItem` matched
by its custom id, so a button posted before a restart keeps working: a board's Play
button, a finished game's Rematch, a reminder's Snooze. :func:`controls` says which
go under a service reply; the bot (``bot.discord.client``) puts them there.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Self

import discord

from bot.discord.callers import caller_of, table_of
from bot.discord.delivery import acknowledge, answer_error, refuse
from bot.discord.host import host_of
from bot.discord.picking import PageButton, PickButton, PickSelect, PlayButton
from bot.service import Reply
from bot.store import iso, parse_time


def controls(reply: Reply, page: str | None = None) -> tuple[discord.ui.Item, ...]:
    """The Play button under a public board the game waits on, Rematch under one it
    ended on, then a **Game page** link to ``page`` (the game's page, where people can
    follow it); under a private answer, a Play button for each game it offers."""
    if reply.private:
        return tuple(PlayButton(o.game_id, o.version, o.label) for o in reply.offers)
    link = () if page is None else (PageLink(page),)
    if reply.game_id is None or not (reply.playable or reply.rematch):
        return link
    if reply.playable:
        assert reply.version is not None  # a playable game's reply names its version
        return (PlayButton(reply.game_id, reply.version), *link)
    return (RematchButton(reply.game_id), *link)


class PageLink(discord.ui.Button):
    """A link to a game's page: Discord opens it in the reader's browser, asking the bot
    nothing (it has no custom id, so nothing is matched after a restart)."""

    def __init__(self, url: str) -> None:
        super().__init__(label="Game page", style=discord.ButtonStyle.link, url=url)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class SnoozeButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"bk:snooze:(?P<game>\d+):(?P<turn>\d+)"
):
    """On a reminder, in the channel or a DM: no more reminders for that turn.

    The id names the game and the turn (when the wait began, in microseconds), so it
    works from anywhere, after a restart too, and not for a later turn.
    """

    def __init__(self, game_id: int, turn: int) -> None:
        button: discord.ui.Button = discord.ui.Button(
            label="Snooze",
            emoji="\N{SLEEPING SYMBOL}",
            style=discord.ButtonStyle.secondary,
            custom_id=f"bk:snooze:{game_id}:{turn}",
        )
        super().__init__(button)
        self.game_id = game_id
        self.turn = turn

    @classmethod
    def of(cls, game_id: int, turn_since: str) -> SnoozeButton:
        return cls(game_id, (parse_time(turn_since) - _EPOCH) // _MICROSECOND)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        try:  # a garbled id's turn may lie past the year 9999: the service refuses it
            turn_since = iso(_EPOCH + self.turn * _MICROSECOND)
        except OverflowError:
            turn_since = str(self.turn)
        try:
            await acknowledge(interaction)
            reply = await bot.service.postal.snooze_turn(
                self.game_id, caller_of(interaction), turn_since
            )
            await bot.answer(interaction, reply)
        except Exception as exc:  # answered and logged in one place
            await answer_error(interaction, exc, "button SnoozeButton")


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bk:again:(?P<game>\d+)"):
    """Under a finished game's board: play it again, the same players, once all agree."""

    def __init__(self, game_id: int) -> None:
        button: discord.ui.Button = discord.ui.Button(
            label="Rematch",
            emoji="\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}",
            style=discord.ButtonStyle.success,
            custom_id=f"bk:again:{game_id}",
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        try:
            await acknowledge(interaction, new_message=True)
            reply = await bot.service.rematch.agree(
                table_of(interaction), caller_of(interaction), self.game_id
            )
            await bot.answer(interaction, reply)
        except Exception as exc:  # answered and logged in one place
            await answer_error(interaction, exc, "button RematchButton")


_KNOWN = "|".join(  # the templates above, their named groups made plain
    "(?:" + re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) + ")"
    for item in (PlayButton, PickButton, PageButton, PickSelect, SnoozeButton, RematchButton)
)


class UnknownButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"(?!(?:{_KNOWN})$).*"):
    """Any other button (a garbled id, a retired kind): answered, never left to time out."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id="bk:unknown"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse(
            interaction, "That button is no longer in use. Use the buttons under the newest board."
        )


DYNAMIC_ITEMS = (
    PlayButton,
    PickButton,
    PageButton,
    PickSelect,
    SnoozeButton,
    RematchButton,
    UnknownButton,
)
