"""What the application layer needs from storage, feature by feature.

One :class:`Store` is all of these. The SQLite store (:mod:`bot.store.sqlite`) is the
default implementation; the PostgreSQL store (:mod:`bot.store.postgres`) implements the
same protocols, and the store's tests are written once, against them. Every write is
one transaction: it happens entirely or not at all, and one that depends on a game's
position names the ``version`` it read, raising :class:`~bot.store.faults.StaleGame`
when another writer moved the game on first. Rows come back as the dataclasses of
:mod:`bot.store.rows`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from pathlib import Path
from typing import Protocol

from bot.domain.clocks import Clocks, Wait
from bot.domain.ratings import Rating
from bot.store.rows import (
    Attempt,
    Awaiting,
    Drawn,
    Entry,
    Fence,
    GameRow,
    LeagueRow,
    Match,
    Member,
    MoveRecord,
    MoveRow,
    Notice,
    Opening,
    PlayedGame,
    Recorded,
    Rematch,
    SeatRow,
    Settings,
    UndoRequest,
)

#: a rating's key: (server, game, user)
RatingKey = tuple[int, str, int]
#: one rated game's seats, in seat order: (user, name, place)
RatedSeats = Sequence[tuple[int, str, int]]
#: a league match settled as a forfeit with the game it is played for: (match, places,
#: the players who forfeit)
Forfeit = tuple[int, Sequence[int], Sequence[int]]
#: how the ratings feature replays every rated game, in order, into a table of ratings
Replay = Callable[[Sequence[tuple[int, str, RatedSeats]]], Mapping[RatingKey, tuple[str, Rating]]]


class Games(Protocol):
    """Games, their seats and their move log: create, join, start, move, undo, resign."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        creator_id: int,
        creator_name: str,
        clocks: Clocks | None = None,
        rated: bool = True,
        others: Sequence[tuple[int, str, str | None]] = (),
        opening: Opening | None = None,
    ) -> int:
        """A new game in the lobby, its creator in seat 0 and ``others`` (user, name, AI
        level or None) after them, started at once if ``opening`` says how, in one
        transaction. StaleGame if the channel already has a live game, the opening's
        league match its game, the creator their attempt at the opening's daily
        challenge, or the opening's rematch its game; LeaseLost if the opening's fence is
        held no more."""

    async def game(self, game_id: int) -> GameRow | None: ...

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in a channel, if any."""

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game in a channel, finished or not."""

    async def seats(self, game_id: int) -> list[SeatRow]: ...

    async def seated_game(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats, read together: every click loads one."""

    async def seated_live_game(self, channel_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """:meth:`live_game` and its seats, read together."""

    async def moves(self, game_id: int) -> list[MoveRow]: ...

    async def repair_state(self, game_id: int, version: int, state: str) -> bool:
        """Store ``state``, rebuilt from the move log, in place of a damaged one (the
        version stays: the position is the same); False if the game moved on meanwhile."""

    async def damaged_games(self) -> list[int]:
        """The live games whose stored values are damaged (:mod:`bot.store.damage`)."""

    async def count_games(self) -> int: ...

    async def join(
        self, game_id: int, version: int, user_id: int, name: str, ai: str | None = None
    ) -> None:
        """Seat a person, or an AI player at level ``ai`` (its user id negative)."""

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""

    async def start(
        self,
        game_id: int,
        version: int,
        state: str,
        awaiting: Iterable[int],
        heads_ups: Sequence[tuple[int, str, str, str]] = (),
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Start the game, awaiting ``awaiting``; ``heads_ups`` and ``notices`` as
        :meth:`record` takes them."""

    async def record(self, game_id: int, version: int, move: MoveRecord) -> Recorded:
        """Append ``move`` to the log and store the state it leads to, with everything
        :class:`~bot.store.rows.MoveRecord` holds, in one transaction. Returns the
        entry's seq and the seats as the move left them."""

    async def abandon(
        self,
        game_id: int,
        version: int,
        attempt: Attempt | None = None,
        forfeit: Forfeit | None = None,
    ) -> None:
        """Call a game off; ``attempt`` settles the daily attempt played in it, and
        ``forfeit`` the league match it is played for (StaleGame, nothing written, if
        that match was settled meanwhile)."""

    async def replace_player(
        self,
        game_id: int,
        version: int,
        seat: int,
        user_id: int,
        name: str,
        ai: str | None = None,
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Hand a seat to another user, or to an AI player at level ``ai``; the position
        (and so the version) stays. ``notices`` as :meth:`record` takes them."""

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's result moves ratings: opened rated, with two seats or more,
        none of them an AI's."""

    async def set_status_message(self, game_id: int, message_id: int) -> None: ...

    async def rematch(self, game_id: int) -> Rematch:
        """Who has asked to play this finished game again, and the game it opened."""

    async def agree_rematch(self, game_id: int, user_id: int) -> frozenset[int]:
        """Note that ``user_id`` wants to play this game again; everyone who has so far.
        Raises :class:`~bot.store.faults.StaleGame`, noting nothing, once its rematch has
        been opened (the game that opens it notes the last agreement with it:
        :attr:`~bot.store.rows.Opening.rematch`)."""

    async def undo_request(self, game_id: int) -> UndoRequest | None: ...

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None: ...


class Postal(Protocol):
    """Play by post: turn clocks, the timers that read them, and a user's waiting games."""

    async def clocks(self, game_id: int) -> Clocks: ...

    async def claim_due_waits(self, now: datetime, until: datetime, limit: int) -> list[Wait]:
        """Up to ``limit`` waits of active games due by ``now``, the longest due first,
        claimed for the caller alone until ``until``: their due time moves there, so no
        other process takes them meanwhile, and if the caller dies before doing what is
        due they fall due again then, for any process (a lease). Doing what is due stores
        each wait's next due time, which ends the claim. Costs what is due, not what is
        stored."""

    async def reschedule(self, waits: Iterable[Wait]) -> None:
        """Store afresh when these waits are next due (a tick found nothing due in them)."""

    async def claim(
        self,
        wait: Wait,
        kind: str,
        notices: Iterable[tuple[str, str, str]],
        reminders: int | None = None,
        deadline: str | None = None,
    ) -> bool:
        """Mark a reminder or warning as sent and queue its notices, exactly once."""

    async def snooze(self, game_id: int, user_id: int, turn_since: str | None = None) -> bool: ...

    async def waiting_since(self, game_id: int, turn_since: str) -> list[str]: ...

    async def push_deadlines(self, hours: float, *, user_id: int) -> list[int]:
        """Move one user's running deadlines ``hours`` later (a vacation)."""

    async def extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> tuple[float, bool] | None:
        """Give the awaited seats ``hours`` more, within ``most`` hours a turn."""

    async def awaiting(self, user_id: int) -> list[Awaiting]:
        """Every active game waiting for ``user_id``, the longest-waiting first."""


class Digests(Protocol):
    """Daily digests: when each player's is next due (their settings keep it), each
    claimed once."""

    async def due_digests(self, now: datetime) -> list[tuple[int, str, Settings]]:
        """Every player whose digest is due by ``now``: (user, due at, settings); costs
        what is due, not what is stored."""

    async def claim_digests(self, claims: Sequence[tuple[int, str, str | None, str | None]]) -> int:
        """For each (user, due, following, text) whose digest is still due at ``due``:
        move it on to ``following`` and queue ``text`` as a DM (None: nothing to send),
        in one transaction. Returns how many were queued."""


class Notices(Protocol):
    """The outbox: messages to deliver, claimed once, retried, given up."""

    async def queue_turn_notice(
        self, game_id: int, user_id: int, text: str, due_at: str
    ) -> None: ...

    async def claim_notices(self, claimer: str) -> list[Notice]:
        """Take the notices due now, under ``claimer`` (a token of this one claim, kept
        as each notice's ``claim``); two deliverers never get the same one. A claim lasts
        :data:`~bot.store.shared.notices.CLAIM_LEASE`: then the notice may be claimed again."""

    async def claim_announcement(self, game_id: int, seq: int, claimer: str) -> Notice | None:
        """The stand-in ``board`` notice of move ``seq`` (see :meth:`Games.record`), taken
        by ``claimer`` to post the move now: None if another process is delivering it or
        has posted it (this one stalled past its due time). It stays due when it was, for
        another process to post should this one die before it is marked sent."""

    async def confirm_claim(self, notice: Notice) -> bool:
        """Just before sending ``notice``: extend its claim if it is still the one it was
        taken under, unsent and not dropped (True: send it); False if another process
        has taken it over meanwhile (this one stalled past the claim): do not send."""

    async def delivery_failed(self, notice: Notice) -> str:
        """Put back a notice Discord refused: ``retry``, ``channel`` or ``dropped``."""

    async def mark_sent(self, notice: Notice) -> bool:
        """``notice`` went out; whether its claim was still the one it was sent under."""


class SettingsStore(Protocol):
    """A user's and a server's settings."""

    async def settings(self, user_id: int) -> Settings: ...

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        """Store a user's settings; when their digest is next due follows them."""

    async def organiser_role(self, guild_id: int) -> int | None: ...

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None: ...


class Leagues(Protocol):
    """Leagues, their members and their matches."""

    async def create_league(self, league: LeagueRow) -> int:
        """StaleGame if the server already has a league of that name."""

    async def league(self, guild_id: int, name: str) -> LeagueRow | None: ...

    async def leagues(self, guild_id: int) -> list[LeagueRow]: ...

    async def leagues_due_to_start(self) -> list[LeagueRow]: ...

    async def leagues_to_step(self) -> list[LeagueRow]:
        """Leagues the minute's pass steps: those running, and those over whose final
        standings are not posted yet."""

    async def update_league(self, league_id: int, **columns: object) -> None: ...

    async def league_match_of(self, game_id: int) -> int | None: ...

    async def members(self, league_id: int) -> list[Member]: ...

    async def add_member(self, league_id: int, user_id: int, name: str) -> None: ...

    async def drop_member(self, league_id: int, user_id: int, *, remove: bool) -> None: ...

    async def draw_round(
        self,
        league_id: int,
        number: int,
        drawn: Sequence[Drawn],
        held: Fence,
        *,
        rounds: int | None = None,
    ) -> bool:
        """Record round ``number``'s draw whole (byes and forfeits settled) in one
        transaction under ``held``; with ``rounds``, the league starts with it. False,
        writing nothing, if it was drawn (or the league started) already; LeaseLost if
        ``held`` is held no more. Each table's game opens by :meth:`Games.create_game`."""

    async def open_round(self, league_id: int, number: int, deadline: str, held: Fence) -> bool:
        """Round ``number`` has every game open: it runs until ``deadline``, and its
        announcement is due (:meth:`news_posted`). False if it ran already."""

    async def finish_league(self, league_id: int, held: Fence) -> bool:
        """The season is over: its final standings are due. False if it was already."""

    async def news_posted(self, league_id: int) -> bool:
        """The league's latest news (a round's announcement, the final standings) is out:
        True if it was due, once of every caller."""

    async def match_posted(self, match_id: int) -> bool:
        """The first board of the match's game is out: True if it was due, once of every
        caller."""

    async def settle_match(
        self,
        match_id: int,
        kind: str,
        places: list[int],
        scores: list[int],
        forfeiting: Sequence[int] = (),
    ) -> bool:
        """Record a match's outcome once; False if it was already settled."""

    async def matches(self, league_id: int) -> list[Match]: ...


class Leases(Protocol):
    """Work one process at a time does, of all those sharing the database (a league's
    step): held until it runs out, so a holder that dies leaves it to the next."""

    async def take_lease(self, name: str, holder: str, until: datetime) -> bool:
        """Hold ``name`` for ``holder`` until ``until``: True if it was free, had run
        out, or was ``holder``'s already (renewed); False while another holds it."""

    async def drop_lease(self, name: str, holder: str) -> None:
        """Let ``name`` go at once, if ``holder`` holds it."""

    async def lease_holder(self, name: str) -> str | None:
        """Who holds ``name`` (its lease run out or not), or None if nobody does."""

    async def take_turn(self, name: str, holder: str, seconds: float) -> float:
        """Hold ``name`` for ``holder`` for ``seconds`` from now, by the database's own
        clock, if nobody holds it: 0. Else how many seconds until it is free (more than
        0). Processes on hosts whose clocks disagree so take turns a measured time apart
        (connecting to Discord's gateway: :mod:`bot.discord.gateway_turns`)."""


class Daily(Protocol):
    """The daily challenge: attempts, the servers' channels, posts made once."""

    async def secret(self, name: str) -> bytes:
        """A random server-side secret, made once and kept."""

    async def entries(
        self, *, day: str | None = None, user_id: int | None = None
    ) -> list[Entry]: ...

    async def all_entries(self) -> list[Entry]: ...

    async def unsettled_entries(self) -> list[Entry]: ...

    async def finish_entry(self, entry: Entry, attempt: Attempt) -> None: ...

    async def entries_to_share(self) -> list[Entry]: ...

    async def claim_share(self, entry: Entry) -> bool: ...

    async def attempt_day(self, game_id: int) -> str | None: ...

    async def set_daily_channel(self, guild_id: int, channel_id: int) -> None: ...

    async def daily_channels(self) -> dict[int, int]: ...

    async def claim_daily_post(self, day: str, guild_id: int) -> bool:
        """Mark the server's post of ``day`` made; True if it was not already."""

    async def daily_posted(self, day: str) -> set[int]:
        """The servers whose post of ``day`` is made."""


class Ratings(Protocol):
    """The stored ratings; the ratings feature computes them (:mod:`bot.domain.ratings`)."""

    async def ratings(self, guild_id: int | None, game_key: str) -> list[tuple[int, str, Rating]]:
        """A server's ratings for one game, best shown rating first."""

    async def rebuild_ratings(self, replay: Replay) -> tuple[int, bool]:
        """Replace every rating by ``replay`` of the rated games in the order they were
        rated; returns how many games that was and whether nothing changed."""


class TerminalUsers(Protocol):
    """The terminal's people: several share one keyboard, each known by the name they type."""

    async def terminal_user(self, name: str) -> tuple[int, bool]:
        """The user id of the terminal's person called ``name`` (in lower case): the same
        in every session on this database, given out on the name's first use, and never
        a Discord user's (below :data:`~bot.store.shared.terminal.TERMINAL_IDS_BELOW`); and
        whether it was given out just now."""

    async def forget_terminal_user(self, name: str, user_id: int) -> None:
        """Take back the id just given to ``name`` for a line that was then refused, so
        that a refused line leaves nothing behind; kept if anything is stored under it."""


class PageReads(Protocol):
    """What the web's league, player and server pages read (:mod:`bot.web`)."""

    async def league_by_id(self, league_id: int) -> LeagueRow | None: ...

    async def league_of_game(self, game_id: int) -> LeagueRow | None:
        """The league a game is a match of, if any."""

    async def played_games(self, user_id: int) -> list[PlayedGame]:
        """The games a user has a seat in, the latest to change first (the latest 200)."""

    async def move_waits(self, user_id: int) -> list[tuple[str, str]]:
        """For each of a user's latest moves, when the log entry before it was made and
        when it was: (before, made)."""

    async def player_ratings(self, user_id: int) -> list[tuple[int, str, Rating]]:
        """A user's ratings: (server, game, rating) each, the most played first."""

    async def games_in_play(self, guild_id: int) -> list[int]:
        """A server's games under way, the latest to move first."""

    async def server_page(self, guild_id: int) -> bool:
        """Whether the server's managers have turned its page of games on (off until)."""

    async def set_server_page(self, guild_id: int, on: bool) -> None: ...


class Watchers(Protocol):
    """Who watches games move in a process (:class:`bot.service.changes.Changes`): what
    a store that other processes write to tells of their moves."""

    def moved(self, game_id: int, version: int) -> None:
        """Game ``game_id`` stands at ``version`` now (a version already told: ignored)."""

    def watched(self) -> Collection[int]:
        """The games watched now."""


class Store(
    Games,
    Postal,
    Digests,
    Notices,
    SettingsStore,
    Leagues,
    Leases,
    Daily,
    Ratings,
    TerminalUsers,
    PageReads,
    Protocol,
):
    """Everything the application layer stores, and the store's own upkeep."""

    #: trips to the database so far (a SQLite store's thread, a server's socket): the bench
    #: reports how many a move costs
    round_trips: int

    def now(self) -> str:
        """The store's clock, as stored."""

    def clock(self) -> datetime: ...

    async def close(self) -> None: ...

    def hearing(self, watchers: Watchers) -> AbstractAsyncContextManager[None]:
        """While the block runs, tell ``watchers`` of every move any process commits to
        this database. A file one process holds hears nothing more than its own moves,
        which the service tells them itself; a shared server tells each one committed,
        whoever made it, and after a lost connection every watched game's version now, so
        nothing moved meanwhile is missed."""

    async def schema_version(self) -> int: ...

    async def integrity(self) -> str:
        """The database's own check of what it holds: ``ok`` or what is broken."""

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database, taken while the bot keeps running."""
