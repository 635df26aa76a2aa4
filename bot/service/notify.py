"""Where a notice for one user goes, by their ``/settings``: the one place that decides it.

Turn pings, reminders and deadline warnings all ask :func:`routes`; a channel notice is a
mention in the game's channel, a DM waits in the outbox until the user's quiet hours end.
No Discord here.
"""

from __future__ import annotations

from datetime import datetime

from bot.domain.clocks import quiet_until
from bot.store import Settings

VIAS = {"channel": ("channel",), "dm": ("dm",), "both": ("channel", "dm"), "off": ()}


def routes(settings: Settings, now: datetime) -> list[tuple[str, datetime]]:
    """Each way a notice reaches the user (``channel``, ``dm``) and when it may be sent:
    a DM when the user's quiet hours end, if ``now`` falls inside them."""
    dm_at = quiet_until(settings.quiet, settings.timezone, now) or now
    return [(via, dm_at if via == "dm" else now) for via in VIAS[settings.notify]]
