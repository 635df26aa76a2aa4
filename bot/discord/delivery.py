"""The one place a service reply becomes Discord messages and is sent.

Discord gives an interaction 3 seconds to be acknowledged and 15 minutes of follow-ups
after that; it refuses a message over 2,000 characters or a file over the upload limit.
A move commits before its board is drawn, so an answer that breaks any of these would
leave a stored move that nobody was told about. Hence, for every interaction:

* :func:`acknowledge` defers it before any work (the asker sees "thinking…");
* :func:`~bot.discord.messages.parts_of` cuts a reply into messages that fit, between
  lines, code blocks closed and reopened at the cut; a public board becomes one card
  (``bot.discord.cards``): its text, the picture and its buttons in one frame;
* :func:`deliver` sends them; when the interaction can no longer be answered (expired,
  a dead token) the public parts go to the game's channel as ordinary messages, so the
  board and the ping still arrive, and the failure is logged once;
* :func:`answers_done` lets a bot that stops finish every answer it has begun: a click
  that stored a move still posts its board before the connection to Discord closes.

Mentions live only in messages that are created, never in edits: Discord notifies
nobody about a mention added by an edit, and the first follow-up after a deferral is
such an edit. A public answer therefore resolves the "thinking" placeholder privately
first and is posted as a follow-up of its own.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.discord.messages import Part, parts_of
from bot.discord.permissions import EVERY, HOW, describe
from bot.service import Refused, Reply
from bot.service.marks import Mention
from bot.store import CannotSave

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

log = logging.getLogger(__name__)
#: the channels a reply can be posted in (:func:`channel_of`)
_MESSAGEABLE = (
    discord.TextChannel,
    discord.VoiceChannel,
    discord.StageChannel,
    discord.Thread,
    discord.DMChannel,
)

PLACEHOLDER = "Posting…"

_EXPIRED = "bk.expired"  # interaction.extras: nothing more can be sent through it
_LOADING = "bk.loading"  # interaction.extras: the "thinking…" placeholder awaits its answer
#: Discord's answers that mean the interaction's token is gone: unknown interaction,
#: unknown webhook, invalid webhook token
_DEAD_CODES = {10062, 10015, 50027}
#: what a send can raise: Discord's refusal, or no answer at all (a dropped connection)
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
#: each client's tasks answering an interaction they acknowledged: what it owes Discord
_OWED: weakref.WeakKeyDictionary[discord.Client, set[asyncio.Task]] = weakref.WeakKeyDictionary()


async def acknowledge(interaction: discord.Interaction, *, new_message: bool = True) -> None:
    """Defer ``interaction`` before any work, so Discord's 3 seconds cannot run out.

    A command (or a button that opens something new) shows the asker alone a
    "thinking…" placeholder; a button that changes its own message (``new_message``
    false) defers silently. If the deferral fails, nothing more is sent through the
    interaction (it may or may not have been taken): the answer's public parts go to the
    channel instead (see :func:`deliver`). From here on the answer is owed: a bot that
    stops waits for it (:func:`answers_done`).
    """
    task = asyncio.current_task()
    if task is not None:
        owed = _OWED.setdefault(interaction.client, set())
        owed.add(task)
        task.add_done_callback(owed.discard)
    if interaction.response.is_done():
        return
    thinking = new_message or interaction.type is not discord.InteractionType.component
    try:
        await interaction.response.defer(ephemeral=thinking, thinking=thinking)
    except SEND_ERRORS as exc:
        _dead(interaction, exc)
        return
    interaction.extras[_LOADING] = thinking


async def deliver(interaction: discord.Interaction, parts: Sequence[Part]) -> None:
    """Send ``parts`` as the answer to ``interaction``.

    Public parts always reach the channel: through the interaction while it takes
    answers, else as ordinary messages (never both: a part goes one way only). A public
    part never goes out while the private placeholder is unresolved, since the first
    follow-up would become that placeholder, private and pinging nobody.
    """
    todo = list(parts)
    placeholder = False
    if _alive(interaction) and not interaction.response.is_done():  # answered at once
        first = todo[0]
        try:
            await interaction.response.send_message(ephemeral=first.private, **first.kwargs())
            todo.pop(0)
        except SEND_ERRORS as exc:
            _failed(interaction, exc)
    elif _alive(interaction) and interaction.extras.get(_LOADING):
        # the placeholder takes the first private part, or says "Posting…" until the
        # public parts are out, and then goes
        mine = next((p for p in todo if p.private), None)
        try:
            if mine is None:
                await interaction.edit_original_response(content=PLACEHOLDER)
                placeholder = True
            else:
                await _edit_original(interaction, mine)
                todo.remove(mine)
            interaction.extras[_LOADING] = False
        except SEND_ERRORS as exc:
            _failed(interaction, exc)
    lost = 0
    for part in todo:
        public_blocked = not part.private and interaction.extras.get(_LOADING)
        if _alive(interaction) and not public_blocked:
            try:
                await interaction.followup.send(ephemeral=part.private, **part.kwargs())
                if part.private:
                    interaction.extras[_LOADING] = False  # a private follow-up resolves it
                continue
            except SEND_ERRORS as exc:
                _failed(interaction, exc)
        if part.private:
            lost += 1
        else:
            await _to_channel(interaction, part)
    if lost:
        log.info("%s: %d private messages could not be delivered", _what(interaction), lost)
    if placeholder and _alive(interaction):
        try:
            await interaction.delete_original_response()
        except SEND_ERRORS as exc:
            _failed(interaction, exc)


async def answers_done(client: discord.Client, timeout: float) -> int:
    """Wait until every interaction ``client`` acknowledged is answered, ``timeout``
    seconds at most; returns how many answers were still under way then (0: none).

    A command or click may already have stored a move when the bot is told to stop: its
    board, the ping to the next player and the pinned status must still go out, and
    they cannot once the bot's session with Discord is closed. Answers begun while
    waiting (the gateway is still open) are waited for as well."""
    owed = _OWED.get(client, set())
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while waiting := owed - {asyncio.current_task()}:
        left = end - loop.time()
        if left <= 0:
            log.warning("stopping with %d answers unfinished", len(waiting))
            return len(waiting)
        log.info("stopping: %d answers under way are finished first", len(waiting))
        await asyncio.wait(waiting, timeout=left)
    return 0


def _alive(interaction: discord.Interaction) -> bool:
    return interaction.extras.get(_EXPIRED) is None


def _dead(interaction: discord.Interaction, exc: BaseException) -> None:
    """Nothing more goes through ``interaction``; logged the first time only."""
    if _alive(interaction):
        interaction.extras[_EXPIRED] = _reason(exc)
        log.warning(
            "%s by user %d: Discord takes no more answers through it (%s); its public "
            "messages go to channel %s instead",
            _what(interaction), interaction.user.id, _reason(exc), interaction.channel_id,
        )  # fmt: skip


def _failed(interaction: discord.Interaction, exc: BaseException) -> None:
    """One send failed: the interaction is dead if Discord says its token is, or if the
    send may have half-happened (no answer came back); else only this part failed."""
    code = getattr(exc, "code", None)
    if code in _DEAD_CODES or not isinstance(exc, discord.HTTPException):
        _dead(interaction, exc)
    else:
        log.warning("%s: Discord refused a reply (%s)", _what(interaction), _reason(exc))


def _reason(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code}: {exc.text or exc}"
    return f"{type(exc).__name__}: {exc}"


async def _edit_original(interaction: discord.Interaction, part: Part) -> None:
    """The message the interaction answers (placeholder, or the clicked one) becomes
    ``part``; an edit pings nobody, so it never carries the mentions."""
    kwargs = part.kwargs()
    file = kwargs.pop("file", None)
    await interaction.edit_original_response(
        content=kwargs.get("content"),
        attachments=[file] if file else discord.utils.MISSING,
        view=kwargs.get("view"),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def edit_original(
    interaction: discord.Interaction, content: str, controls: Sequence[discord.ui.Item] = ()
) -> None:
    """Change the message a deferred button is on (a picker step): private, no pings.
    Through an interaction Discord no longer takes, nothing is changed; whatever the
    click then plays still reaches the channel through :func:`deliver`."""
    if not _alive(interaction):
        return
    try:
        await _edit_original(interaction, Part(content, private=True, controls=tuple(controls)))
        interaction.extras[_LOADING] = False
    except SEND_ERRORS as exc:
        _failed(interaction, exc)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """A private, specific refusal: the asker alone sees it."""
    parts = parts_of(Reply(message, private=True), mention=mention_of(interaction))
    await deliver(interaction, parts)


async def answer_error(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Every command and button ends here on failure, so the user always gets an answer.

    A refusal is the user's to read; anything else is our bug: logged in full, and the
    user gets a private apology rather than Discord's "interaction failed".
    """
    if isinstance(error, Refused | CannotSave):  # the asker's to read: a full disk too
        await refuse(interaction, str(error))
        return
    if isinstance(error, discord.Forbidden):  # a permission the channel does not give us
        log.warning("%s: Discord refused: %s", what, error.text)
        await refuse(
            interaction,
            f"Discord would not let me do that here ({error.text or 'Missing Permissions'}). "
            f"I need these in this channel: {describe(EVERY)}. {HOW}",
        )
        return
    log.error("%s failed", what, exc_info=error)
    await refuse(interaction, "Something went wrong on my side, sorry; it has been logged.")


async def _to_channel(interaction: discord.Interaction, part: Part) -> None:
    """A public part the interaction could not carry, as an ordinary message."""
    try:
        await channel_of(interaction.client, interaction.channel_id).send(**part.kwargs())
    except SEND_ERRORS as exc:
        log.warning(
            "%s: its public message could not be posted in channel %s either (%s)",
            _what(interaction), interaction.channel_id, _reason(exc),
        )  # fmt: skip


async def post(channel: discord.abc.Messageable, parts: Sequence[Part]) -> None:
    """Parts posted outside any interaction (timers, DMs, league rounds). Only public
    parts: a private one (a player's own view after a move the timer made) has nobody
    here to be shown to, and must never reach a channel."""
    for part in parts:
        if not part.private:
            await channel.send(**part.kwargs())


def mention_of(interaction: discord.Interaction) -> Mention | None:
    """How the bot answering ``interaction`` mentions its commands (see ``bot.discord.tree``)."""
    tree = getattr(interaction.client, "tree", None)  # a bot's (a bare Client has none)
    return getattr(tree, "mention", None)


def channel_of(client: discord.Client, channel_id: int | None) -> PartialMessageableChannel:
    """Somewhere to send to: the cached channel, or a partial one (no fetch needed)."""
    assert channel_id is not None
    channel = client.get_channel(channel_id)
    # a game's channel takes messages: not a forum, a category or a group DM
    assert channel is None or isinstance(channel, _MESSAGEABLE)
    return channel or client.get_partial_messageable(channel_id)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, object] = interaction.data or {}
    return f"button {data.get('custom_id', '?')}"
