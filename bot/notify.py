"""Where a notice for one user goes, by their ``/settings``: the one place that decides it.

Turn pings, reminders and deadline warnings all ask :func:`routes`; a channel notice is a
mention in the game's channel, a DM waits in the outbox until the user's quiet hours end.
No Discord here.
"""

from __future__ import annotations

from datetime import datetime

from bot.clocks import quiet_until
from bot.store import Settings

VIAS = {"channel": ("channel",), "dm": ("dm",), "both": ("channel", "dm"), "off": ()}


def in_quiet_hours(settings: Settings, now: datetime) -> datetime | None:
    """When the user's quiet hours end, if ``now`` falls inside them (else None)."""
    return quiet_until(settings.quiet, settings.timezone, now)


def routes(settings: Settings, now: datetime) -> list[tuple[str, datetime]]:
    """Each way a notice reaches the user (``channel``, ``dm``) and when it may be sent."""
    return [
        (via, (in_quiet_hours(settings, now) or now) if via == "dm" else now)
        for via in VIAS[settings.notify]
    ]
