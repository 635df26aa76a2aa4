"""Every Discord permission Bridgekeeper uses, what it is for, and which a channel lacks.

Interaction replies need no channel permission, so a bot missing one seems to work until
the first deadline move, reminder or status pin fails with nobody watching. The commands
that set a channel up (``/game new``, ``/league create``, ``/daily setup``) therefore
check the bot's permissions there first and say, privately, what is missing and what
will not work without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Need:
    flag: str  # the attribute of discord.Permissions
    name: str  # as Discord's channel settings name it
    why: str  # what does not work without it


VIEW = Need("view_channel", "View Channel", "to see the channel at all")
SEND = Need(
    "send_messages",
    "Send Messages",
    "to post boards, reminders, moves made at a deadline and the game's status",
)
SEND_IN_THREADS = Need(
    "send_messages_in_threads", "Send Messages in Threads", "to post in threads (league matches)"
)
ATTACH = Need("attach_files", "Attach Files", "to attach the board pictures")
PIN = Need("pin_messages", "Pin Messages", "to pin each game's status message")
CREATE_THREADS = Need(
    "create_public_threads", "Create Public Threads", "to open a thread for each league match"
)
MANAGE_THREADS = Need(
    "manage_threads", "Manage Threads", "to archive a finished game's thread (`/game archive`)"
)

EVERY = (VIEW, SEND, SEND_IN_THREADS, ATTACH, PIN, CREATE_THREADS, MANAGE_THREADS)

#: what each set-up command cannot do without, and what it can do without but poorly
GAME = ((VIEW, SEND, ATTACH), (PIN,))
LEAGUE = ((VIEW, SEND, CREATE_THREADS, SEND_IN_THREADS, ATTACH), (PIN,))
DAILY = ((VIEW, SEND), ())


def invite_permissions() -> discord.Permissions:
    """Everything the bot asks for when it is invited."""
    return discord.Permissions(**{need.flag: True for need in EVERY})


def lacking(granted: discord.Permissions, needs: Iterable[Need], *, thread: bool) -> list[Need]:
    """The ``needs`` not granted; in a thread, Send Messages in Threads stands in for
    Send Messages."""
    wanted = [SEND_IN_THREADS if thread and n is SEND else n for n in needs]
    return [n for n in dict.fromkeys(wanted) if not getattr(granted, n.flag)]


def describe(missing: Sequence[Need]) -> str:
    """``**Attach Files** (to attach the board pictures) and **Pin Messages** (…)``."""
    items = [f"**{n.name}** ({n.why})" for n in missing]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


HOW = "A server manager can grant them in the channel's settings, under Permissions."


def check(
    granted: discord.Permissions,
    needs: tuple[Sequence[Need], Sequence[Need]],
    what: str,
    *,
    thread: bool,
) -> tuple[str | None, str | None]:
    """(a refusal if an essential permission is missing, a warning if a lesser one is).

    ``what`` is what the command would set up, e.g. "host a game"."""
    essential, lesser = needs
    missing = lacking(granted, essential, thread=thread)
    if missing:
        return f"I can't {what} here: in this channel I lack {describe(missing)}. {HOW}", None
    missing = lacking(granted, lesser, thread=thread)
    if missing:
        return None, f"Note: in this channel I lack {describe(missing)}. {HOW}"
    return None, None
