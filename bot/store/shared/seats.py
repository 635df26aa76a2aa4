"""A game's seats as the play-by-post rules read them, written once: the columns a wait
is read from, the game a version bump leaves (:class:`Game`), and when each seat's wait
is next due."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bot.domain.clocks import Clocks, Seat, Wait, next_due
from bot.store.rows import iso

#: a game's play-by-post timing, in the order of :class:`~bot.domain.clocks.Clocks`
CLOCK_COLUMNS = (
    "move_hours",
    "deadline_policy",
    "remind_hours",
    "reminder_limit",
    "reaction_hours",
)
#: a game's columns a wait needs, as the bump leaves them (:class:`Game`)
GAME = (
    "id, guild_id, channel_id, game_key, version, status, move_hours, deadline_policy, "
    "remind_hours, reminder_limit, reaction_hours, rated, status_message_id"
)
#: a seat's columns a wait needs (:class:`~bot.domain.clocks.Seat`), its player's settings joined
SEAT = (
    "s.seat, s.user_id, s.name, s.awaiting, s.place, s.score, s.turn_since, s.deadline, "
    "s.reminders, s.snoozed, s.warned, s.reacting, s.paused_hours, s.extended_hours, "
    "s.told_next, u.vacation_until, s.ai, u.remind_hours, u.digest_hour IS NOT NULL"
)
#: every column a :class:`~bot.domain.clocks.Wait` is made of, for one seat and its game, and
#: their tables
WAIT_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.game_key, g.version, s.seat, s.user_id, "
    "s.name, s.turn_since, s.deadline, s.reminders, s.snoozed, s.warned, "
    "g.move_hours, g.deadline_policy, g.remind_hours, g.reminder_limit, "
    "g.reaction_hours, u.vacation_until, s.reacting, s.ai, u.remind_hours, "
    "u.digest_hour IS NOT NULL"
)
WAIT_TABLES = (
    "seats s JOIN games g ON g.id = s.game_id LEFT JOIN user_settings u ON u.user_id = s.user_id"
)
#: where :data:`SEAT` has a yes or no: SQLite stores it as 0 or 1
_YES_NO = tuple(
    i
    for i, f in enumerate(fields(Seat))
    if f.name in ("awaiting", "snoozed", "warned", "reacting", "told_next", "digest")
)


def wait(row: Sequence) -> Wait:
    """A :class:`~bot.domain.clocks.Wait` read as :data:`WAIT_COLUMNS`."""
    values = [
        *row[:11],
        bool(row[11]),
        bool(row[12]),
        Clocks(*row[13:18]),
        row[18],
        bool(row[19]),
        row[20],
        row[21],
        bool(row[22]),
    ]
    return Wait(*values)


def seat_of(row: Sequence) -> Seat:
    """A :class:`~bot.domain.clocks.Seat` read as :data:`SEAT` (a yes or no as a bool, whichever
    way the database stores it)."""
    values = list(row)
    for i in _YES_NO:
        values[i] = bool(values[i])
    return Seat(*values)


@dataclass(frozen=True)
class Game:
    """A game as the version bump left it, and its seats as they were."""

    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    version: int
    status: str
    clocks: Clocks
    rated: bool
    #: where the channel's status of it is pinned: set without moving the version, so
    #: the move reads it here for the status it pins (:class:`~bot.store.rows.Recorded`)
    status_message_id: int | None
    seats: tuple[Seat, ...]
    seq: int | None = None  # the log entry the bump appended, if any

    @classmethod
    def read(cls, row: Sequence, seats: Sequence[Seat], seq: int | None = None) -> Game:
        """The game from its row read as :data:`GAME`."""
        values = [*row[:6], Clocks(*row[6:11]), bool(row[11]), row[12], tuple(seats), seq]
        return cls(*values)

    @property
    def moves_ratings(self) -> bool:
        """Whether its result moves ratings: opened rated, two seats or more, no AI seat
        (AI players are never rated)."""
        return self.rated and len(self.seats) >= 2 and all(s.ai is None for s in self.seats)


def due_at(game: Game, seat: Seat) -> str | None:
    """When this seat's wait is next due (None: a seat no active game waits for)."""
    if not seat.awaiting or game.status != "active":
        return None
    return next_at(
        Wait(
            game.id, game.guild_id, game.channel_id, game.game_key, game.version, seat.seat,
            seat.user_id, seat.name, seat.turn_since, seat.deadline, seat.reminders,
            seat.snoozed, seat.warned, game.clocks, seat.vacation_until, seat.reacting,
            seat.ai, seat.own_remind_hours, seat.digest,
        )
    )  # fmt: skip


def next_at(w: Wait) -> str | None:
    """:func:`bot.domain.clocks.next_due` as stored."""
    moment = next_due(w)
    return None if moment is None else iso(moment)
