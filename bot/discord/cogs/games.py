"""``/game …``: open, join, manage and look at the game of a channel or thread.

Each command turns its Discord input into one service call and shows the reply;
everything the rules or the lobby refuse comes back as a private message.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord import permissions
from bot.discord.callers import caller_of, table_of
from bot.discord.cogs.base import AnsweringCog, at_the_table, noted, permission_note
from bot.discord.cogs.game_options import game_options
from bot.discord.cogs.options import GAME_CHOICES, LEVEL_CHOICES, Duration
from bot.discord.delivery import refuse
from bot.discord.host import Host
from bot.service import POLICIES, Caller, Refused
from bot.service.inputs import EXTEND_BY, REACTION_WINDOW, REMIND_EVERY, TIME_PER_MOVE, clocks_of
from bot.service.seats import DEFAULT_LEVEL


@at_the_table
class Games(
    AnsweringCog,
    commands.GroupCog,
    group_name="game",
    group_description="Open, join and manage this channel's game",
):
    """``/game …``: open, join and manage a game in a channel or thread.

    Offered in a DM with the bot too, for games played alone there (the service refuses a
    DM lobby that nobody else could join), but never installed to a person's account.
    """

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="new", description="Open a game in this channel")
    @app_commands.describe(
        game="Which game to play (its own options follow, each named for its game)",
        time_per_move="e.g. 3d, 12h or 90m (1 minute to 60 days); empty: no deadline",
        at_deadline="What happens when a player runs out of time",
        remind_every="Remind a waiting player this often: 1 hour to 60 days (default 24h)",
        rated="Whether the result changes ratings (default: yes)",
        reaction_window="Time for out-of-turn answers before the bot passes: 5m to 7d (12h)",
        ai="How many AI players take a seat beside you (0 to 5; the game is then unrated)",
        ai_level="How well the AI players play (default: normal)",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        at_deadline=[app_commands.Choice(name=t, value=k) for k, t in POLICIES.items()],
        ai_level=LEVEL_CHOICES,
    )
    @game_options(engine.GAMES.values())
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        options: dict[str, Any] | None = None,  # each its own slash option: game_options
        time_per_move: app_commands.Transform[float, Duration(TIME_PER_MOVE)] | None = None,
        at_deadline: app_commands.Choice[str] | None = None,
        remind_every: app_commands.Transform[float, Duration(REMIND_EVERY)] | None = None,
        rated: bool = True,
        reaction_window: app_commands.Transform[float, Duration(REACTION_WINDOW)] | None = None,
        ai: app_commands.Range[int, 0, 5] = 0,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        note = permission_note(interaction, permissions.GAME, "host a game")
        policy = at_deadline.value if at_deadline else None
        clocks = clocks_of(time_per_move, policy, remind_every, reaction_window)
        reply = await self.service.lobby.create(
            table_of(interaction),
            caller_of(interaction),
            game.value,
            options,
            clocks=clocks,
            rated=rated,
            ai=ai,
            ai_level=ai_level.value if ai_level else DEFAULT_LEVEL,
        )
        await self.bot.answer(interaction, noted(reply, note))

    @app_commands.command(name="add-ai", description="Seat an AI player in this channel's lobby")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_ai(
        self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None
    ) -> None:
        reply = await self.service.seats.add_ai(
            table_of(interaction), caller_of(interaction), level.value if level else DEFAULT_LEVEL
        )
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction,
            await self.service.lobby.join(table_of(interaction), caller_of(interaction)),
        )

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction,
            await self.service.lobby.leave(table_of(interaction), caller_of(interaction)),
        )

    @app_commands.command(name="start", description="Start the game with the players who joined")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction,
            await self.service.lobby.start(table_of(interaction), caller_of(interaction)),
        )

    @app_commands.command(name="board", description="See the board, now or after a past move")
    @app_commands.describe(
        move="A move number from /game history (0 = the start)",
        text="Also the whole board in words, e.g. for a screen reader",
    )
    async def board(
        self, interaction: discord.Interaction, move: int | None = None, text: bool = False
    ) -> None:
        reply = await self.service.looking.board(table_of(interaction), move, words=text)
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="snooze", description="No more reminders for this turn")
    async def snooze(self, interaction: discord.Interaction) -> None:
        reply = await self.service.postal.snooze(table_of(interaction), caller_of(interaction))
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="extend", description="Give the waiting player more time")
    @app_commands.describe(
        by="e.g. 1d or 12h; a turn gets at most 7 days more, or its time per move if longer"
    )
    async def extend(
        self,
        interaction: discord.Interaction,
        by: app_commands.Transform[float, Duration(EXTEND_BY)],
    ) -> None:
        reply = await self.service.postal.extend(table_of(interaction), caller_of(interaction), by)
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="replace", description="Hand a player's seat to someone else")
    @app_commands.describe(
        player="Who leaves the seat",
        by="Who takes it over (a person)",
        ai="Or an AI player takes it over, at this level",
    )
    @app_commands.choices(ai=LEVEL_CHOICES)
    async def replace(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        by: discord.User | None = None,
        ai: app_commands.Choice[str] | None = None,
    ) -> None:
        table, caller = table_of(interaction), caller_of(interaction)
        if (by is None) == (ai is None):
            raise Refused("Say who takes the seat over: a person (`by`) or an AI player (`ai`).")
        if ai is not None:
            reply = await self.service.seats.hand_to_ai(table, caller, player.id, ai.value)
        else:
            assert by is not None  # one of the two, as checked above
            new = Caller(user_id=by.id, name=by.display_name)
            reply = await self.service.postal.replace_player(table, caller, player.id, new)
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="status", description="Players, scores and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, await self.service.looking.status(table_of(interaction)))

    @app_commands.command(name="link", description="The address of this game's page on the web")
    async def link(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, await self.service.pages.address(table_of(interaction)))

    @app_commands.command(name="history", description="Every move so far")
    async def history(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.service.looking.history(table_of(interaction))
        )

    @app_commands.command(name="legal", description="List your legal moves (only you see them)")
    async def legal(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction,
            await self.service.play.legal(table_of(interaction), caller_of(interaction)),
        )

    @app_commands.command(
        name="undo", description="Take back your last move, or agree to a take-back"
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.service.undo.ask(table_of(interaction), caller_of(interaction))
        )

    @app_commands.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction,
            await self.service.play.resign(table_of(interaction), caller_of(interaction)),
        )

    @app_commands.command(
        name="abandon", description="Call the game off (its creator early on, or a server manager)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        reply = await self.service.lobby.abandon(table_of(interaction), caller_of(interaction))
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="archive", description="Archive this thread once its game is over")
    async def archive(self, interaction: discord.Interaction) -> None:
        thread = interaction.channel
        if not isinstance(thread, discord.Thread):
            raise Refused("Only a thread can be archived; the game's records are kept either way.")
        mine = self.bot.user is not None and thread.owner_id == self.bot.user.id
        if not mine and not interaction.app_permissions.manage_threads:
            raise Refused(
                "I can't archive this thread: I lack "
                f"{permissions.describe([permissions.MANAGE_THREADS])}. {permissions.HOW}"
            )
        await self.bot.answer(
            interaction,
            await self.service.postal.archive(table_of(interaction), caller_of(interaction)),
        )
        await thread.edit(archived=True)

    @app_commands.command(
        name="rules", description="How to play a game, and how to write its moves"
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game's rules")
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await refuse(interaction, self.service.lobby.rules_text(game.value))
