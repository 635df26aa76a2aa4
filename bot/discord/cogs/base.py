"""What every cog of ours shares: acknowledge first, answer every failure."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.delivery import acknowledge, answer_error, refuse
from bot.discord.host import Host
from bot.discord.permissions import Need, check
from bot.service import Refused, Reply, Table
from bot.service.timers import Posted

log = logging.getLogger(__name__)
T = TypeVar("T")
AUTOCOMPLETE_SECONDS = 2.0  # of the 3 Discord waits for suggestions
#: Discord's answer to a DM the person's privacy settings keep out
CANNOT_MESSAGE = 50007


def dms_closed(interaction: discord.Interaction) -> str:
    """Why nothing was opened for a person whose settings keep the bot's DMs out, and
    exactly what lets it in, naming only what works where they asked."""
    command = f"`/{interaction.command.qualified_name}`" if interaction.command else "it"
    text = (
        "I can't send you a direct message: your privacy settings keep my DMs out, so I "
        "opened nothing. This game is played in our DM, so let me in first: in Discord's "
        "User Settings ▸ Content & Social, allow direct messages from server members"
    )
    if interaction.is_guild_integration():
        text += " (or only here: this server's name ▸ Privacy Settings ▸ Direct Messages)"
    text += f", then run {command} again."
    if interaction.guild_id is not None and not interaction.is_guild_integration():
        text += (
            " Or ask a server manager to add me to this server (the invite link is in my "
            "profile): then `/solo` plays right here."
        )
    return text


def personal(command: T) -> T:
    """A command of a person's own, offered wherever they are: installed to their account
    as well as to servers, and run in servers, in their DM with the bot and in group DMs.
    Where the bot itself cannot post (a server that has not added it, a group DM) only the
    answer to the command shows: a game it opens goes to the person's DM (:func:`in_dm`)."""
    installed = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(installed)


def at_the_table(command: T) -> T:
    """A command about the game of a channel, installed with the bot to a server: run in
    the server's channels and in a DM with the bot, where solo and daily games are played;
    never where the bot cannot post, as its game's boards and timers could not follow."""
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(command)


def bot_posts_here(interaction: discord.Interaction) -> bool:
    """Whether the bot can post in the interaction's channel by itself: its own DM with the
    user, or a server that added it. Elsewhere (a user's install, run in another server
    or a group DM) Discord lets it answer the command and nothing more."""
    return interaction.context.dm_channel or interaction.is_guild_integration()


async def in_dm(
    interaction: discord.Interaction,
    bot: Host,
    start: Callable[[Table], Awaitable[Reply]],
    opening: str,
    ready: str,
) -> None:
    """Open a game in the caller's DM with the bot, where its boards, buttons and reminders
    can reach them: answered in place when run there. Run elsewhere, ``opening`` is sent
    to the DM before anything is opened: a person whose settings keep the bot's DMs out
    is told what lets it in, and nothing is opened (a game they could not reach would
    only keep them from the next). Otherwise the game starts, its board is posted under
    ``opening`` and the caller is told ``ready`` privately; if the game is refused,
    ``opening`` is deleted, so nothing they did not get stays behind."""
    dm = interaction.user.dm_channel or await interaction.user.create_dm()
    table = Table(channel_id=dm.id, server_commands=False)
    if interaction.context.dm_channel:
        await bot.answer(interaction, await start(table))
        return
    try:
        note = await dm.send(opening)
    except discord.Forbidden as exc:
        if exc.code != CANNOT_MESSAGE:
            raise
        raise Refused(dms_closed(interaction)) from None
    try:
        reply = await start(table)
    except BaseException:
        with contextlib.suppress(discord.HTTPException):
            await note.delete()
        raise
    try:
        await bot.post(table, reply)
    except discord.HTTPException as exc:  # the DM closed a moment after the first message
        log.warning("game %s: its board could not be posted in the DM: %s", reply.game_id, exc)
        ready = (
            "Your game is open, but its board could not be posted in our DM just now: "
            "`/turns` has its **Play** button."
        )
    await refuse(interaction, ready)


async def post_or_retry(bot: Host, item: Posted) -> bool:
    """Post one reply; whether that is done with: posted, or never to be (a deleted
    channel, a lost permission). Discord's servers failing, or a bug, leaves it to be
    tried again (a timer's move by its stand-in, a league's or the daily's post by the
    next minute's pass)."""
    channel = item.table.channel_id
    try:
        await bot.post(item.table, item.reply)
    except (discord.NotFound, discord.Forbidden) as exc:
        log.warning("post to channel %d given up: %s", channel, exc)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
        log.warning("post to channel %d failed, to be tried again: %s", channel, exc)
        return False
    except Exception:  # a bug: logged, and the minute's other posts still go out
        log.exception("a post to channel %d failed", channel)
        return False
    return True


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
