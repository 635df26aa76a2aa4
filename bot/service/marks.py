"""Marks in the text the service writes, which each front end writes its own way.

The service says *what* a message refers to, never how a front end shows it:

* a moment is marked with :func:`when`. Discord shows it as a timestamp that each reader
  sees in their own time zone and that counts down live (``<t:…:f>``, ``<t:…:R>``); the
  terminal prints the moment in UTC.
* a command the reader may run is a code span starting with a slash, as the service's
  sentences already write it, options as Discord types them: ```/game board move:N```.
  Discord makes its name a mention the reader clicks to run it (``</game board:ID>``),
  once it knows the ids Discord gave its commands; the terminal writes it as it is typed
  there: ```/board move=N```, ```/league join name="Spring Cup"```. An option alone in
  a code span (```by:3d```) is written the same way.
* a channel is marked with :func:`channel`, a role with :func:`role`: Discord's mentions
  (``<#ID>``, ``<@&ID>``); the terminal, which has neither, names its table or the role's id.
* a button to click is marked with :func:`press`: "click **Rematch**" on Discord, and
  in the terminal the command that does the same ("type ```/rematch```"), its verb
  agreeing with who does it ("Bob clicks", "Bob types").
* a web page is marked with :func:`link`: on Discord its label is the link (``[Game
  page](<…>)``, the address in angle brackets so that no preview of it fills the
  message); the terminal prints the label and the address.

This is the one place that knows every mark; no Discord in it, only text.
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
#: an option as Discord types it, ``name:value``: alone in a code span, or in a command's
_OPTION = re.compile(r"([a-z][a-z_]*):(.*)")
_ALONE = re.compile(r"`([a-z][a-z_]*:[^/\s`][^\s`]*)`")
_CHANNEL = re.compile(r"\{#(\d{1,20})\}")
_ROLE = re.compile(r"\{&(\d{1,20})\}")
_LINK = re.compile(r"\{link:([^|{}\n]+)\|(https?://[^\s|{}<>]+)\}")
#: each button the service asks a reader to click, and the terminal's command for it
BUTTONS = {"Rematch": "/rematch"}
_PRESS = re.compile(rf"\{{press(es)?:({'|'.join(BUTTONS)})\}}")
#: Discord's commands are at most three words deep: ``/league create``, ``/a b c``
_DEPTH = 3

#: a command's clickable mention by its full name (``game board``), None if unknown
Mention = Callable[[str], str | None]


def when(moment: datetime, style: Style = "fR") -> str:
    """``moment`` marked for the front end to write: the service's only way to name a time."""
    return f"{{t:{int(moment.timestamp())}:{style}}}"


def channel(channel_id: int) -> str:
    """A channel (or thread) marked for the front end to write: the service's only way to
    name one."""
    return f"{{#{channel_id}}}"


def role(role_id: int) -> str:
    """A server role marked for the front end to write."""
    return f"{{&{role_id}}}"


def link(label: str, url: str) -> str:
    """A web page, ``url``, marked for the front end to write, named ``label`` (``Game
    page``)."""
    return f"{{link:{label}|{url}}}"


def press(button: str, *, one: bool = False) -> str:
    """Clicking ``button`` (one of :data:`BUTTONS`), marked: "click **Rematch**", or
    with ``one`` person doing it, "clicks **Rematch**"."""
    if button not in BUTTONS:
        raise ValueError(f"no terminal command stands for the {button} button")
    return f"{{press{'es' if one else ''}:{button}}}"


def unix_moment(seconds: int) -> datetime | None:
    """The moment ``seconds`` after 1970 (UTC); None outside the years 1-9999, which no
    calendar here holds (a Discord timestamp typed by hand may name one)."""
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        return None


def plain(text: str) -> str:
    """``text`` for the terminal: each moment as ``2026-12-01 18:00 UTC`` (one that names
    no moment, typed by someone, as typed), each command as the terminal types it, a
    channel as its table, a button as its command."""

    def moment(match: re.Match[str]) -> str:
        at = unix_moment(int(match[1]))
        return match[0] if at is None else at.strftime("%Y-%m-%d %H:%M UTC")

    text = _WHEN.sub(moment, text)
    text = _CHANNEL.sub(lambda match: f"table {match[1]}", text)
    text = _ROLE.sub(lambda match: f"role {match[1]}", text)
    text = _LINK.sub(lambda match: f"{match[1]}: {match[2]}", text)
    text = _PRESS.sub(lambda match: f"type{'s' if match[1] else ''} `{BUTTONS[match[2]]}`", text)
    text = _COMMAND.sub(lambda match: f"`/{typed(match[1])}`", text)
    return _ALONE.sub(lambda match: f"`{typed(match[1])}`", text)


def typed(span: str) -> str:
    """A command (or option) as Discord types it, ``game board move:N``, as the terminal
    does: ``board move=N``. A game's command drops ``game`` (the terminal's are one word);
    each option is ``name=value``, and a value runs up to the next option, quoted if it
    holds a space (``name="Spring Cup"``)."""
    words = span.split(" ")
    if words[0] == "game" and len(words) > 1 and words[1][:1].isalpha():
        words = words[1:]
    command: list[str] = []
    options: list[list[str]] = []  # [name, value words...]
    for word in words:
        option = _OPTION.fullmatch(word)
        if option:
            options.append([option[1], *filter(None, [option[2]])])
        elif options:
            options[-1].append(word)
        else:
            command.append(word)
    for name, *value in options:
        text = " ".join(value)
        command.append(f'{name}="{text}"' if " " in text else f"{name}={text}")
    return " ".join(command)


def for_discord(text: str, mention: Mention | None = None) -> str:
    """``text`` for Discord: each moment a live timestamp, each channel and role a
    mention, each button its name to click, and each command reference a mention (its
    arguments kept as code after it) where ``mention`` knows the command."""
    text = _WHEN.sub(_timestamp, text)
    text = _CHANNEL.sub(lambda match: f"<#{match[1]}>", text)
    text = _ROLE.sub(lambda match: f"<@&{match[1]}>", text)
    text = _LINK.sub(lambda match: f"[{match[1]}](<{match[2]}>)", text)
    text = _PRESS.sub(lambda match: f"click{'s' if match[1] else ''} **{match[2]}**", text)
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
