"""The one place a service reply becomes Discord messages and is sent.

Discord gives an interaction 3 seconds to be acknowledged and 15 minutes of follow-ups
after that; it refuses a message over 2,000 characters or a file over the upload limit.
A move commits before its board is drawn, so an answer that breaks any of these would
leave a stored move that nobody was told about. Hence, for every interaction:

* :func:`acknowledge` defers it before any work (the asker sees "thinking…");
* :func:`parts_of` cuts a reply into messages that fit, between lines, code blocks
  closed and reopened at the cut;
* :func:`deliver` sends them; when the interaction can no longer be answered (expired,
  a dead token) the public parts go to the game's channel as ordinary messages, so the
  board and the ping still arrive, and the failure is logged once.

Mentions live only in messages that are created, never in edits: Discord notifies
nobody about a mention added by an edit, and the first follow-up after a deferral is
such an edit. A public answer therefore resolves the "thinking" placeholder privately
first and is posted as a follow-up of its own.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.service import Reply

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000  # characters in one message's content
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes in a server without boosts: what every server allows
FENCE = "```"
PLACEHOLDER = "Posting…"
TOO_LARGE = "The board is too large to upload here; `/game board` shows it."

_EXPIRED = "bk.expired"  # interaction.extras: nothing more can be sent through it
_LOADING = "bk.loading"  # interaction.extras: the "thinking…" placeholder awaits its answer


@dataclass(frozen=True)
class Part:
    """One Discord message: what it says, to whom, and what hangs under it."""

    content: str
    private: bool
    image: bytes | None = None
    view: discord.ui.View | None = None
    mentions: tuple[int, ...] = ()

    def kwargs(self) -> dict:
        """Keyword arguments for any discord.py send; only ``mentions`` may be pinged."""
        kwargs: dict = {
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self.mentions]
            )
        }
        if self.image is not None:
            kwargs["file"] = discord.File(io.BytesIO(self.image), filename="board.png")
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines where it can be.

    A code block open at a cut is closed there and reopened (with its language) in the
    next piece, so each message renders on its own; a line longer than half a message
    is cut inside the line.
    """
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    lines: list[str] = []
    opener: str | None = None  # the fence that opened the code block we are in, if any
    width = limit // 2
    for whole in text.split("\n"):
        for line in [whole[i : i + width] for i in range(0, len(whole), width)] or [""]:
            fence = line.strip().startswith(FENCE)
            after = (None if opener else line.strip()[:20]) if fence else opener
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
    if lines:
        pieces.append("\n".join(lines))
    return pieces


def parts_of(reply: Reply, view: discord.ui.View | None = None) -> list[Part]:
    """``reply`` (and the private follow-up it carries) as messages that fit Discord.

    The board, its buttons and the mentions the text does not already hold go with the
    last piece of the text, so the picture sits under the words that explain it.
    """
    text = reply.text
    unnamed = [u for u in reply.mentions if f"<@{u}>" not in text]  # not already in the text
    if unnamed:
        text += "\n" + " ".join(f"<@{u}>" for u in unnamed)
    image = reply.image
    if image is not None and len(image) > UPLOAD_LIMIT:
        log.warning("a board of %d bytes is over the upload limit", len(image))
        text, image = f"{text}\n{TOO_LARGE}", None
    pieces = split_text(text)
    parts = [Part(piece, reply.private, mentions=reply.mentions) for piece in pieces[:-1]]
    parts.append(Part(pieces[-1], reply.private, image, view, reply.mentions))
    if reply.followup is not None:
        parts += parts_of(reply.followup)
    return parts


async def acknowledge(interaction: discord.Interaction, *, new_message: bool = True) -> None:
    """Defer ``interaction`` before any work, so Discord's 3 seconds cannot run out.

    A command (or a button that opens something new) shows the asker alone a
    "thinking…" placeholder; a button that changes its own message (``new_message``
    false) defers silently. If Discord no longer accepts the interaction, the answer
    will go to the channel instead (see :func:`deliver`).
    """
    if interaction.response.is_done():
        return
    thinking = new_message or interaction.type is not discord.InteractionType.component
    try:
        await interaction.response.defer(ephemeral=thinking, thinking=thinking)
    except discord.HTTPException as exc:
        interaction.extras[_EXPIRED] = f"{exc.status} {exc.text or exc}"
        return
    interaction.extras[_LOADING] = thinking


async def deliver(interaction: discord.Interaction, parts: Sequence[Part]) -> None:
    """Send ``parts`` as the answer to ``interaction``; public parts reach the channel
    even when the interaction cannot carry them."""
    todo = list(parts)
    placeholder = False
    try:
        if interaction.extras.get(_EXPIRED) is None:
            if not interaction.response.is_done():
                first = todo.pop(0)
                await interaction.response.send_message(
                    first.content, ephemeral=first.private, **first.kwargs()
                )
            elif interaction.extras.pop(_LOADING, False):
                # the placeholder is private: it takes the first private part, or says
                # "Posting…" until the public answer is out, and then goes
                mine = next((p for p in todo if p.private), None)
                if mine is None:
                    placeholder = True
                    await interaction.edit_original_response(content=PLACEHOLDER)
                else:
                    await _edit_original(interaction, mine)
                    todo.remove(mine)
            while todo:
                part = todo[0]
                await interaction.followup.send(
                    part.content, ephemeral=part.private, **part.kwargs()
                )
                todo.pop(0)
            if placeholder:
                await interaction.delete_original_response()
            return
    except discord.HTTPException as exc:
        interaction.extras[_EXPIRED] = f"{exc.status} {exc.text or exc}"
    await _to_channel(interaction, [p for p in todo if not p.private], len(todo))


async def _edit_original(interaction: discord.Interaction, part: Part) -> None:
    """The message the interaction answers (placeholder, or the clicked one) becomes
    ``part``; an edit pings nobody, so it never carries the mentions."""
    kwargs = part.kwargs()
    file = kwargs.pop("file", None)
    await interaction.edit_original_response(
        content=part.content,
        attachments=[file] if file else discord.utils.MISSING,
        view=kwargs.get("view"),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def edit_original(interaction: discord.Interaction, content: str, view=None) -> None:
    """Change the message a deferred button is on (a picker step): private, no pings.
    Through an interaction Discord no longer takes, nothing is changed; whatever the
    click then plays still reaches the channel through :func:`deliver`."""
    if interaction.extras.get(_EXPIRED) is not None:
        return
    try:
        await _edit_original(interaction, Part(content, private=True, view=view))
    except discord.HTTPException as exc:
        interaction.extras[_EXPIRED] = f"{exc.status} {exc.text or exc}"
    interaction.extras.pop(_LOADING, None)


async def _to_channel(
    interaction: discord.Interaction, public: Sequence[Part], undelivered: int
) -> None:
    """What the interaction could not carry: its public parts as ordinary messages."""
    reason = interaction.extras.get(_EXPIRED)
    what = _what(interaction)
    posted = 0
    failure = ""
    channel = _channel(interaction.client, interaction.channel_id)
    for part in public:
        try:
            await channel.send(part.content, **part.kwargs())
            posted += 1
        except discord.HTTPException as exc:
            failure = f"; the channel refused too ({exc.status} {exc.text or exc})"
            break
    if undelivered:
        log.warning(
            "%s by user %d could not be answered (%s): %d of %d public messages posted in "
            "channel %s instead, %d private ones lost%s",
            what, interaction.user.id, reason, posted, len(public), interaction.channel_id,
            undelivered - len(public), failure,
        )  # fmt: skip


async def post(channel: discord.abc.Messageable, parts: Sequence[Part]) -> None:
    """Parts posted outside any interaction (timers, DMs, league rounds)."""
    for part in parts:
        await channel.send(part.content, **part.kwargs())


def _channel(client: discord.Client, channel_id: int | None) -> discord.abc.Messageable:
    """Somewhere to send to: the cached channel, or a partial one (no fetch needed)."""
    assert channel_id is not None
    return client.get_channel(channel_id) or client.get_partial_messageable(channel_id)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    return f"button {(interaction.data or {}).get('custom_id', '?')}"
