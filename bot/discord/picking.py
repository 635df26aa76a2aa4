"""The move picker in Discord: the Play button under a board, and the private choices it opens.

Every button is a :class:`discord.ui.DynamicItem`: its custom id carries the game id,
the game's version and a picker path (the index chosen at each step, see
``bot.service.picker``), nothing else. That is all a click needs to be understood after a
restart, a stale click (the game moved on) is recognised from the version, and no
move's content ever sits in an id. A move the picker completes is answered through the
bot (``Host.answer``), which puts the buttons under the new board.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Self

import discord

from bot.discord.callers import caller_of, table_of
from bot.discord.delivery import acknowledge, answer_error, edit_original
from bot.discord.host import Host, host_of
from bot.service import NOT_OFFERED, Picked, Refused
from bot.service.picker import StalePath, Step, page, walk

BUTTONS_UP_TO = 10  # a step with more choices is a select menu: a phone shows it as a list
SELECT_PAGE = 25  # Discord's limit of options in one select menu


class _GameButton:
    """Shared by the buttons and selects whose id starts ``bk:<kind>:<game>:<version>``.

    A mixin, because discord.py wants a ``template`` on every DynamicItem subclass.
    """

    game_id: int
    version: int

    def _remember(self, game_id: int, version: int) -> None:
        self.game_id = game_id
        self.version = version

    async def pick(
        self, interaction: discord.Interaction, bot: Host, path: tuple[int, ...], *, play: bool
    ) -> Picked:
        """This button's game loaded once for the click: the clicker's legal moves and the
        step ``path`` leads to, and with ``play`` the move it completes, played; refused
        if this button's position is gone."""
        return await bot.service.play.pick(
            self.game_id,
            self.version,
            caller_of(interaction),
            path,
            server_commands=table_of(interaction).server_commands,
            play=play,
        )

    #: whether a click opens a new (private) message rather than changing its own
    opens_message = False

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        try:
            await acknowledge(interaction, new_message=self.opens_message)
            await self.clicked(interaction, bot)
        except Exception as exc:  # answered and logged in one place
            await answer_error(interaction, exc, f"button {type(self).__name__}")

    async def clicked(self, interaction: discord.Interaction, bot: Host) -> None:
        raise NotImplementedError

    async def advance(
        self, interaction: discord.Interaction, bot: Host, path: tuple[int, ...]
    ) -> None:
        """Show the choices after ``path``, or play the move it completes."""
        picked = await self.pick(interaction, bot, path, play=True)
        if picked.reply is None:
            content, choices = picker_message(self.game_id, self.version, picked.moves, path, 0)
            await edit_original(interaction, content, choices)
            return
        await edit_original(interaction, f"You played `{picked.step.move}`.")
        if picked.table.channel_id == interaction.channel_id:
            await bot.answer(interaction, picked.reply)
        else:  # played from afar: the board goes to the game's channel, a copy to the mover
            await bot.answer_away(interaction, picked.table, picked.reply)


_GAME = r":(?P<game>\d+):(?P<version>\d+)"
_PATH = r":(?P<path>\d+(?:\.\d+)*)?"


def _path_id(path: Sequence[int]) -> str:
    return ".".join(map(str, path))


def _path_of(match: re.Match[str]) -> tuple[int, ...]:
    return tuple(int(i) for i in match["path"].split(".")) if match["path"] else ()


class PlayButton(
    _GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"bk:play" + _GAME
):
    """Under each public board, and under a private answer offering games to play
    (``/turns``, ``/hand``): opens the clicker's private move picker."""

    opens_message = True

    def __init__(self, game_id: int, version: int, label: str = "Play") -> None:
        button: discord.ui.Button = discord.ui.Button(
            label=label[:80],
            emoji="\N{BLACK RIGHT-POINTING TRIANGLE}",
            style=discord.ButtonStyle.primary,
            custom_id=f"bk:play:{game_id}:{version}",
        )
        super().__init__(button)
        self._remember(game_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def clicked(self, interaction: discord.Interaction, bot: Host) -> None:
        picked = await self.pick(interaction, bot, (), play=False)
        content, choices = picker_message(self.game_id, self.version, picked.moves, (), 0)
        await edit_original(interaction, content, choices)


class PickButton(
    _GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"bk:pick" + _GAME + _PATH
):
    """A choice in the picker: shows the next choices, or plays the move it completes."""

    def __init__(
        self,
        game_id: int,
        version: int,
        path: Sequence[int] = (),
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        button: discord.ui.Button = discord.ui.Button(
            label=label[:80], style=style, custom_id=f"bk:pick:{game_id}:{version}:{_path_id(path)}"
        )
        super().__init__(button)
        self._remember(game_id, version)
        self.path = tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), _path_of(match))

    async def clicked(self, interaction: discord.Interaction, bot: Host) -> None:
        await self.advance(interaction, bot, self.path)


class PickSelect(
    _GameButton,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bk:sel" + _GAME + _PATH + r":(?P<page>\d+)",
):
    """A step with many choices (squares, positions) as a select menu; the chosen option's
    value is its index at this step, so the id and values carry no move content."""

    def __init__(
        self,
        game_id: int,
        version: int,
        path: Sequence[int] = (),
        number: int = 0,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Choose…",
    ) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"bk:sel:{game_id}:{version}:{_path_id(path)}:{number}",
            placeholder=placeholder,
            options=list(options) or [discord.SelectOption(label="…", value="0")],
        )
        super().__init__(select)
        self._remember(game_id, version)
        self.path = tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), _path_of(match), int(match["page"]))

    async def clicked(self, interaction: discord.Interaction, bot: Host) -> None:
        values = self.item.values
        if len(values) != 1 or not values[0].isdigit():
            raise Refused(NOT_OFFERED)
        await self.advance(interaction, bot, (*self.path, int(values[0])))


class PageButton(
    _GameButton,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bk:page" + _GAME + _PATH + r":(?P<page>\d+)",
):
    """Turns the picker's page when a step has more choices than fit on one."""

    def __init__(
        self,
        game_id: int,
        version: int,
        path: Sequence[int] = (),
        number: int = 0,
        label: str = "…",
    ) -> None:
        button: discord.ui.Button = discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.primary,
            custom_id=f"bk:page:{game_id}:{version}:{_path_id(path)}:{number}",
        )
        super().__init__(button)
        self._remember(game_id, version)
        self.path = tuple(path)
        self.number = number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), _path_of(match), int(match["page"]))

    async def clicked(self, interaction: discord.Interaction, bot: Host) -> None:
        picked = await self.pick(interaction, bot, self.path, play=False)
        content, choices = picker_message(
            self.game_id, self.version, picked.moves, self.path, self.number
        )
        await edit_original(interaction, content, choices)


def _walk(moves: Sequence[str], path: Sequence[int]) -> Step:
    try:
        return walk(moves, path)
    except StalePath:
        raise Refused(NOT_OFFERED) from None


def _label(moves: Sequence[str], step: Step, path: tuple[int, ...], i: int) -> tuple[str, bool]:
    """A choice's label, and whether choosing it plays a move: such a choice says all it
    will play, forced steps included."""
    after = walk(moves, (*path, i))
    if after.move is None:
        return step.options[i], False
    rest = after.move.split(" ")[len(step.prefix) :]
    return " ".join(rest) or f"just {' '.join(step.prefix)}", True


def picker_message(
    game_id: int, version: int, moves: Sequence[str], path: tuple[int, ...], number: int
) -> tuple[str, tuple[discord.ui.Item, ...]]:
    """The private picker message for one step: its text, and its choices, paging and a
    way back (laid out in rows as a classic message does: a select fills its row)."""
    step = _walk(moves, path)
    if step.move is not None:  # a single legal move: nothing to choose, one tap plays it
        only = PickButton(game_id, version, path, step.move, discord.ButtonStyle.success)
        return "Your only move:", (only,)
    listed = len(step.options) > BUTTONS_UP_TO  # many (squares, positions): a list to scroll
    size = SELECT_PAGE if listed else BUTTONS_UP_TO
    shown, before, after = page(step.options, number, size)
    if not shown:
        raise Refused(NOT_OFFERED)
    labels = [_label(moves, step, path, i) for i in shown]
    if listed:
        options = [
            discord.SelectOption(
                label=label[:100], value=str(i), description="plays this move" if plays else None
            )
            for i, (label, plays) in zip(shown, labels, strict=True)
        ]
        choices: list[discord.ui.Item] = [PickSelect(game_id, version, path, number, options)]
    else:  # a few: one tap each
        choices = []
        for i, (label, plays) in zip(shown, labels, strict=True):
            style = discord.ButtonStyle.success if plays else discord.ButtonStyle.secondary
            choices.append(PickButton(game_id, version, (*path, i), label, style))
    if path:
        choices.append(
            PickButton(game_id, version, path[:-1], "↩ Back", discord.ButtonStyle.danger)
        )
    if before:
        choices.append(PageButton(game_id, version, path, number - 1, "◀ Previous"))
    if after:
        choices.append(PageButton(game_id, version, path, number + 1, "Next ▶"))
    chosen = f"**{' '.join(step.prefix)}** — " if step.prefix else "Your move — "
    pages = f" (page {number + 1} of {-(-len(step.options) // size)})" if before or after else ""
    return f"{chosen}choose:{pages}", tuple(choices)
