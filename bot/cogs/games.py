"""Slash commands for playing: ``/game …``, ``/move`` and ``/turns``.

Each command turns its Discord input into one service call and shows the reply;
everything the rules or the lobby refuse comes back as a private message.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engine
from bot import permissions
from bot.cogs.base import AnsweringCog, in_time, noted, permission_note
from bot.cogs.options import Duration, GameOptions
from bot.delivery import refuse
from bot.host import Host
from bot.inputs import EXTEND_BY, REACTION_WINDOW, REMIND_EVERY, TIME_PER_MOVE, clocks_of
from bot.picker import suggest
from bot.service import NOTIFY, POLICIES, Caller, Refused
from bot.views import caller_of, send_reply, table_of

GAME_CHOICES = [app_commands.Choice(name=g.info.name, value=key) for key, g in engine.GAMES.items()]
SOLO_CHOICES = [c for c in GAME_CHOICES if engine.GAMES[c.value].info.min_players == 1]
MAX_NOTATION = 100


class Games(AnsweringCog):
    """Open, join and play games in a channel or thread."""

    # offered in DMs too, for games played alone there; the service refuses a DM lobby
    # that nobody else could join
    game = app_commands.Group(name="game", description="Open, join and manage this channel's game")

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @game.command(name="new", description="Open a game in this channel")
    @app_commands.describe(
        game="Which game to play",
        time_per_move="e.g. 3d, 12h or 90m (1 minute to 60 days); empty: no deadline",
        at_deadline="What happens when a player runs out of time",
        remind_every="Remind a waiting player this often: 1 hour to 60 days (default 24h)",
        rated="Whether the result changes ratings (default: yes)",
        reaction_window="Time for out-of-turn answers before the bot passes: 5m to 7d (12h)",
        options="The game's options as name=value, e.g. start=ii-2-3 advanced=on",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        at_deadline=[app_commands.Choice(name=t, value=k) for k, t in POLICIES.items()],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        time_per_move: app_commands.Transform[float, Duration(TIME_PER_MOVE)] | None = None,
        at_deadline: app_commands.Choice[str] | None = None,
        remind_every: app_commands.Transform[float, Duration(REMIND_EVERY)] | None = None,
        rated: bool = True,
        reaction_window: app_commands.Transform[float, Duration(REACTION_WINDOW)] | None = None,
        options: app_commands.Transform[dict[str, str], GameOptions] | None = None,
    ) -> None:
        note = permission_note(interaction, permissions.GAME, "host a game")
        policy = at_deadline.value if at_deadline else None
        clocks = clocks_of(time_per_move, policy, remind_every, reaction_window)
        reply = await self.service.create(
            table_of(interaction),
            caller_of(interaction),
            game.value,
            options,
            clocks=clocks,
            rated=rated,
        )
        await send_reply(interaction, noted(reply, note))

    @app_commands.command(name="solo", description="Play alone, right here: Seven Bridges vs Euler")
    @app_commands.describe(
        game="Which game (those with a rulebook opponent)",
        options="The game's options as name=value, e.g. start=ii-2-3 advanced=on",
    )
    @app_commands.choices(game=SOLO_CHOICES)
    async def solo(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        options: app_commands.Transform[dict[str, str], GameOptions] | None = None,
    ) -> None:
        note = permission_note(interaction, permissions.GAME, "host a game")
        reply = await self.service.solo(
            table_of(interaction),
            caller_of(interaction),
            game.value if game else SOLO_CHOICES[0].value,
            options,
        )
        await send_reply(interaction, noted(reply, note))

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

    @game.command(name="board", description="See the board, now or after a past move")
    @app_commands.describe(move="A move number from /game history (0 = the start)")
    async def board(self, interaction: discord.Interaction, move: int | None = None) -> None:
        await send_reply(interaction, await self.service.board(table_of(interaction), move))

    @game.command(name="snooze", description="No more reminders for this turn")
    async def snooze(self, interaction: discord.Interaction) -> None:
        reply = await self.service.snooze(table_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @game.command(name="extend", description="Give the waiting player more time")
    @app_commands.describe(
        by="e.g. 1d or 12h; a turn gets at most 7 days more, or its time per move if longer"
    )
    async def extend(
        self,
        interaction: discord.Interaction,
        by: app_commands.Transform[float, Duration(EXTEND_BY)],
    ) -> None:
        reply = await self.service.extend(table_of(interaction), caller_of(interaction), by)
        await send_reply(interaction, reply)

    @game.command(name="replace", description="Hand a player's seat to someone else")
    @app_commands.describe(player="Who leaves the seat", by="Who takes it over")
    async def replace(
        self, interaction: discord.Interaction, player: discord.User, by: discord.User
    ) -> None:
        new = Caller(user_id=by.id, name=by.display_name)
        reply = await self.service.replace_player(
            table_of(interaction), caller_of(interaction), player.id, new
        )
        await send_reply(interaction, reply)

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

    @game.command(
        name="abandon", description="Call the game off (its creator early on, or a server manager)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        reply = await self.service.abandon(table_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @game.command(name="archive", description="Archive this thread once its game is over")
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
        await send_reply(
            interaction, await self.service.archive(table_of(interaction), caller_of(interaction))
        )
        await thread.edit(archived=True)

    @game.command(name="rules", description="How to play a game, and how to write its moves")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game's rules")
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await refuse(interaction, self.service.rules_text(game.value))

    @app_commands.command(name="move", description="Play a move in this channel's game")
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
        """Only legal moves, those containing what was typed first; none rather than
        late, since Discord drops suggestions that miss its 3 seconds."""
        moves = await in_time(
            self.service.legal_moves(table_of(interaction), caller_of(interaction))
        )
        if moves is None:
            return []
        return [app_commands.Choice(name=m, value=m) for m in suggest(moves, current)[:25]]

    @app_commands.command(name="hand", description="Your own view of this game: hand, or sheet")
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_reply(
            interaction, await self.service.hand(table_of(interaction), caller_of(interaction))
        )

    @app_commands.command(name="vacation", description="Pause your clocks in every game")
    @app_commands.describe(days="How many days from your bank; 0 comes back early")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        await send_reply(interaction, await self.service.vacation(caller_of(interaction), days))

    @app_commands.command(name="settings", description="How you are told it is your turn")
    @app_commands.describe(
        notify="Where turn notices reach you",
        timezone="Your time zone, e.g. Europe/Berlin (for quiet hours)",
        quiet_start="Hour (0-23) your quiet hours begin: DMs wait until they end",
        quiet_end="Hour (0-23) your quiet hours end",
        quiet="off: no quiet hours any more",
    )
    @app_commands.choices(
        notify=[app_commands.Choice(name=t, value=k) for k, t in NOTIFY.items()],
        quiet=[app_commands.Choice(name="off: DMs may come at any hour", value="off")],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        notify: app_commands.Choice[str] | None = None,
        timezone: str | None = None,
        quiet_start: app_commands.Range[int, 0, 23] | None = None,
        quiet_end: app_commands.Range[int, 0, 23] | None = None,
        quiet: app_commands.Choice[str] | None = None,
    ) -> None:
        reply = await self.service.settings(
            caller_of(interaction),
            quiet_off=quiet is not None,
            notify=notify.value if notify else None,
            timezone=timezone,
            quiet_start=quiet_start,
            quiet_end=quiet_end,
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="rating", description="A player's rating in this server")
    @app_commands.describe(player="Whose rating (default: yours)", game="One game (default: all)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        who = Caller(player.id, player.display_name) if player else caller_of(interaction)
        reply = await self.service.rating(interaction.guild_id, who, game.value if game else None)
        await send_reply(interaction, reply)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        await send_reply(
            interaction, await self.service.leaderboard(interaction.guild_id, game.value)
        )

    @app_commands.command(name="turns", description="Every game, anywhere, waiting for your move")
    async def turns(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await self.service.my_turns(caller_of(interaction)))
