"""What the store hands back (plain rows, one dataclass per kind) and the few values a
write takes beside its arguments, and the stored time format.

Every store (SQLite, PostgreSQL) returns these, so the application layer
never sees a driver's row type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.domain.clocks import Clocks
from bot.domain.clocks import (
    iso as iso,  # the stored time format: the play-by-post rules speak it too
)
from bot.domain.ratings import Rating

#: how the ratings feature rates one game: (ratings before, places) -> ratings after
Rate = Callable[[Sequence[Rating], Sequence[int]], list[Rating]]


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    status: str
    options: dict
    seed: int
    state: str | None
    version: int
    creator_id: int
    created_at: str
    updated_at: str
    status_message_id: int | None = None  # the channel's pinned status of this game
    #: what of the stored row is damaged, one sentence each (:mod:`bot.store.damage`)
    damage: tuple[str, ...] = ()
    #: the game's play-by-post timing, where it was read with the row (a game loaded with
    #: its seats): the move's notices need it, and a trip to the database of its own
    #: would cost more than the columns
    clocks: Clocks | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    awaiting: bool
    place: int | None
    score: int | None
    deadline: str | None = None
    ai: str | None = None  # an AI seat's level; None for a person

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    user_id: int
    kind: str
    action: str
    created_at: str


@dataclass(frozen=True)
class PlayedGame:
    """A game as a player's page lists it: which, how it stands, their seat in it."""

    game_id: int
    game_key: str
    status: str
    updated_at: str
    name: str  # the player's name in it
    place: int | None  # once it is over
    listed: bool = False  # its server's managers turned the server's page on


@dataclass(frozen=True)
class MoveRecord:
    """One entry of a game's log and everything stored with it, in the move's own
    transaction (:meth:`~bot.store.interface.Games.record`): a new concern of a move is a
    field here, not a parameter of every store's ``record``.

    ``results`` (place, score per seat) finishes the game; ``rate`` then moves the
    players' ratings if the game is rated, and ``attempt`` settles the daily attempt
    played in it. ``notices`` are "your turn" DMs (user, text, due at) for the waits the
    move starts; ``heads_ups`` "you're next" notices (user, via, text, due at), each
    queued only for a seated player not awaited who has not been told since their own
    last turn began (then they have been). ``announce`` (a note, due at) queues a
    ``board`` notice standing in for the move's public post, for a move no one is there
    to be answered: due to be posted then, unless the move's own post claims it first
    (:meth:`~bot.store.interface.Notices.claim_announcement`). ``seen`` are the seats
    the move was decided on (who holds each, who is awaited and until when): the move
    is refused as stale if the game's seats are no longer so, as if its version had
    moved, since a seat changes hands or deadline without moving it."""

    seat: int
    user_id: int
    action: str  # the move's notation; for an undo, how many moves it takes back
    state: str  # the stored state the move leads to
    awaiting: tuple[int, ...]  # the seats the game waits for after it
    kind: str = "move"  # move, undo, skip
    reacting: bool = False  # those awaited answer in an out-of-turn window
    results: Sequence[tuple[int, int]] | None = None
    attempt: Attempt | None = None
    rate: Rate | None = None
    notices: Sequence[tuple[int, str, str]] = ()
    heads_ups: Sequence[tuple[int, str, str, str]] = ()
    announce: tuple[str, str] | None = None
    seen: tuple[SeatRow, ...] | None = None


@dataclass(frozen=True)
class Recorded:
    """What a move's transaction left (:meth:`~bot.store.interface.Games.record`): its
    log entry's seq, and the game's seats as the play-by-post rules left them (who is
    awaited, each wait's deadline, places and scores once over), so what is said after
    the move (the pinned status, where it is pinned) needs no second read of the game."""

    seq: int
    seats: list[SeatRow]
    status_message_id: int | None = None


@dataclass(frozen=True)
class UndoRequest:
    user_id: int
    moves: int
    version: int
    agreed: frozenset[int]


@dataclass(frozen=True)
class Rematch:
    """Who has asked to play a finished game again, and the game its rematch opened (None
    until then): a rematch is agreed once, for one new game."""

    agreed: frozenset[int] = frozenset()
    opened: int | None = None


@dataclass(frozen=True)
class Awaiting:
    """A game that waits for one user, for "my turns"."""

    game_id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    since: str
    deadline: str | None = None
    version: int = 0  # the game's position, for a Play button offered with it


@dataclass(frozen=True)
class Notice:
    """A message to deliver: in the game's channel with a mention, or as a DM. A daily
    digest belongs to no one game: it has none, and no channel."""

    id: int
    game_id: int | None
    guild_id: int | None
    channel_id: int | None
    user_id: int
    via: str
    kind: str
    text: str
    turn_since: str | None  # the wait it belongs to: a reminder's Snooze button names it
    attempts: int  # delivery attempts so far, this one included
    seq: int | None = None  # a ``board`` notice's move: the one it announces
    #: the claim it was taken under (who holds it), checked again just before it is sent
    claim: str | None = None


@dataclass(frozen=True)
class Settings:
    notify: str = "channel"  # channel, dm, both, off
    timezone: str = "UTC"
    quiet_start: int | None = None  # hour of day, local time
    quiet_end: int | None = None
    vacation_days: float = 14.0
    vacation_until: str | None = None
    remind_hours: float | None = None  # the player's own reminder cadence; None: each game's
    digest_hour: int | None = None  # a daily digest at this local hour replaces reminders
    heads_up: bool = False  # told when the player before them begins their turn

    @property
    def quiet(self) -> tuple[int, int] | None:
        """The quiet hours (start, end), if any."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        return self.quiet_start, self.quiet_end


@dataclass(frozen=True)
class LeagueRow:
    guild_id: int
    channel_id: int
    name: str
    game_key: str
    format: str
    table_size: int
    rounds: int | None
    points: tuple[int, ...]
    bye_points: int | None
    round_hours: float
    move_hours: float | None
    seed: int
    created_by: int
    id: int = 0
    status: str = "open"
    round: int = 0
    round_deadline: str | None = None
    starts_at: str | None = None
    #: the league's latest news (its round's announcement, or its final standings) is
    #: stored but not posted yet
    news_pending: bool = False


@dataclass(frozen=True)
class Member:
    user_id: int
    name: str
    dropped: bool


@dataclass(frozen=True)
class Match:
    """One table (or bye) of a league round, and once settled its outcome."""

    id: int
    round: int
    kind: str
    players: tuple[int, ...]
    game_id: int | None
    places: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    forfeiting: tuple[int, ...]
    settled: bool
    game_status: str | None
    channel_id: int | None
    post_pending: bool = False  # its game is open, its first board not posted yet


@dataclass(frozen=True)
class Drawn:
    """A match of a round's draw: a table to play (``places`` None), or a bye or a
    forfeit settled as it is drawn (its places, and who forfeits)."""

    kind: str
    players: tuple[int, ...]
    places: tuple[int, ...] | None = None
    forfeiting: tuple[int, ...] = ()


@dataclass(frozen=True)
class Fence:
    """The lease a write is made under: ``name`` held by ``holder``, renewed to ``until``
    by the write itself. A holder that holds it no more (it ran out, or another process
    took it) has its write refused: :class:`~bot.store.faults.LeaseLost`, nothing kept."""

    name: str
    holder: str
    until: datetime


@dataclass(frozen=True)
class Opening:
    """A game started in the transaction that creates it: its first state, whom it awaits,
    and whom that tells (as :meth:`~bot.store.interface.Games.start` takes them); with
    what the game is played for, linked in the same transaction: a league ``match``
    (opened under ``fence``, its board then due to be posted) or the daily challenge
    (``entry``: the creator's attempt at that day's, and the server whose daily channel
    shares its result, if any), or the ``rematch`` of a finished game."""

    state: str
    awaiting: tuple[int, ...]
    heads_ups: Sequence[tuple[int, str, str, str]] = ()
    notices: Sequence[tuple[int, str, str]] = ()
    match: int | None = None
    fence: Fence | None = None
    entry: tuple[str, int | None] | None = None
    #: the finished game whose rematch this is, and the user whose agreement completes
    #: it: noted, and the rematch marked opened by this game, in the same transaction
    rematch: tuple[int, int] | None = None


@dataclass(frozen=True)
class Entry:
    """One user's attempt at one day's challenge, with its game's state of play."""

    day: str
    user_id: int
    name: str
    guild_id: int | None
    game_id: int
    status: str  # playing, won, tied, lost
    total: int | None
    euler: int | None
    game_status: str
    channel_id: int
    share_pending: bool = False  # settled, its share line not posted yet

    @property
    def margin(self) -> int:
        return (self.total or 0) - (self.euler or 0)


@dataclass(frozen=True)
class Attempt:
    """How a game against the rulebook's opponent ended: won, tied or lost, and the
    totals, as the daily challenge records it (none for a game called off whose damaged
    state held them)."""

    status: str
    total: int | None
    euler: int | None
