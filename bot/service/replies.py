"""Who asks, where, and what they get back: the values front ends trade with the service."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

import engine
from renders.text.common import plural


def player_count(info: engine.GameInfo) -> str:
    if info.min_players == info.max_players:
        return f"{info.min_players} players"
    return f"{info.min_players}–{info.max_players} players"


@dataclass(frozen=True)
class Caller:
    user_id: int
    name: str
    manager: bool = False  # may manage the server: can abandon others' games
    roles: tuple[int, ...] = ()  # the server roles the user has (organiser role, say)


@dataclass(frozen=True)
class Table:
    """Where a game lives: a channel or thread (or a DM, with no guild)."""

    channel_id: int
    guild_id: int | None = None
    #: whether the server's own commands (``/game …``, ``/move``) are offered to whoever
    #: asks here, so that a hint may name them: in a server that added the bot, and in
    #: the terminal. Not where only a person's own install of the app reaches (a server
    #: that never added the bot, a group DM), nor in a DM with the bot, where Discord
    #: offers them only to people who share a server with it: hints there name the
    #: commands of a person's own and the **Play** button instead.
    server_commands: bool = True


@dataclass(frozen=True)
class Offer:
    """A game a private answer offers to play from wherever it is read: a **Play**
    button, as the game's board has, for a game waiting for the asker."""

    game_id: int
    version: int  # the position offered: a click after the game moved on is refused
    label: str = "Play"


@dataclass(frozen=True)
class Reply:
    """What a front end shows. ``private`` replies are for the asker's eyes only."""

    text: str
    private: bool = False
    image: bytes | None = None
    #: the board in words: what ``image`` shows, for a screen reader (the alt text)
    alt: str | None = None
    mentions: tuple[int, ...] = ()  # the users to ping, and nobody else
    #: why a public board pings ``mentions``, in words a phone's notification shows:
    #: ``your move in **Skybridge #12** — Ada placed red tall b1; due …`` (``bot.service.pings``)
    ping: str | None = None
    awaiting: tuple[int, ...] = ()  # every user whose move the game now waits for
    game_id: int | None = None
    version: int | None = None  # the position shown, so buttons can tell when stale
    seq: int | None = None  # the log entry (move) this reply announces
    playable: bool = False  # the game waits for a move: offer the play button
    #: for the asker only, after a public reply: their own view of a game with secrets
    followup: Reply | None = None
    #: for other people, each alone, by user id: what the change showed only them (the
    #: cards they drew when a round began on someone else's move), in words
    told: tuple[tuple[int, str], ...] = ()
    #: games whose pinned status message no longer says where they stand
    changed: tuple[int, ...] = ()
    #: game ``game_id``'s pinned status as the change left it, where the service had it
    #: at hand: the front end pins it without reading the game again
    status: StatusCard | None = None
    #: the game ``game_id`` is over: offer to play it again
    rematch: bool = False
    #: the colour of the seat a public board is about (to play, or the winner), 0xRRGGBB
    accent: int | None = None
    #: on a private answer: the games waiting for the asker, each offered to play there
    offers: tuple[Offer, ...] = ()
    #: where all of ``alt`` is read, should Discord's limit cut it (None: a board's,
    #: ``/game board text:true``)
    alt_whole: str | None = None


def statuses(reply: Reply) -> dict[int, StatusCard]:
    """The pinned statuses ``reply`` carries, by game."""
    if reply.status is None or reply.game_id is None:
        return {}
    return {reply.game_id: reply.status}


def seen_away(reply: Reply, user_id: int, note: str) -> Reply:
    """A public answer as its asker sees it privately, away from the game's channel where
    it is posted (a move made with a **Play** button under ``/turns``): nobody pinged,
    ``note`` saying where it went, and the game's Play button while it waits for them."""
    offers: tuple[Offer, ...] = ()
    if reply.playable and reply.game_id is not None and user_id in reply.awaiting:
        offers = (Offer(reply.game_id, reply.version or 0),)
    return replace(
        reply,
        text=f"{reply.text}\n{note}",
        private=True,
        mentions=(),
        playable=False,
        rematch=False,
        changed=(),
        offers=offers,
    )


@dataclass(frozen=True)
class StatusCard:
    """A game's pinned summary, and the channel and message it is pinned as."""

    channel_id: int
    message_id: int | None
    text: str


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st: a place as people say it."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def default_link(table: Table) -> str:
    return f"channel {table.channel_id}"


def waited_for(delta: timedelta) -> str:
    """A past stretch in whole words: ``1 hour``, ``14 minutes``, ``3 days``."""
    minutes = max(1, round(delta.total_seconds() / 60))
    if minutes < 60:
        return plural(minutes, "minute")
    hours = round(minutes / 60)
    return plural(hours, "hour") if hours < 48 else plural(round(hours / 24), "day")
