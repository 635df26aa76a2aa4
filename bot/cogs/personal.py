"""``/vacation`` and ``/settings``: what each player decides for themselves."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.callers import caller_of
from bot.cogs.base import AnsweringCog, personal
from bot.host import Host
from bot.service import NOTIFY


class Personal(AnsweringCog):
    """Your clocks' holidays and how you are told it is your turn."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.service

    @personal
    @app_commands.command(name="vacation", description="Pause your clocks in every game")
    @app_commands.describe(days="How many days from your bank; 0 comes back early")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        await self.bot.answer(
            interaction, await self.service.vacation(caller_of(interaction), days)
        )

    @personal
    @app_commands.command(name="settings", description="How you are told it is your turn")
    @app_commands.describe(
        notify="Where turn notices reach you",
        timezone="Your time zone, e.g. Europe/Berlin (for quiet hours and league start times)",
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
        await self.bot.answer(interaction, reply)
