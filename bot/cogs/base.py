"""What every cog of ours shares: acknowledge first, answer every failure."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery import acknowledge, answer_error
from bot.permissions import Need, check
from bot.service import Refused, Reply

log = logging.getLogger(__name__)
T = TypeVar("T")
AUTOCOMPLETE_SECONDS = 2.0  # of the 3 Discord waits for suggestions


async def in_time(asking: Awaitable[T]) -> T | None:
    """What ``asking`` returns, or None when it is refused or would miss Discord's deadline
    for suggestions (an autocomplete cannot be deferred: late is the same as never)."""
    try:
        return await asyncio.wait_for(asking, AUTOCOMPLETE_SECONDS)
    except (Refused, TimeoutError):
        return None
    except Exception:  # a bug: logged, and the typing user still gets an (empty) answer
        log.exception("suggestions failed")
        return None


class AnsweringCog(commands.Cog):
    """Each command is deferred before it touches the database or draws, so Discord's
    3 seconds never run out on a slow board; each failure gets a private answer."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await acknowledge(interaction)
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
            cause: BaseException = error.__cause__  # an option our Transformer could not read
        else:
            cause = getattr(error, "original", error)
        await answer_error(interaction, cause, f"/{name}")


def permission_note(
    interaction: discord.Interaction,
    needs: tuple[Sequence[Need], Sequence[Need]],
    what: str,
) -> str | None:
    """Refuse to set something up in a channel where the bot could not keep it going;
    return a warning for what would work only in part."""
    if interaction.guild_id is None:  # a DM: the bot may always write there
        return None
    refusal, warning = check(
        interaction.app_permissions,
        needs,
        what,
        thread=isinstance(interaction.channel, discord.Thread),
    )
    if refusal:
        raise Refused(refusal)
    return warning


def noted(reply: Reply, note: str | None) -> Reply:
    """``reply`` with ``note`` after it, for the asker only."""
    if note is None:
        return reply
    return replace(reply, followup=Reply(note, private=True, followup=reply.followup))
