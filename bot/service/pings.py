"""The words of every notice about a player's turn, in one place: the ping after a move
(and the DM in its place), a reminder, a deadline warning, the "you're next" heads-up.

Each is read where it arrives, often on a phone's lock screen, which shows a message's
own text and nothing of a card's (a mention inside a Components v2 card notifies with no
text at all: discord-api-docs#7854). So each says, in the one line a notification
shows, which game (with its number, so two games of Skybridge in one server are told
apart), what was played last, and when the move is due. No Discord here: a moment is a
mark (``bot.service.marks.when``) each front end writes its own way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import engine
from bot.service.marks import when
from bot.store import MoveRow


def game_label(game_key: str, game_id: int) -> str:
    """``Skybridge #12``: a game as its notices name it. A game opened and started in
    one transaction (a league match, a rematch, ``/solo``) is told of before the store
    has numbered it (``game_id`` 0): its notices name the game alone."""
    name = engine.get(game_key).info.name
    return f"{name} #{game_id}" if game_id else name


def your_turn(label: str, *, answer: bool, happened: str | None, due: datetime | None) -> str:
    """``your move in **Skybridge #12** — Ada placed red tall b1; due {t:…:R}.``: what
    the ping after a move says after the names it pings; ``answer`` in a reaction window
    (an out-of-turn answer is awaited), ``happened`` the move's own sentence."""
    words = f"your {'answer' if answer else 'move'} in **{label}**"
    if happened:
        words += f" — {happened.rstrip('.')}"
    if due is not None:
        words += f"; due {when(due, 'R')}"
    return words + "."


def you_are_next(label: str, happened: str | None, playing: str, due: datetime | None) -> str:
    """The heads-up: ``⏭️ You're next in **Skybridge #12**: Ada placed red tall b1; Bob is
    playing now, due {t:…:R}.`` (``due`` the deadline of the turn now being played)."""
    played = f"{happened.rstrip('.')}; " if happened else ""
    until = f", due {when(due, 'R')}" if due is not None else ""
    return f"⏭️ You're next in **{label}**: {played}{playing} is playing now{until}."


def reminder(label: str, waited: str, since: str | None, due: datetime | None) -> str:
    """``Reminder: it has been your turn in **Skybridge #12** for 3 hours, since Ada
    played `red tall b1`; due {t:…:R}.`` (``since`` from :func:`last_played`)."""
    text = f"Reminder: it has been your turn in **{label}** for {waited}"
    if since:
        text += f", since {since}"
    if due is not None:
        text += f"; due {when(due, 'R')}"
    return text + "."


def warning(label: str, *, answer: bool, since: str | None, deadline: datetime, then: str) -> str:
    """``⏰ Your move in **Skybridge #12** (Ada played `red tall b1`) is due {t:…:fR}``
    and ``then``, what the deadline brings (``; after that …``)."""
    played = f" ({since})" if since else ""
    what = "answer" if answer else "move"
    return f"⏰ Your {what} in **{label}**{played} is due {when(deadline)}{then}."


def alone(words: str) -> str:
    """Words written to follow the names pinged, as a message of their own (a DM)."""
    return words[:1].upper() + words[1:]


def last_played(standing: Sequence[MoveRow], names: Sequence[str], seat: int) -> str | None:
    """What the wait of ``seat`` follows, for a reminder or a warning: ``Ada played
    `red tall b1```, ``you played …`` for the seat's own, ``Ada's turn was skipped``;
    None before any move. ``standing`` is the game's log with its take-backs applied."""
    if not standing:
        return None
    last = standing[-1]
    who = "you" if last.seat == seat else names[last.seat]
    if last.kind == "skip":
        return "your turn was skipped" if who == "you" else f"{who}'s turn was skipped"
    return f"{who} played `{last.action}`"
