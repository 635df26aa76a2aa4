"""Play-by-post rules: a game's clocks, a seat's wait, and when something is due for it;
who a move starts waiting and how (:func:`awaited`), who is told they are next
(:func:`tell_next`), what a vacation and an extension do to a deadline; a player's quiet
hours, and when their daily digest comes.

Written once, used by every store: each reads a game's seats, applies these rules and
writes back what they return, in the transaction of the move, so no store has a rule of
its own to drift from another's. One rule is used twice: the scheduler asks :func:`due`
what to do for a wait now, and the store keeps :func:`next_due` of every wait in an index,
written in the same transaction as whatever moved it, so each minute's tick reads only
the waits that are due. Both read the same functions, so the index can never say "later"
where the tick would say "now". Pure: no I/O, no clock of its own, nothing of ours
imported, so any store can use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

#: the hours each clock may take (the ranges ``bot.service.inputs`` checks typed values against)
MOVE_HOURS = (1 / 60, 60 * 24.0)
REMIND_HOURS = (1.0, 60 * 24.0)
#: a player's own reminder cadence (``/settings reminders:``), inside the games' range
OWN_REMIND_HOURS = (1.0, 14 * 24.0)
REACTION_HOURS = (5 / 60, 7 * 24.0)
WARN_AT_MOST = timedelta(hours=24)
HOUR = timedelta(hours=1)
#: how long an AI seat pauses before it moves, as a person would, at least and at most
AI_PAUSE = (3.0, 12.0)


@dataclass(frozen=True)
class Clocks:
    """A game's play-by-post timing: time per move, what happens at the deadline, reminders."""

    move_hours: float | None = None
    policy: str = "random"
    remind_hours: float = 24.0
    reminder_limit: int = 3
    reaction_hours: float = 12.0  # how long an out-of-turn window waits for answers


@dataclass(frozen=True)
class Wait:
    """One seat a game waits for, with everything that decides what is due for it."""

    game_id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    version: int
    seat: int
    user_id: int
    name: str
    turn_since: str | None
    deadline: str | None
    reminders: int
    snoozed: bool
    warned: bool
    clocks: Clocks
    vacation_until: str | None
    reacting: bool  # awaited in an out-of-turn window: at the deadline the bot passes
    ai: str | None = None  # an AI seat's level: it moves by itself, after a short pause
    #: the player's own reminder cadence (``/settings``), which overrides the game's
    own_remind_hours: float | None = None
    digest: bool = False  # the player takes a daily digest instead of reminders


@dataclass(frozen=True)
class Seat:
    """One seat as a write finds it in the store, then as the rules leave it: its wait
    and what decides it, with what a move writes beside it (place, score)."""

    seat: int
    user_id: int
    name: str
    awaiting: bool
    place: int | None
    score: int | None
    turn_since: str | None
    deadline: str | None
    reminders: int
    snoozed: bool
    warned: bool
    reacting: bool
    paused_hours: float  # the part of the deadline that is the player's vacation
    extended_hours: float  # what extensions gave this turn
    told_next: bool  # told it is next, since its own last turn began
    vacation_until: str | None
    ai: str | None  # an AI seat's level
    own_remind_hours: float | None  # the player's own reminder cadence
    digest: bool  # the player takes a daily digest instead of reminders


def awaited(
    seats: Iterable[Seat],
    clocks: Clocks,
    now: datetime,
    waiting: Iterable[int],
    mover: int | None = None,
    reacting: bool = False,
) -> list[Seat]:
    """Who the game waits for after a move made at ``now``, and their turn timers: the
    seats as they are to be.

    A seat that starts waiting gets a fresh wait (since now, deadline from the game's
    time per move, or per answer in a reaction window; no reminders sent); a seat that
    keeps waiting keeps its deadline, but acting (``mover``) restarts its reminder clock.
    A player on vacation gets the whole time from their return, and the seat remembers
    that part as vacation, so coming back early takes back only that. A turn of a seat's
    own (not a reaction window) lets it be told it is next once more; a seat no longer
    awaited loses its wait.
    """
    waiting = set(waiting)
    hours = clocks.reaction_hours if reacting else clocks.move_hours
    after = []
    for seat in seats:
        if seat.seat not in waiting:
            seat = replace(
                seat, awaiting=False, turn_since=None, deadline=None, reacting=False,
                paused_hours=0.0, extended_hours=0.0,
            )  # fmt: skip
        elif not seat.awaiting:
            start = counts_from(now, seat.vacation_until)
            seat = replace(
                seat,
                awaiting=True,
                turn_since=iso(now),
                deadline=None if hours is None else iso(start + timedelta(hours=hours)),
                paused_hours=0.0 if hours is None else (start - now) / HOUR,
                reminders=0,
                snoozed=False,
                warned=False,
                reacting=reacting,
                extended_hours=0.0,
                told_next=seat.told_next and reacting,
            )
        elif seat.seat == mover:
            seat = replace(seat, turn_since=iso(now), reminders=0)
        after.append(seat)
    return after


def tell_next(
    seats: Sequence[Seat], heads_ups: Iterable[tuple[int, str, str, str]]
) -> tuple[list[Seat], list[tuple[int, str, str, str]]]:
    """A heads-up at most once a turn: of the "you're next" notices asked for (user, via,
    text, due at), those to queue, and the seats as they are to be. Each goes to a
    seated player not awaited who has not been told since their own last turn began, who
    now has been. ``seats`` are as the move leaves them (:func:`awaited`)."""
    after, queued = list(seats), []
    for user_id, via, text, due_at in heads_ups:
        for i, seat in enumerate(after):
            if seat.user_id == user_id and not seat.awaiting and not seat.told_next:
                after[i] = replace(seat, told_next=True)
                queued.append((user_id, via, text, due_at))
    return after, queued


def vacation_shift(hours: float, paused_hours: float) -> float:
    """How far a vacation of ``hours`` moves a running deadline that holds
    ``paused_hours`` of vacation already: all of it, but coming back early (negative
    ``hours``) takes back at most that part, so a turn that began after the return was
    never pushed and is not shortened."""
    return max(hours, -paused_hours)


def extension_fits(given: float, hours: float, most: float) -> bool:
    """Whether ``hours`` more fit a turn already extended by ``given`` hours, within
    ``most`` a turn (``/game extend`` is capped; a new wait starts again from none)."""
    return given + hours <= most


def iso(moment: datetime) -> str:
    """A moment as it is stored: one fixed format, so stored times compare correctly as
    text (the store's rows and these rules speak it alike)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def warn_before(move_hours: float) -> timedelta:
    """Warn a quarter of the time per move before the deadline, a day at the most."""
    return min(WARN_AT_MOST, timedelta(hours=move_hours) / 4)


def counts_from(now: datetime, vacation_until: str | None) -> datetime:
    """When a wait that begins at ``now`` starts to count: at once, or when the player's
    vacation ends (they get the whole time per move from their return)."""
    back = None if vacation_until is None else datetime.fromisoformat(vacation_until)
    return back if back is not None and back > now else now


def turn_deadline(
    clocks: Clocks, reacting: bool, now: datetime, vacation_until: str | None
) -> datetime | None:
    """The deadline of a wait that begins at ``now``: the game's time per move (per
    answer, in a reaction window) from when it counts; None without one. The stores
    start waits by :func:`counts_from`; the service tells players this moment."""
    hours = clocks.reaction_hours if reacting else clocks.move_hours
    return None if hours is None else counts_from(now, vacation_until) + timedelta(hours=hours)


def on_vacation(wait: Wait, now: datetime) -> bool:
    return wait.vacation_until is not None and datetime.fromisoformat(wait.vacation_until) > now


def within(hours: float, bounds: tuple[float, float]) -> timedelta:
    """``hours`` as a timedelta, brought inside ``bounds``.

    Values are checked before they are stored, but a database written by an older
    version may hold a zero, a negative or a huge interval: a tick must never divide by
    zero or overflow on one, or every game's timers would stall behind it.
    """
    low, high = bounds
    if hours > high:
        return timedelta(hours=high)
    return timedelta(hours=hours if hours >= low else low)


def remind_every(wait: Wait) -> timedelta:
    """The player's own cadence where they chose one, else the game's ``remind_every``."""
    return within(wait.own_remind_hours or wait.clocks.remind_hours, REMIND_HOURS)


def warning_window(wait: Wait) -> timedelta:
    """How long before this wait's deadline its warning comes."""
    if wait.reacting:
        return warn_before(within(wait.clocks.reaction_hours, REACTION_HOURS) / HOUR)
    if wait.clocks.move_hours is None:
        return timedelta(0)
    return warn_before(within(wait.clocks.move_hours, MOVE_HOURS) / HOUR)


def _deadline_step(wait: Wait) -> tuple[str, datetime] | None:
    """The deadline's next step and its moment: the warning, then the deadline itself.

    A deadline always comes after a warning: a wait that reaches its deadline unwarned
    (the bot was down, say) is warned first, and the warning is given its time then.
    """
    if wait.deadline is None:
        return None
    deadline = datetime.fromisoformat(wait.deadline)
    if wait.warned:
        return "deadline", deadline
    return "warning", deadline - warning_window(wait)


def _reminder_at(wait: Wait) -> datetime | None:
    """When this wait's next reminder is due, if one is still to come: none for a player
    who takes the daily digest instead."""
    if wait.turn_since is None or wait.snoozed or wait.digest:
        return None
    if wait.reminders >= wait.clocks.reminder_limit:
        return None
    return datetime.fromisoformat(wait.turn_since) + remind_every(wait) * (wait.reminders + 1)


def ai_pause(game_id: int, version: int) -> timedelta:
    """How long an AI seat waits before it moves in this position: a few seconds, the same
    for every retry and fixed by what everyone sees (the game and its move count), so
    neither a restart nor a secret in the AI's hand changes when it answers."""
    low, high = AI_PAUSE
    spread = (game_id * 2654435761 + version * 40503) % 1000 / 1000
    return timedelta(seconds=low + (high - low) * spread)


def _ai_at(wait: Wait) -> datetime | None:
    if wait.turn_since is None:
        return None
    return datetime.fromisoformat(wait.turn_since) + ai_pause(wait.game_id, wait.version)


def due(wait: Wait, now: datetime) -> str | None:
    """The one thing due for a wait now: ``deadline``, ``warning``, ``reminder`` or None;
    for an AI seat, ``ai`` (its move) once its pause is over, and nothing else."""
    if wait.ai is not None:
        at = _ai_at(wait)
        return "ai" if at is not None and now >= at else None
    if on_vacation(wait, now):
        return None
    step = _deadline_step(wait)
    if step is not None and now >= step[1]:
        return step[0]
    reminder = _reminder_at(wait)
    return "reminder" if reminder is not None and now >= reminder else None


def next_due(wait: Wait) -> datetime | None:
    """The first moment :func:`due` says anything for this wait as it stands (None: it
    never will until the wait changes). Nothing is due during a vacation, so a moment
    that falls in one moves to its end."""
    if wait.ai is not None:
        return _ai_at(wait)
    step = _deadline_step(wait)
    moments = [m for m in (step[1] if step else None, _reminder_at(wait)) if m is not None]
    if not moments:
        return None
    first = min(moments)
    if wait.vacation_until is not None:
        first = max(first, datetime.fromisoformat(wait.vacation_until))
    return first


def quiet_hour(hour: int, quiet: tuple[int, int] | None) -> bool:
    """Whether ``hour`` o'clock falls in quiet hours (``start``, ``end``: whole hours of
    the day; ``start`` after ``end`` spans midnight)."""
    if quiet is None or quiet[0] == quiet[1]:
        return False
    start, end = quiet
    return start <= hour < end if start < end else (hour >= start or hour < end)


def quiet_until(quiet: tuple[int, int] | None, zone: str, now: datetime) -> datetime | None:
    """When quiet hours (of the day in ``zone``) end, if ``now`` falls inside them (else
    None)."""
    local = now.astimezone(ZoneInfo(zone))
    if quiet is None or not quiet_hour(local.hour, quiet):
        return None
    ends = datetime.combine(local.date(), time(quiet[1]), tzinfo=local.tzinfo)
    if ends <= local:
        ends += timedelta(days=1)
    return ends


class DigestSettings(Protocol):
    """What of a player's settings decides their digest (:class:`bot.store.rows.Settings`)."""

    @property
    def digest_hour(self) -> int | None: ...

    @property
    def timezone(self) -> str: ...

    @property
    def quiet(self) -> tuple[int, int] | None: ...


def digest_after(settings: DigestSettings, after: datetime) -> datetime | None:
    """A player's first daily digest after ``after``, as their settings have it (None:
    they take none)."""
    if settings.digest_hour is None:
        return None
    return next_digest(settings.digest_hour, settings.timezone, settings.quiet, after)


def next_digest(hour: int, zone: str, quiet: tuple[int, int] | None, after: datetime) -> datetime:
    """The first daily digest after ``after``: ``hour`` o'clock in ``zone``, or, when that
    falls in the quiet hours, the moment they end (the same day's digest, only later)."""
    local = after.astimezone(ZoneInfo(zone))
    for days in range(3):  # a day ahead at most; three covers a clock change
        moment = datetime.combine(local.date() + timedelta(days=days), time(hour), local.tzinfo)
        if moment > after:
            return quiet_until(quiet, zone, moment) or moment
    raise AssertionError("an hour of the day comes within two days")
