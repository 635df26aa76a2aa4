"""The one place a service reply becomes Discord messages and is sent.

Discord gives an interaction 3 seconds to be acknowledged and 15 minutes of follow-ups
after that; it refuses a message over 2,000 characters or a file over the upload limit.
A move commits before its board is drawn, so an answer that breaks any of these would
leave a stored move that nobody was told about. Hence, for every interaction:

* :func:`acknowledge` defers it before any work (the asker sees "thinking…");
* :func:`parts_of` cuts a reply into messages that fit, between lines, code blocks
  closed and reopened at the cut; a public board becomes one card (``bot.cards``):
  its text, the picture and its buttons in one frame;
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
import io
import logging
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.cards import BOARD_FILE, CARD_TEXT_LIMIT, card
from bot.permissions import EVERY, HOW, describe
from bot.service import Refused, Reply
from bot.service.marks import Mention, for_discord
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

CONTENT_LIMIT = 2000  # characters in one message's content
ALT_LIMIT = 1024  # characters of an attachment's alt text (its ``description``)
#: where a board's whole description is read (a reply may name another: ``Reply.alt_whole``)
BOARD_WORDS = "/game board text:true"
#: ends alt text cut to the limit, saying where the rest is: a board's, by default
ALT_MORE = f"… (cut here; {BOARD_WORDS} has it all)"
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes in a server without boosts: what every server allows
FENCE = "```"
OPENER = 20  # characters of a fence line kept to reopen its block after a cut ("```python")
MIN_LIMIT = 2 * (len(FENCE) + OPENER + 2)  # room to close a block and reopen it
PLACEHOLDER = "Posting…"
TOO_LARGE = "The board is too large to upload here; `/game board` shows it."

_EXPIRED = "bk.expired"  # interaction.extras: nothing more can be sent through it
_LOADING = "bk.loading"  # interaction.extras: the "thinking…" placeholder awaits its answer
#: Discord's answers that mean the interaction's token is gone: unknown interaction,
#: unknown webhook, invalid webhook token
_DEAD_CODES = {10062, 10015, 50027}
#: what a send can raise: Discord's refusal, or no answer at all (a dropped connection)
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
#: each client's tasks answering an interaction they acknowledged: what it owes Discord
_OWED: weakref.WeakKeyDictionary[discord.Client, set[asyncio.Task]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Part:
    """One Discord message: what it says, to whom, and what hangs under it."""

    content: str
    private: bool
    image: bytes | None = None
    controls: tuple[discord.ui.Item, ...] = ()  # buttons, matched by custom id
    mentions: tuple[int, ...] = ()
    alt: str | None = None  # the image in words
    accent: int | None = None  # a card's colour (``0xRRGGBB``)
    whole: str = BOARD_WORDS  # where all of ``alt`` is read, should it be cut

    @property
    def card(self) -> bool:
        """Whether this message is a card: a public picture, with its words and buttons
        in one frame. A private one stays a classic message (text, file, buttons)."""
        return not self.private and self.image is not None

    def kwargs(self) -> dict:
        """Keyword arguments for any discord.py send, the text included (a card's sits in
        the card, as Discord refuses ``content`` there); only ``mentions`` may be pinged."""
        kwargs: dict = {
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self.mentions]
            )
        }
        alt = None if self.alt is None else clip(self.alt, whole=self.whole)
        if self.image is not None:
            kwargs["file"] = discord.File(
                io.BytesIO(self.image), filename=BOARD_FILE, description=alt
            )
        if self.card:
            kwargs["view"] = card(self.content, alt, self.controls, self.accent)
            return kwargs
        kwargs["content"] = self.content
        if self.controls:
            kwargs["view"] = discord.ui.View(timeout=None)
            for item in self.controls:
                kwargs["view"].add_item(item)
        return kwargs


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines where it can be.

    A code block open at a cut is closed there and reopened (with its language) in the
    next piece, so each message renders on its own. A line too long for any message is
    cut at its last space that fits (inside a word only when it has none); a piece
    holding nothing but white space is dropped (Discord refuses it as empty).
    """
    if len(text) <= limit:
        return [text]
    if limit < MIN_LIMIT:
        raise ValueError(f"messages of {limit} characters cannot hold a code block's fences")
    pieces: list[str] = []
    lines: list[str] = []
    opener: str | None = None  # the fence that opened the code block we are in, if any
    for whole in text.split("\n"):
        for line in _cut_line(whole, limit - MIN_LIMIT // 2):
            fence = line.strip().startswith(FENCE)
            after = (None if opener else line.strip()[:OPENER]) if fence else opener
            if len("\n".join([*lines, line, *([FENCE] if after else [])])) <= limit:
                lines.append(line)
                opener = after
                continue
            pieces.append("\n".join([*lines, FENCE] if opener else lines))
            if fence and opener:  # the block's own closing fence: the cut closed it
                lines, opener = [], None
            else:
                lines = [opener, line] if opener else [line]
                opener = after
    pieces.append("\n".join(lines))
    return [p for p in pieces if p.strip()] or [text[:limit]]


def clip(text: str, limit: int = ALT_LIMIT, whole: str = BOARD_WORDS) -> str:
    """``text`` cut to ``limit`` characters for alt text, where a screen reader pauses:
    after its last whole line that fits, else after a sentence or a word, then saying
    that ``whole`` has it all (:data:`ALT_MORE` for a board). A description puts the
    most important lines first."""
    if len(text) <= limit:
        return text
    more = ALT_MORE.replace(BOARD_WORDS, whole)
    room = limit - len(more) - 1
    kept = text[: room + 1]
    cut = kept.rfind("\n")
    if cut <= 0:
        cut = max(kept.rfind(". ") + 1, kept.rfind("; ") + 1) or kept.rfind(" ")
    return (text[: cut if cut > 0 else room].rstrip() + "\n" + more)[:limit]


def _cut_line(line: str, width: int) -> list[str]:
    """``line`` in pieces of at most ``width``, cut after a space where there is one."""
    pieces = []
    while len(line) > width:
        cut = line.rfind(" ", width // 2, width) + 1 or width
        pieces.append(line[:cut])
        line = line[cut:]
    return [*pieces, line]


def parts_of(
    reply: Reply, controls: Sequence[discord.ui.Item] = (), mention: Mention | None = None
) -> list[Part]:
    """``reply`` (and the private follow-up it carries) as messages that fit Discord.

    The board and its buttons (``controls``) go with the last piece of the text, so the
    picture sits under the words that explain it: a public board in one card, which
    holds 4,000 characters of text where a message holds 2,000; what does not fit goes
    before it as ordinary messages, so the card, with the turn and the buttons, is always
    the newest. A card pings nobody: Discord's notification of a mention inside one
    shows no text (discord-api-docs#7854), so whoever it pings is pinged by a plain
    message right before it, whose own words (the reply's ``ping``) a phone shows. A
    reply without a card carries its mentions in its text, as they are not already
    there. Moments become timestamps and commands, where ``mention`` knows them,
    mentions (``bot.service.marks``) before the text is cut, as they change its length.
    """
    text, image = reply.text, reply.image
    if image is not None and len(image) > UPLOAD_LIMIT:
        log.warning("a board of %d bytes is over the upload limit", len(image))
        text, image = f"{text}\n{TOO_LARGE}", None
    card = Part("", reply.private, image).card
    pinged = () if card else reply.mentions  # who the messages of the text may ping
    unnamed = [u for u in pinged if f"<@{u}>" not in text]  # not already in the text
    if unnamed:
        text += "\n" + " ".join(f"<@{u}>" for u in unnamed)
    pieces = split_text(for_discord(text, mention), CARD_TEXT_LIMIT if card else CONTENT_LIMIT)
    before = [short for piece in pieces[:-1] for short in split_text(piece)]
    parts = [Part(piece, reply.private, mentions=pinged) for piece in before]
    if card and reply.mentions:
        names = " ".join(f"<@{u}>" for u in reply.mentions)
        words = reply.ping or reply.text.split("\n", 1)[0]
        ping = for_discord(f"{names}, {words}", mention)
        parts += [Part(piece, False, mentions=reply.mentions) for piece in split_text(ping)]
    alt = reply.alt if image is not None else None
    last = Part(pieces[-1], reply.private, image, tuple(controls), pinged, alt)
    parts.append(replace(last, accent=reply.accent, whole=reply.alt_whole or BOARD_WORDS))
    if reply.followup is not None:
        parts += parts_of(reply.followup, mention=mention)
    return parts


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
    """How the bot answering ``interaction`` mentions its commands (see ``bot.tree``)."""
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
