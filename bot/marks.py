"""Marks in the text the service writes, which each front end writes its own way.

The service says *what* a message refers to, never how a front end shows it:

* a moment is marked with :func:`when`. Discord shows it as a timestamp that each reader
  sees in their own time zone and that counts down live (``<t:…:f>``, ``<t:…:R>``); the
  terminal prints the moment in UTC.
* a command the reader may run is a code span starting with a slash, as the service's
  sentences already write it: ```/game board move:N```. Discord makes its name a
  mention the reader clicks to run it (``</game board:ID>``), once it knows the ids
  Discord gave its commands; the terminal, where the same words work, prints it as is.

This is the one place that knows both marks; no Discord in it, only text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

#: how a moment reads: ``R`` relative (``in 3 hours``), ``f`` date and time, or both
Style = Literal["R", "f", "fR"]

_WHEN = re.compile(r"\{t:(-?\d{1,12}):(R|f|fR)\}")
_COMMAND = re.compile(r"`/([a-z][a-z0-9_-]*(?: [^`\n]*)?)`")
#: Discord's commands are at most three words deep: ``/league create``, ``/a b c``
_DEPTH = 3

#: a command's clickable mention by its full name (``game board``), None if unknown
Mention = Callable[[str], str | None]


def when(moment: datetime, style: Style = "fR") -> str:
    """``moment`` marked for the front end to write: the service's only way to name a time."""
    return f"{{t:{int(moment.timestamp())}:{style}}}"


def unix_moment(seconds: int) -> datetime | None:
    """The moment ``seconds`` after 1970 (UTC); None outside the years 1-9999, which no
    calendar here holds (a Discord timestamp typed by hand may name one)."""
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        return None


def plain(text: str) -> str:
    """``text`` for the terminal: each moment as ``2026-12-01 18:00 UTC`` (one that names
    no moment, typed by someone, as typed)."""

    def moment(match: re.Match[str]) -> str:
        at = unix_moment(int(match[1]))
        return match[0] if at is None else at.strftime("%Y-%m-%d %H:%M UTC")

    return _WHEN.sub(moment, text)


def for_discord(text: str, mention: Mention | None = None) -> str:
    """``text`` for Discord: each moment a live timestamp, and each command reference a
    mention (its arguments kept as code after it) where ``mention`` knows the command."""
    text = _WHEN.sub(_timestamp, text)
    if mention is None:
        return text
    return _COMMAND.sub(lambda match: _command(match[1], mention) or match[0], text)


def _timestamp(match: re.Match[str]) -> str:
    unix, style = match[1], match[2]
    first, *more = (f"<t:{unix}:{letter}>" for letter in style)
    return first + "".join(f" ({other})" for other in more)


def _command(span: str, mention: Mention) -> str | None:
    """``game board move:N`` as ``</game board:ID> `move:N```: the longest leading words
    that name a command become its mention."""
    words = span.split(" ")
    for depth in range(min(_DEPTH, len(words)), 0, -1):
        link = mention(" ".join(words[:depth]))
        if link is not None:
            rest = " ".join(words[depth:]).strip()
            return f"{link} `{rest}`" if rest else link
    return None
