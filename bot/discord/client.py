"""The Discord bot object: a ``commands.Bot`` wired to the service."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

import aiohttp
import discord
from discord.ext import commands

from bot.discord import permissions
from bot.discord.callers import jump_link
from bot.discord.cogs import COGS
from bot.discord.delivery import answers_done, channel_of, deliver, post, refuse
from bot.discord.gateway_turns import IdentifyTurns
from bot.discord.messages import parts_of
from bot.discord.tree import Tree
from bot.discord.views import DYNAMIC_ITEMS, controls
from bot.service import Refused, Reply, Service, StatusCard, Table, seen_away, statuses
from bot.service.marks import for_discord
from bot.store import LeagueRow

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel
    from discord.types.gateway import SessionStartLimit

log = logging.getLogger(__name__)
#: seconds a stopping bot gives the answers under way: far beyond a board's drawing and
#: sending, and within the time a host's process manager waits before it kills
CLOSE_WAIT = 20.0


class Bridgekeeper(commands.AutoShardedBot):
    """Needs no privileged intents: everything arrives as interactions."""

    def __init__(self, service: Service, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=Tree,
            # installed with the bot to a server; the commands of a person's own say so too
            allowed_installs=discord.app_commands.AppInstallationType(guild=True, user=False),
            **options,
        )
        self.service = service
        service.league_rounds.open_table = self.open_thread  # a match plays in a thread
        self.turns = IdentifyTurns(service.store, service.context.holder, self._session_limit)

    @property
    def tree(self) -> Tree[Self]:
        """The commands, as the :class:`Tree` this bot is made with (``tree_cls``)."""
        tree = super().tree
        assert isinstance(tree, Tree)
        return tree

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Each shard connects in its turn among every process sharing the database
        (:mod:`bot.discord.gateway_turns`), not only this one's (discord.py's own hook)."""
        await self.turns.take(shard_id or 0)

    async def _session_limit(self) -> SessionStartLimit | None:
        """What Discord allows of gateway starts now (``GET /gateway/bot``), or None if
        it cannot be asked (the turn then counts one start at a time)."""
        try:
            _shards, _url, limit = await self.http.get_bot_gateway()
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.warning("could not ask Discord how many gateway starts it allows: %s", exc)
            return None
        return limit

    async def setup_hook(self) -> None:
        await self.install()
        synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def install(self) -> None:
        """Everything start-up does before it talks to Discord: the cogs (the play-by-post
        loop waits for the connection) and the persistent buttons. The load bench times
        exactly this."""
        for cog in COGS:
            await self.add_cog(cog(self))
        # buttons posted before a restart keep working: they are matched by custom id
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    async def close(self) -> None:
        """Stop: the answers under way first (a move already stored still gets its board
        and its ping), then the cogs and the connection to Discord."""
        await answers_done(self, CLOSE_WAIT)
        await super().close()

    async def channel_of(self, channel_id: int) -> PartialMessageableChannel:
        """Somewhere to send to: the cached channel, or a partial one (no fetch needed)."""
        return channel_of(self, channel_id)

    async def post(self, table: Table, reply: Reply) -> None:
        """A service reply posted in a channel or thread, outside any interaction."""
        parts = parts_of(reply, controls(reply, await self.page_of(reply)), self.tree.mention)
        await post(await self.channel_of(table.channel_id), parts)
        await self.refresh_statuses(reply.changed, statuses(reply))

    async def answer(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Answer an interaction with a service reply: files, pings and buttons included;
        then bring the pinned status of every game it changed up to date."""
        buttons = controls(reply, await self.page_of(reply))
        await deliver(interaction, parts_of(reply, buttons, self.tree.mention))
        for note in await self.refresh_statuses(reply.changed, statuses(reply)):
            await refuse(interaction, note)

    async def page_of(self, reply: Reply) -> str | None:
        """The address of the game a public board shows, for its **Game page** link:
        None for any other reply, or when players cannot follow the link (``Pages.link``)."""
        if reply.private or reply.image is None or not reply.game_id:
            return None
        return await self.service.pages.link(reply.game_id)

    async def answer_away(
        self, interaction: discord.Interaction, table: Table, reply: Reply
    ) -> None:
        """Answer a move made far from its game's channel (``table``): the public post
        goes there, pinging whoever is next, and the mover sees it privately where they
        are, with the game's Play button while it waits for them. A channel that cannot
        be posted in (a DM closed since) costs the post, not the mover's answer."""
        try:
            await self.post(table, reply)
            note = f"Posted in {jump_link(table)}."
        except discord.HTTPException as exc:
            log.warning(
                "game %s: could not post in channel %d: %s", reply.game_id, table.channel_id, exc
            )
            note = f"I could not post this in the game's channel ({jump_link(table)})."
        await self.answer(interaction, seen_away(reply, interaction.user.id, note))

    async def open_thread(self, league: LeagueRow, match_id: int, title: str) -> Table:
        """A league match's own thread in the league's channel."""
        channel = self.get_channel(league.channel_id) or await self.fetch_channel(league.channel_id)
        assert isinstance(channel, discord.TextChannel)  # where /league create was asked
        try:
            thread = await channel.create_thread(
                name=title, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.Forbidden:
            needs = [permissions.CREATE_THREADS, permissions.SEND_IN_THREADS]
            raise Refused(
                f"I can't open the match threads in <#{league.channel_id}>: I lack "
                f"{permissions.describe(needs)} there. {permissions.HOW} The round's "
                "matches open by themselves within a minute once I can."
            ) from None
        return Table(channel_id=thread.id, guild_id=league.guild_id)

    async def refresh_statuses(
        self, game_ids: Sequence[int], known: Mapping[int, StatusCard] | None = None
    ) -> list[str]:
        """Refresh each game's pinned status (as ``known`` has it, where it has it); one
        that cannot be refreshed (a channel gone, a permission lost) is logged and holds
        up neither the others nor the answer. Returns what the asker should know: a
        status that could not be pinned."""
        notes = []
        for game_id in game_ids:
            try:
                note = await self.refresh_status(game_id, (known or {}).get(game_id))
            except discord.HTTPException as exc:
                log.warning("could not refresh the status of game %d: %s", game_id, exc)
                continue
            if note:
                notes.append(note)
        return notes

    async def refresh_status(self, game_id: int, card: StatusCard | None = None) -> str | None:
        """Edit the game's pinned status message, posting and pinning it the first time.

        The board posts tell the story move by move; this one message always says where
        the game stands, so nobody has to scroll. Anything that changes that (a move, an
        extension, a vacation, a replaced player, an abandoned game) calls this. ``card``
        is the status as a move left it, so it is not read again; the first one is read
        afresh, as a move may have raced the post of the game's first status.
        """
        if card is None or card.message_id is None:  # the first: it may be being posted
            card = await self.service.looking.status_card(game_id)
        text, message_id = for_discord(card.text, self.tree.mention), card.message_id
        channel = await self.channel_of(card.channel_id)
        none = discord.AllowedMentions.none()
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(
                    content=text, allowed_mentions=none
                )
                return None
            except discord.NotFound:
                log.info("status message of game %d was deleted; posting a new one", game_id)
        try:
            message = await channel.send(text, allowed_mentions=none)
        except discord.HTTPException as exc:  # the channel is gone (a vacation touches many)
            log.warning("could not post the status of game %d: %s", game_id, exc)
            return None
        await self.service.looking.status_posted(game_id, message.id)
        try:
            await message.pin(reason="Bridgekeeper game status")
        except discord.Forbidden:
            return (
                f"The game's status is posted, but I can't pin it: I lack "
                f"{permissions.describe([permissions.PIN])} here. {permissions.HOW}"
            )
        except discord.HTTPException as exc:  # the channel's pin limit
            log.info("could not pin the status of game %d: %s", game_id, exc)
        return None

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self.application_id is not None:
            invite = discord.utils.oauth_url(
                self.application_id,
                permissions=permissions.invite_permissions(),
                scopes=("bot", "applications.commands"),
            )
            log.info("invite the bot with %s", invite)
