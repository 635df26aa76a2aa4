"""``/vacation`` and ``/settings``: what each player decides for themselves. Options with
a fixed set of values are choices; ``reminders`` (a cadence, or a word) is suggested and
judged while it is typed, as the terminal would judge it."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.callers import caller_of
from bot.discord.cogs.base import AnsweringCog, personal
from bot.discord.cogs.options import CHOICE_TEXT, CHOICES
from bot.discord.host import Host
from bot.service import NOTIFY, Refused
from bot.service.inputs import LONGEST_VALUE, REMINDER_WORDS, format_hours, parse_reminders

#: what the reminders box offers before anything is typed: the words, then cadences
SUGGESTED = (*REMINDER_WORDS, "12h", "24h", "3d")


def _meaning(choice: float | str) -> str:
    return REMINDER_WORDS[choice] if isinstance(choice, str) else f"every {format_hours(choice)}"


def reminder_suggestions(typed: str) -> list[tuple[str, str]]:
    """(what to show, what it puts in the box) for ``reminders`` as typed: the choice it
    makes, then the words and cadences it may still become; what can become none of
    them, with why it is refused."""
    offered = [(f"{c} — {_meaning(parse_reminders(c))}", c) for c in SUGGESTED]
    clean = typed.strip()
    more = [o for o in offered if o[1].startswith(clean.lower()) and o[1] != clean]
    if not clean:
        return offered
    try:
        return [(f"{clean} — {_meaning(parse_reminders(clean))}", clean), *more]
    except Refused as exc:
        return more or [(f"✗ {exc}", clean)]


async def reminder_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=label[:CHOICE_TEXT], value=value)
        for label, value in reminder_suggestions(current)
        if len(value) <= CHOICE_TEXT
    ][:CHOICES]


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
            interaction, await self.service.postal.vacation(caller_of(interaction), days)
        )

    @personal
    @app_commands.command(name="settings", description="How you are told it is your turn")
    @app_commands.describe(
        notify="Where turn notices reach you",
        timezone="Your time zone, e.g. Europe/Berlin (for quiet hours and league start times)",
        quiet_start="Hour (0-23) your quiet hours begin: DMs wait until they end",
        quiet_end="Hour (0-23) your quiet hours end",
        quiet="off: no quiet hours any more",
        reminders="How often you are reminded: 12h, 24h, 3d…, digest (one DM a day) or game",
        digest_hour="Hour (0-23) of your time zone your daily digest comes at (with digest)",
        heads_up="A short notice when the player before you begins their turn",
    )
    @app_commands.choices(
        notify=[app_commands.Choice(name=t, value=k) for k, t in NOTIFY.items()],
        quiet=[app_commands.Choice(name="off: DMs may come at any hour", value="off")],
        heads_up=[
            app_commands.Choice(name="on: tell me when I am next", value="on"),
            app_commands.Choice(name="off", value="off"),
        ],
    )
    @app_commands.autocomplete(reminders=reminder_choices)
    async def settings(
        self,
        interaction: discord.Interaction,
        notify: app_commands.Choice[str] | None = None,
        timezone: str | None = None,
        quiet_start: app_commands.Range[int, 0, 23] | None = None,
        quiet_end: app_commands.Range[int, 0, 23] | None = None,
        quiet: app_commands.Choice[str] | None = None,
        reminders: app_commands.Range[str, 1, LONGEST_VALUE] | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
        heads_up: app_commands.Choice[str] | None = None,
    ) -> None:
        reply = await self.service.postal.settings(
            caller_of(interaction),
            quiet_off=quiet is not None,
            notify=notify.value if notify else None,
            timezone=timezone,
            quiet_start=quiet_start,
            quiet_end=quiet_end,
            reminders=reminders,
            digest_hour=digest_hour,
            heads_up=heads_up.value == "on" if heads_up else None,
        )
        await self.bot.answer(interaction, reply)
