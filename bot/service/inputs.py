"""The values people type, parsed and range-checked in one place.

Both front ends (the Discord cogs and the terminal) and the service parse durations,
counts, dates, time zones and ``name=value`` options with these functions, so a value
is judged the same way wherever it comes from. A value that is not understood, or is
out of range, raises :class:`Refused` with a sentence naming the option, the value (cut
short if long) and what is allowed — before anything is stored. Each range is named
once, below, so a refusal always states the range that is checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain.clocks import MOVE_HOURS, OWN_REMIND_HOURS, REACTION_HOURS, REMIND_HOURS, Clocks
from bot.service.marks import unix_moment

#: a value longer than this is shown cut short in a refusal
SHOWN = 30
#: no duration, date or time zone anyone means is longer than this
LONGEST_VALUE = 40


class Refused(Exception):
    """A request that was not carried out; the message is for the asker only.

    It lives here, below the service, because the parsers raise it too; the service
    re-exports it as ``bot.service.Refused``.
    """


@dataclass(frozen=True)
class Span:
    """The durations an option allows, in hours (the unit the store keeps)."""

    option: str
    low: float
    high: float

    def __str__(self) -> str:
        return f"between {format_hours(self.low)} and {format_hours(self.high)}"


MINUTE = 1 / 60
DAY = 24.0
TIME_PER_MOVE = Span("time_per_move", *MOVE_HOURS)
REMIND_EVERY = Span("remind_every", *REMIND_HOURS)
REACTION_WINDOW = Span("reaction_window", *REACTION_HOURS)
EXTEND_BY = Span("by", 1.0, 60 * DAY)
ROUND_TIME = Span("round_time", 1.0, 90 * DAY)
LEAGUE_MOVE_TIME = Span("move_time", MINUTE, 60 * DAY)
LEAGUE_STARTS = Span("starts", MINUTE, 365 * DAY)
VACATION = Span("days", 1.0, 60 * DAY)
REMINDERS = Span("reminders", *OWN_REMIND_HOURS)
#: what ``/settings reminders:`` takes besides a cadence of the player's own
REMINDER_WORDS = {
    "game": "each game's own reminders (its remind_every)",
    "digest": "one message a day listing every game waiting for you",
}

#: whole-number ranges, inclusive: reminders per wait, league rounds, seats per league
#: table, league points for a place, and a position in a game's history
REMINDER_LIMIT = (0, 10)
LEAGUE_ROUNDS = (1, 50)
TABLE_SIZE = (2, 6)
PLACE_POINTS = (0, 100)
MOVE_NUMBERS = (0, 1_000_000)

_UNITS = {
    "w": 7 * DAY, "week": 7 * DAY, "weeks": 7 * DAY,
    "d": DAY, "day": DAY, "days": DAY,
    "h": 1.0, "hr": 1.0, "hrs": 1.0, "hour": 1.0, "hours": 1.0,
    "m": MINUTE, "min": MINUTE, "mins": MINUTE, "minute": MINUTE, "minutes": MINUTE,
}  # fmt: skip
_NUMBER = r"(?:[0-9]{1,6}(?:\.[0-9]{1,6})?|\.[0-9]{1,6})"  # ASCII: float() reads "٣" too
_PART = re.compile(rf"({_NUMBER})\s*([a-z]+)")
_PARTS = re.compile(rf"(?:{_NUMBER}\s*[a-z]+[\s,]*)+")
_BARE = re.compile(_NUMBER)


#: what no database keeps in a text: a NUL (PostgreSQL's text cannot hold one; SQLite's
#: can, so both refuse it alike) and a lone surrogate (no UTF-8 at all)
_UNKEEPABLE = re.compile("[\x00\ud800-\udfff]")


def check_text(text: str, what: str) -> str:
    """``text`` itself if it can be stored; else refused, naming ``what`` and the
    character, before anything is stored or looked up with it."""
    found = _UNKEEPABLE.search(text)
    if found:
        raise Refused(
            f"{what} holds a character that can't be stored (U+{ord(found[0]):04X}); "
            "please leave it out."
        )
    return text


def shown(value: object) -> str:
    """``value`` fit to quote in a refusal: one line, short, no stray code marks."""
    text = " ".join(str(value).split()).replace("`", "'")
    return f"`{text[:SHOWN]}…`" if len(text) > SHOWN else f"`{text}`"


def format_hours(hours: float) -> str:
    """``90 minutes``, ``1 hour``, ``36 hours``, ``3 days``: as people say a duration."""
    if hours < 1:
        minutes = round(hours * 60)
        return "1 minute" if minutes == 1 else f"{minutes:g} minutes"
    if hours >= 48 and hours % 24 == 0:
        return f"{hours / 24:g} days"
    return "1 hour" if hours == 1 else f"{hours:g} hours"


def parse_hours(text: str, span: Span, bare: float = 1.0) -> float:
    """``3d``, ``12h``, ``90m``, ``1w``, ``2 days``, ``1d 12h``, ``1.5h`` as hours, in ``span``.

    A bare number counts in ``bare`` hours (hours, unless the option is in days).
    """
    clean = text.strip().lower()
    hours = _read_hours(clean, bare) if len(clean) <= LONGEST_VALUE else None
    if hours is None:
        raise Refused(
            f"{span.option}: {shown(text)} is not a duration; write e.g. `3d`, `12h`, `90m` "
            f"or `1w` ({span})."
        )
    return check_hours(hours, span, text)


def _read_hours(clean: str, bare: float) -> float | None:
    if _BARE.fullmatch(clean):
        return float(clean) * bare
    if not _PARTS.fullmatch(clean):
        return None
    parts = _PART.findall(clean)
    if any(unit not in _UNITS for _, unit in parts):
        return None
    return sum(float(number) * _UNITS[unit] for number, unit in parts)


def parse_reminders(text: str) -> float | str:
    """``/settings reminders:`` as typed: ``game``, ``digest``, or a cadence of the
    player's own (``12h``, ``3d``) in hours, within :data:`REMINDERS`."""
    clean = text.strip().lower()
    if clean in REMINDER_WORDS:
        return clean
    hours = _read_hours(clean, 1.0) if len(clean) <= LONGEST_VALUE else None
    if hours is None:
        raise Refused(
            f"reminders: {shown(text)} is not a choice; write a duration like `12h`, `24h` "
            f"or `3d` ({REMINDERS}), `digest` (one message a day) or `game` (each "
            "game's own)."
        )
    return check_hours(hours, REMINDERS, text)


def check_hours(hours: object, span: Span, typed: object = None) -> float:
    """``hours`` itself if it is a finite number inside ``span``; else refused.

    The service calls this on values that reach it from any front end, so a NaN or a
    zero never gets as far as the database or the scheduler.
    """
    # a bool is no number here; NaN compares false, so it is refused too
    if (
        isinstance(hours, bool)
        or not isinstance(hours, int | float)
        or not span.low <= hours <= span.high
    ):
        shown_value = shown(hours if typed is None else typed)
        raise Refused(f"{span.option} must be {span}; {shown_value} is not.")
    return float(hours)


def check_count(value: object, option: str, bounds: tuple[int, int]) -> int:
    """A whole number inside ``bounds`` (inclusive), or refused naming ``option``."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(
            f"{option} must be a whole number from {low} to {high}; {shown(value)} is not."
        )
    return value


def parse_clocks(
    time_per_move: str | None,
    at_deadline: str | None,
    remind_every: str | None,
    reaction_window: str | None,
) -> Clocks:
    """``/game new``'s timing options as typed (None: the default) as checked :class:`Clocks`."""
    return clocks_of(
        parse_hours(time_per_move, TIME_PER_MOVE) if time_per_move else None,
        at_deadline,
        parse_hours(remind_every, REMIND_EVERY) if remind_every else None,
        parse_hours(reaction_window, REACTION_WINDOW) if reaction_window else None,
    )


def clocks_of(
    move_hours: float | None,
    policy: str | None,
    remind_hours: float | None,
    reaction_hours: float | None,
) -> Clocks:
    """A game's timing from options already read, each ``None`` for its default."""
    default = Clocks()
    return Clocks(
        move_hours=move_hours,
        policy=default.policy if policy is None else policy,
        remind_hours=default.remind_hours if remind_hours is None else remind_hours,
        reaction_hours=default.reaction_hours if reaction_hours is None else reaction_hours,
    )


def check_clocks(clocks: Clocks) -> None:
    """Refuse timing no front end should have let through (a NaN, a zero, a huge count).

    The service calls this whatever the caller, so a bad value never reaches the store,
    where SQLite would turn a NaN into NULL and the scheduler would divide by a zero.
    """
    if clocks.move_hours is not None:
        check_hours(clocks.move_hours, TIME_PER_MOVE)
    check_hours(clocks.remind_hours, REMIND_EVERY)
    check_hours(clocks.reaction_hours, REACTION_WINDOW)
    check_count(clocks.reminder_limit, "reminder_limit", REMINDER_LIMIT)


def parse_whole(text: str, option: str, bounds: tuple[int, int]) -> int:
    """A whole number typed in ASCII digits (``str.isdigit`` also takes ``²``, which
    ``int`` then rejects, and ``int`` refuses 5,000 digits with a ValueError)."""
    clean = text.strip()
    if not re.fullmatch(r"[0-9]{1,12}", clean):
        low, high = bounds
        raise Refused(
            f"{option} must be a whole number from {low} to {high}; {shown(text)} is not."
        )
    return check_count(int(clean), option, bounds)


#: a Discord timestamp as a person pastes it: ``<t:1764612000>`` or ``<t:1764612000:f>``
_DISCORD_TIME = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")
#: an offset from UTC after a date and time: ``UTC``, ``UTC+1``, ``GMT-05:30``
_UTC_OFFSET = re.compile(
    r"(?P<at>.+?)\s*(?:UTC|GMT)(?:(?P<sign>[+-])(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?)?",
    re.IGNORECASE,
)


def parse_start(text: str, now: datetime, zone: str = "UTC") -> datetime:
    """A league's start: a date and time in the organiser's time zone ``zone`` (their
    ``/settings``) unless it names an offset from UTC, a Discord timestamp, or a delay.

    It must lie in the future and within :data:`LEAGUE_STARTS` of ``now``.
    """
    clean = text.strip()
    moment = _moment(clean, zone) if len(clean) <= LONGEST_VALUE else None
    if moment is None:
        if _read_hours(clean.lower(), 1.0) is None:
            raise Refused(
                f"starts: {shown(text)} is not a duration or a date; write {_starts_forms(zone)}."
            )
        return now + timedelta(hours=parse_hours(clean, LEAGUE_STARTS))
    if not now < moment <= now + timedelta(hours=LEAGUE_STARTS.high):
        raise Refused(
            f"starts must be in the future and at most {format_hours(LEAGUE_STARTS.high)} away "
            f"({_starts_forms(zone)}); {shown(text)} is not."
        )
    return moment


def _starts_forms(zone: str) -> str:
    """Every way of writing a league's start, for the refusals that list them."""
    return (
        f"a date and time in your time zone ({zone}, from `/settings`) like `2026-12-01 18:00`, "
        "one with its offset from UTC like `2026-12-01 18:00+01:00` or `2026-12-01 18:00 UTC-5`, "
        "a Discord timestamp like `<t:1796148000>`, or a delay like `3d`"
    )


def _moment(clean: str, zone: str) -> datetime | None:
    """The moment ``clean`` names, or None if it names none (it may be a delay)."""
    stamp = _DISCORD_TIME.fullmatch(clean)
    if stamp:
        seconds = int(stamp[1])
        far = (datetime.max if seconds > 0 else datetime.min).replace(tzinfo=UTC)
        return unix_moment(seconds) or far  # past the years 1-9999: as far as can be
    offset = _UTC_OFFSET.fullmatch(clean)
    tz: timezone | ZoneInfo = ZoneInfo(zone)
    if offset:
        sign = -1 if offset["sign"] == "-" else 1
        hours, minutes = int(offset["h"] or 0), int(offset["m"] or 0)
        if hours > 14 or minutes > 59:  # no place on Earth is further from UTC
            return None
        tz = timezone(sign * timedelta(hours=hours, minutes=minutes))
        clean = offset["at"]
    try:
        moment = datetime.fromisoformat(clean.replace(" ", "T"))
    except ValueError:
        return None
    if moment.tzinfo is not None and offset:  # two zones at once: which one is meant?
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=tz)


def parse_timezone(text: str) -> str:
    """An IANA time zone name such as ``Europe/Berlin``; nothing the system says escapes."""
    name = text.strip()
    try:
        known = 0 < len(name) <= LONGEST_VALUE and ZoneInfo(name) is not None
    except (ZoneInfoNotFoundError, ValueError, OSError):
        known = False
    if not known:
        raise Refused(
            f"timezone: {shown(text)} is not a time zone I know; write an IANA name such as "
            "`Europe/Berlin`, `America/New_York` or `UTC`."
        )
    return name


def parse_options(text: str) -> dict[str, str]:
    """``start=ii-2-3 advanced=on`` as a dict; the game itself judges names and values."""
    options: dict[str, str] = {}
    for token in text.replace(",", " ").split():
        name, equals, value = token.partition("=")
        if not equals or not name or not value:
            raise Refused(
                f"'{token[:SHOWN]}' is not an option: write name=value, e.g. `start=ii-2-3 "
                "advanced=on` (each game's options are in `/game rules`)."
            )
        options[name.lower()] = value
    return options
