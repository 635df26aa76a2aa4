"""``/league …``: organisers run seasons, players sign up, everyone reads the standings."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import permissions
from bot.discord.callers import caller_of, table_of
from bot.discord.cogs.base import AnsweringCog, in_time, noted, permission_note, post_or_retry
from bot.discord.cogs.options import GAME_CHOICES, Duration
from bot.discord.host import Host
from bot.domain.leagues.formats import FORMATS
from bot.service import Reply
from bot.service.inputs import LEAGUE_MOVE_TIME, ROUND_TIME
from bot.service.timers import Posted


@app_commands.guild_only()
class Leagues(
    AnsweringCog,
    commands.GroupCog,
    group_name="league",
    group_description="Seasons of games with standings",
):
    """``/league …``: organisers run seasons, players sign up, everyone reads the standings."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="create", description="Open a league in this channel (managers)")
    @app_commands.describe(
        name="The league's name",
        game="Which game",
        format="round-robin / double-round-robin / swiss (2 players), rotating (3-6)",
        table_size="Players per table, for rotating tables",
        rounds="Rounds, for Swiss and rotating tables (default: enough to meet)",
        points="League points by place, e.g. 6/4/2/0 (default: 2/0, or 2 per player beaten)",
        round_time="Time for each round, e.g. 7d (1 hour to 90 days)",
        move_time="Time per move in league games, e.g. 2d (1 minute to 60 days)",
        starts="Start by itself: e.g. 2026-12-01 18:00 (your /settings time zone), <t:…>, or 3d",
        bye="League points for a round without a game (default: an average place's, a draw)",
    )
    @app_commands.choices(
        game=GAME_CHOICES, format=[app_commands.Choice(name=f, value=f) for f in FORMATS]
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        table_size: app_commands.Range[int, 2, 6] = 2,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        points: str | None = None,
        round_time: app_commands.Transform[float, Duration(ROUND_TIME)] = 7 * 24,
        move_time: app_commands.Transform[float, Duration(LEAGUE_MOVE_TIME)] = 2 * 24,
        starts: str | None = None,
        bye: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        note = permission_note(interaction, permissions.LEAGUE, "run a league")
        reply = await self.service.leagues.create(
            table_of(interaction),
            caller_of(interaction),
            name,
            game.value,
            format.value,
            table_size=table_size,
            rounds=rounds,
            points=points,
            round_hours=round_time,
            move_hours=move_time,
            starts=starts,
            bye=bye,
        )
        await self.bot.answer(interaction, noted(reply, note))

    @app_commands.command(name="role", description="Let a role organise leagues (managers)")
    @app_commands.describe(role="The organiser role; leave empty for server managers only")
    async def role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        reply = await self.service.leagues.set_role(
            interaction.guild_id, caller_of(interaction), role.id if role else None
        )
        await self.bot.answer(interaction, reply)

    async def league_name(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer this server's league names as the user types one."""
        names = await in_time(
            self.service.league_tables.league_names(interaction.guild_id, current)
        )
        return [app_commands.Choice(name=n, value=n) for n in names or []]

    @app_commands.command(name="list", description="This server's leagues (only you see it)")
    async def list_leagues(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, await self.service.league_tables.list_leagues(interaction.guild_id)
        )

    @app_commands.command(name="join", description="Sign up for a league")
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        reply = await self.service.leagues.join(interaction.guild_id, caller_of(interaction), name)
        await self.bot.answer(interaction, reply)

    @app_commands.command(
        name="leave", description="Leave a league (your game in play is resigned)"
    )
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        reply, notices = await self.service.leagues.leave(
            interaction.guild_id, caller_of(interaction), name
        )
        await self.bot.answer(interaction, reply)
        for item in notices:
            await self.bot.post(item.table, item.reply)

    @app_commands.command(name="start", description="Close sign-up and play round 1")
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def start(self, interaction: discord.Interaction, name: str) -> None:
        # a thread and a game per match take a moment; the round itself is announced in
        # the league's channel, wherever the organiser happened to type the command. Each
        # post is marked made once Discord took it: one that fails, the minute's pass makes
        made: list[Posted] = []

        async def post(item: Posted) -> bool:
            made.append(item)
            return await post_or_retry(self.bot, item)

        left = await self.service.league_rounds.start(
            interaction.guild_id, caller_of(interaction), name, post
        )
        for item in left:
            await self.bot.post(item.table, item.reply)
        announced = (made + left)[0].table.channel_id
        await self.bot.answer(
            interaction, Reply(text=f"Round 1 is out: see <#{announced}>.", private=True)
        )

    @app_commands.command(name="standings", description="The table, with its tie-breaks")
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def standings(self, interaction: discord.Interaction, name: str) -> None:
        await self.bot.answer(
            interaction, await self.service.league_tables.standings(interaction.guild_id, name)
        )

    @app_commands.command(name="schedule", description="Who plays whom (only you see it)")
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def schedule(self, interaction: discord.Interaction, name: str) -> None:
        await self.bot.answer(
            interaction, await self.service.league_tables.schedule(interaction.guild_id, name)
        )

    @app_commands.command(name="results", description="Every match so far (only you see it)")
    @app_commands.autocomplete(name=league_name)
    @app_commands.describe(name="The league's name (suggested as you type)")
    async def results(self, interaction: discord.Interaction, name: str) -> None:
        await self.bot.answer(
            interaction, await self.service.league_tables.results(interaction.guild_id, name)
        )
