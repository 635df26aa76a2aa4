"""Where a notice for one user goes, by their ``/settings``: the one place that decides it.

Turn pings, reminders and deadline warnings all ask :func:`routes`; a channel notice is a
mention in the game's channel, a DM waits in the outbox until the user's quiet hours end.
No Discord here.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.store import Settings

VIAS = {"channel": ("channel",), "dm": ("dm",), "both": ("channel", "dm"), "off": ()}


def in_quiet_hours(settings: Settings, now: datetime) -> datetime | None:
    """When the user's quiet hours end, if ``now`` falls inside them (else None)."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(ZoneInfo(settings.timezone))
    quiet = start <= local.hour < end if start < end else (local.hour >= start or local.hour < end)
    if not quiet:
        return None
    ends = datetime.combine(local.date(), time(end), tzinfo=local.tzinfo)
    if ends <= local:
        ends += timedelta(days=1)
    return ends


def routes(settings: Settings, now: datetime) -> list[tuple[str, datetime]]:
    """Each way a notice reaches the user (``channel``, ``dm``) and when it may be sent."""
    return [
        (via, (in_quiet_hours(settings, now) or now) if via == "dm" else now)
        for via in VIAS[settings.notify]
    ]
