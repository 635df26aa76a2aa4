"""A service reply as Discord messages that fit: cut between lines, a public board as one card.

Discord refuses a message over 2,000 characters, alt text over 1,024 and a file over the
upload limit. A move commits before it is answered, so a reply is cut to fit before it is
sent (:func:`parts_of`), code blocks closed and reopened at a cut, and a public board
becomes one card (``bot.discord.cards``): its text, the picture and its buttons in one
frame. Sending them is ``bot.discord.delivery``'s.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

import discord

from bot.discord.cards import BOARD_FILE, CARD_TEXT_LIMIT, card
from bot.service import Reply
from bot.service.marks import Mention, for_discord

log = logging.getLogger(__name__)
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
TOO_LARGE = "The board is too large to upload here; `/game board` shows it."


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
