"""What every feature of the service shares: a channel's lock, loading a game, drawing
its board, and the public answer after anything that changed the position.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any
from weakref import WeakValueDictionary

import engine
from bot.clocks import Clocks, ai_pause, turn_deadline
from bot.drawing import Drawers, DrawingFailed
from bot.holders import process_holder
from bot.inputs import Refused
from bot.notify import routes
from bot.service.pings import alone, game_label, your_turn
from bot.service.replies import Caller, Reply, Table, default_link, ordinal
from bot.service.states import STATES
from bot.store import (
    Attempt,
    CannotSave,
    GameRow,
    MoveRow,
    SeatRow,
    Settings,
    Store,
    iso,
    parse_time,
)
from bot.store.damage import OPTIONS_DAMAGED
from bot.thinking import Thinkers
from engine.core import Game, Result, Step
from renders import has_renderer, render
from renders.accent import seat_colour
from renders.text import describe

log = logging.getLogger(__name__)


#: where a seat's own view is read in words whole: the public board, and its own part
OWN_WORDS = "/game board text:true, with /hand,"
#: said to a click on a button of a position (or a game) that is no more
STALE = (
    "That button belongs to an earlier position: the game has moved on. "
    "Use the buttons under the newest board."
)
#: said instead of the board when its drawing worker died (the move itself stands)
BOARD_LOST = "The board could not be drawn this time; `/game board` shows it."
#: the same for a game in a DM, where ``/game board`` may not be offered (see
#: :attr:`Table.server_commands`) and ``/hand`` shows the player's own board
BOARD_LOST_IN_DM = "The board could not be drawn this time; `/hand` shows it."
#: what the ping says has happened when a game begins
BEGINS = "the game begins"


@dataclass(frozen=True)
class Told:
    """How the players a position newly waits for are told it is their turn, the way
    their ``/settings`` ask: whom the public answer pings and in what words, the DMs to
    queue (user, text, when: held through quiet hours), and each one's deadline."""

    mentions: tuple[int, ...] = ()
    ping: str | None = None
    dms: tuple[tuple[int, str, str], ...] = ()
    deadlines: dict[int, datetime | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Loaded:
    """A game row with what every request needs beside it."""

    row: GameRow
    seats: list[SeatRow]
    rules: Game = field(repr=False)
    state: Any = field(repr=False)
    #: why the state is missing though the game started: damaged, and not to be rebuilt
    damage: str | None = None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @cached_property
    def position(self) -> Step:
        """Where the loaded game stands (who is awaited, the result once over), worked out
        once however often a request asks."""
        return self.rules.step(None, self.state, ())

    def people(self, seats: Iterable[int]) -> list[int]:
        """The users of those of ``seats`` a person holds: the ones told of their turn."""
        return [self.seats[s].user_id for s in seats if self.seats[s].ai is None]

    def awaited_users(self) -> tuple[int, ...]:
        if self.state is None:
            return ()
        return tuple(self.seats[s].user_id for s in self.position.awaited)


def loaded(row: GameRow, seats: list[SeatRow]) -> Loaded:
    state = STATES.get(row.game_key, row.state) if row.state else None
    return Loaded(row, seats, engine.get(row.game_key), state)


#: what parsing a stored state raises when its text is not a state (a damaged byte)
UNREADABLE = (ValueError, KeyError, IndexError, TypeError, AttributeError)


class GameDamaged(Refused):
    """A game whose stored state is damaged and cannot be rebuilt from its move log: every
    request about it is refused with this, but calling it off (:meth:`ServiceBase._live`)."""

    def __init__(self, row: GameRow) -> None:
        who = "a server manager" if row.guild_id is not None else "you"
        super().__init__(
            f"Game #{row.id}'s stored state is damaged, so it can't be played on; {who} "
            "can call it off with `/game abandon`."
        )


#: how long work one process takes on (a due timer, a league's step, the daily posts)
#: stays its own: one that dies holding it leaves it to another process after this
LEASE = timedelta(minutes=5)
SETTINGS_FOR = 60.0  # seconds a user's settings are read again after
SETTINGS_KEPT = 10_000  # users whose settings are kept at most


def effective_moves(log: Sequence[MoveRow]) -> list[MoveRow]:
    """The moves still standing once every take-back in the log is applied."""
    standing: list[MoveRow] = []
    for entry in log:
        if entry.kind == "undo":
            del standing[len(standing) - int(entry.action) :]
        else:
            standing.append(entry)
    return standing


def rebuild(game: Loaded, log: Sequence[MoveRow]) -> Any:
    """The state a log leads to: its standing moves played, its skipped turns skipped."""
    return replayed(game.rules, len(game.seats), game.row.options, game.row.seed, log)


def replayed(rules: Game, players: int, options: dict, seed: int, log: Sequence[MoveRow]) -> Any:
    """:func:`rebuild` from a game's stored beginning, for a check of stored games
    (``python -m bot migrate-store`` replays every one)."""
    state = rules.new(players, options, seed)
    for entry in effective_moves(log):
        if entry.kind == "skip":
            state = rules.skip(state, entry.seat).state
        else:
            state = rules.play(state, entry.seat, entry.action).state
    return state


def solo_attempt(game: Loaded, state: Any, *, abandoned: bool = False) -> Attempt | None:
    """How a game alone against the rulebook's opponent (Euler) stands, to settle a daily
    attempt in the same transaction as the move that ends it (called off or resigned: a
    loss, whatever the scores). None for any other game."""
    if len(game.seats) != 1:
        return None
    euler = getattr(game.rules.view(state, 0), "euler_total", None)
    if euler is None:
        return None
    result = game.rules.result(state)
    total = result.scores[0]
    status = "won" if total > euler else "tied" if total == euler else "lost"
    return Attempt("lost" if abandoned or result.places[0] > 1 else status, total, euler)


def open_one(table: Table, one: str = "one") -> str:
    """How to begin a game, naming only commands offered where ``table`` is asked from
    (:attr:`Table.server_commands`)."""
    if table.server_commands:
        return f"Open {one} with `/game new`."
    return (
        f"`/solo` starts {one} for you alone; `/turns` lists the games waiting for you, "
        "each with its **Play** button."
    )


def _hand_line(view: Any) -> str | None:
    """The seat's own hand in words, beside its picture: read where no image shows (the
    terminal, a screen reader). Only the viewing seat's view carries a hand."""
    hand = getattr(view, "hand", None)
    if hand is None:
        return None
    return f"Your hand: {', '.join(str(item) for item in hand)}." if hand else "Your hand is empty."


class ServiceBase:
    """Every request a front end can make. One instance per process, over one store.

    The features are mixins over this base, one module each; ``Service`` joins them."""

    def __init__(
        self,
        store: Store,
        *,
        images: bool = True,
        link: Callable[[Table], str] = default_link,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
        ai_seed: Callable[[], int] = lambda: secrets.randbits(63),
        drawers: Drawers | None = None,
        thinkers: Thinkers | None = None,
        on_ai_waiting: Callable[[float], None] | None = None,
    ) -> None:
        """``seed`` deals each new game; ``ai_seed`` is an AI player's own chance, one draw
        a decision, never the game's (a terminal script fixes both to replay, and an AI
        drawing the same chance at every decision would repeat itself for ever where a
        step costs nothing). ``drawers`` draw boards in worker processes, so every core
        draws; without them boards are drawn in a thread, sharing the event loop's core
        (Pillow holds the GIL for much of a board). ``thinkers`` do the same for AI
        players' decisions. ``on_ai_waiting`` hears, in seconds, when an AI seat's pause
        ends after a change left a game waiting for it: the front end's timer loop runs
        then, not a minute on."""
        self.store = store
        self.images = images
        self._link = link
        self._seed = seed
        self._ai_seed = ai_seed
        self._drawers = drawers
        self._thinkers = thinkers
        self.on_ai_waiting = on_ai_waiting
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._settings: dict[int, tuple[float, Settings]] = {}  # user -> (read at, settings)
        #: who this process is, in the leases it holds on work shared with other processes
        self.holder = process_holder()
        self._damaged: set[int] = set()  # games whose damage the operator has been told of

    def _turn(self, table: Table) -> asyncio.Lock:
        """The channel's lock: a channel holds one live game, whose moves are taken in turn.
        It lives while a request holds or awaits it, so channels long quiet cost nothing."""
        lock = self._locks.get(table.channel_id)
        if lock is None:
            lock = self._locks[table.channel_id] = asyncio.Lock()
        return lock

    async def _load(self, row: GameRow) -> Loaded:
        return await self._loaded(row, await self.store.seats(row.id))

    async def _live(self, table: Table, *, damaged: bool = False) -> Loaded:
        """The channel's lobby or running game; ``damaged``: one whose state is damaged
        past rebuilding too, without its state, to be called off."""
        found = await self.store.seated_live_game(table.channel_id)
        if found is None:
            latest = await self.store.latest_game(table.channel_id)
            if latest is not None:
                raise Refused(f"The game here is {latest.status}. {open_one(table, 'a new one')}")
            raise Refused(f"There is no game here. {open_one(table)}")
        return await self._loaded(*found, damaged=damaged)

    async def check_stored_games(self) -> int:
        """Look at every live game's stored values once, at start-up, a checksum each
        (:meth:`~bot.store.interface.Games.damaged_games`): a damaged one is rebuilt
        from its log, or named to the operator, before any player meets it. Returns
        how many were damaged."""
        damaged = await self.store.damaged_games()
        for game_id in damaged:
            await self.load_game(game_id, damaged=True)
        return len(damaged)

    async def load_game(self, game_id: int, *, damaged: bool = False) -> Loaded:
        """A game by its id, as :meth:`_loaded` gives it."""
        found = await self.store.seated_game(game_id)
        if found is None:
            raise Refused("That game is gone.")
        return await self._loaded(*found, damaged=damaged)

    async def _loaded(self, row: GameRow, seats: list[SeatRow], *, damaged: bool = False) -> Loaded:
        """The game as stored. A damaged state (:mod:`bot.store.damage`; or one that does
        not parse) is rebuilt from the move log, the game's source of truth, and stored
        again. One the log cannot rebuild raises :class:`GameDamaged`, or with
        ``damaged`` comes back without its state, its ``damage`` saying why."""
        damage = row.damage
        if not damage:
            try:
                return loaded(row, seats)
            except UNREADABLE as exc:
                damage = (f"its stored state does not parse ({type(exc).__name__})",)
        rules = engine.get(row.game_key)
        why = "; ".join(damage)
        if row.state is not None and OPTIONS_DAMAGED not in damage:
            entries = await self.store.moves(row.id)
            try:
                state = replayed(rules, len(seats), row.options, row.seed, entries)
            except Exception as exc:  # whatever the log holds, it leads to no state
                why += f"; its move log does not replay either ({type(exc).__name__})"
            else:
                await self._repair(row, state, why, len(entries))
                return Loaded(row, seats, rules, state)
        if row.id not in self._damaged:
            self._damaged.add(row.id)
            log.critical(
                "Game %d (%s, channel %d) is damaged and cannot be played on: %s. Restore the "
                "database from a backup, or abandon the game (`/game abandon` in its channel, "
                "by a server manager).",
                row.id, rules.info.name, row.channel_id, why,
            )  # fmt: skip
        if not damaged:
            raise GameDamaged(row)
        return Loaded(row, seats, rules, None, damage=why)

    async def _repair(self, row: GameRow, state: Any, why: str, entries: int) -> None:
        """Store a state rebuilt from the log in place of the damaged one, and say so."""
        try:
            stored = await self.store.repair_state(
                row.id, row.version, STATES.stored(row.game_key, state)
            )
        except CannotSave as exc:
            stored, why = False, f"{why}; it could not be stored again: {exc.reason}"
        log.error(
            "Game %d (channel %d) was damaged: %s. Its state was rebuilt from its move log "
            "(%d entries)%s; damage inside the database can mean a failing disk.",
            row.id, row.channel_id, why, entries, " and stored again" if stored else "",
        )  # fmt: skip

    async def _latest(self, table: Table) -> Loaded:
        row = await self.store.latest_game(table.channel_id)
        if row is None:
            raise Refused(f"No game has been played here yet. {open_one(table)}")
        return await self._load(row)

    async def _active(self, table: Table, expect: tuple[int, int] | None = None) -> Loaded:
        game = await self._live(table)
        if expect is not None and (game.row.id, game.row.version) != expect:
            raise Refused(STALE)
        if game.row.status == "lobby":
            raise Refused("The game has not started yet. Its creator starts it with `/game start`.")
        return game

    def _seated(self, game: Loaded, caller: Caller) -> int:
        seat = game.seat_of(caller.user_id)
        if seat is None:
            raise Refused("You are not playing in this game.")
        return seat

    async def _board(
        self, game: Loaded, state: Any, text: str, seat: int | None = None
    ) -> tuple[str, bytes | None, str | None]:
        """``text`` with the board as ``seat`` sees it (the spectator's view, ``None``, for
        public posts), and the board in words for its alt text. A board lost with its
        drawing worker leaves the move standing, and ``text`` then says so, so nobody
        waits for a picture that is not coming."""
        if not self.images or not has_renderer(game.row.game_key):
            return text, None, None
        view = game.rules.view(state, seat)
        alt = describe(game.row.game_key, view, game.names)
        if self._drawers is None:
            image = await asyncio.to_thread(render, game.row.game_key, view, game.names)
            return text, image, alt
        try:
            return text, await self._drawers.draw(game.row.game_key, view, game.names), alt
        except DrawingFailed:
            log.error("no board for game %d: its drawing worker stopped", game.row.id)
            lost = BOARD_LOST if game.row.guild_id is not None else BOARD_LOST_IN_DM
            return f"{text}\n{lost}", None, None

    async def _private(
        self, game: Loaded, state: Any, version: int, seat: int, events: list
    ) -> Reply:
        """What only ``seat`` may see now: its own view and the events meant for it."""
        text = self._private_text(game, state, seat, events)
        text, image, alt = await self._board(game, state, text, seat)
        return Reply(
            text=text,
            private=True,
            image=image,
            alt=alt,
            game_id=game.row.id,
            version=version,
            alt_whole=OWN_WORDS,
        )

    @staticmethod
    def _private_text(game: Loaded, state: Any, seat: int, events: list) -> str:
        """:meth:`_private`'s words, without its picture."""
        lines = [e.describe(game.names) for e in events if e.seat == seat]
        hand = _hand_line(game.rules.view(state, seat))
        return "\n".join(["Only you can see this.", *lines, *([hand] if hand else [])])

    def _result_text(self, game: Loaded, result: Result) -> str:
        order = sorted(range(len(game.seats)), key=lambda s: (result.places[s], s))
        lines = [f"{ordinal(result.places[s])} {game.names[s]} — {result.scores[s]}" for s in order]
        if result.detail:
            lines.append(result.detail)
        return "\n".join(lines)

    def _turn_text(self, game: Loaded, step: Step) -> str:
        if step.result is not None:
            return "**Game over.**\n" + self._result_text(game, step.result)
        awaited = [game.names[s] for s in step.awaited]
        return f"To play: {', '.join(awaited)}."

    async def _position_reply(
        self,
        game: Loaded,
        step: Step,
        version: int,
        lines: Sequence[str],
        *,
        told: Told,
    ) -> Reply:
        """The public answer after anything that changed the position, told from ``step``
        (whose awaited seats and result the engine worked out once), pinging whom ``told``
        says in its words: whom the caller's change told it is their turn in the channel
        (the DMs were queued with the change itself, :meth:`_turn_notices`)."""
        over = step.over
        awaited = tuple(game.seats[s].user_id for s in step.awaited)
        people = game.people(step.awaited)
        if not over and len(people) < len(awaited):
            self._ai_awaited(game.row.id, version)
        text = "\n".join([*lines, self._turn_text(game, step)])
        if over:
            text += "\n" + await self._summary(game)
        text, image, alt = await self._board(game, step.state, text)
        return Reply(
            text=text,
            image=image,
            alt=alt,
            accent=self._accent(game, step) if image is not None else None,
            mentions=told.mentions,
            ping=told.ping,
            awaiting=awaited,
            game_id=game.row.id,
            version=version,
            playable=not over,
            changed=(game.row.id,),
            rematch=over,
        )

    def _accent(self, game: Loaded, step: Step) -> int | None:
        """The colour (``0xRRGGBB``) of the one seat a public board is about: the seat
        to play, or the winner; none when several play at once or share first place."""
        places = step.result.places if step.result is not None else ()
        seats = [s for s, place in enumerate(places) if place == 1] or list(step.awaited)
        if len(seats) != 1:
            return None
        rgb = seat_colour(game.row.game_key, game.rules.view(step.state, None), seats[0])
        return None if rgb is None else rgb[0] << 16 | rgb[1] << 8 | rgb[2]

    async def _summary(self, game: Loaded) -> str:
        """How long the game that just ended took: its moves, and the days from its opening."""
        log = effective_moves(await self.store.moves(game.row.id))
        moves = sum(m.kind == "move" and m.action != "resign" for m in log)
        days = (self.store.clock() - parse_time(game.row.created_at)).days
        span = "in less than a day" if days < 1 else f"over {days} day{'s' * (days > 1)}"
        return f"Played in {moves} move{'s' * (moves != 1)}, {span}."

    def _ai_awaited(self, game_id: int, version: int) -> None:
        """A game at ``version`` waits for an AI seat: tell the front end when it moves."""
        if self.on_ai_waiting is not None:
            self.on_ai_waiting(ai_pause(game_id, version).total_seconds())

    async def _turn_notices(
        self,
        game: Loaded,
        users: Sequence[int],
        step: Step,
        happened: str | None,
        clocks: Clocks | None = None,
    ) -> Told:
        """How to tell each user it is their turn in ``step``'s position, which
        ``happened`` brought (``bot.service.pings`` words it), under the game's stored
        ``clocks`` (given for a game not stored yet). A game played in a DM tells nobody:
        its board, posted there, is the notice, and a mention of the DM's only player
        would ping them about their own move."""
        if game.row.guild_id is None or not users:
            return Told()
        now = self.store.clock()
        if clocks is None:
            clocks = await self.store.clocks(game.row.id)
        label = game_label(game.row.game_key, game.row.id)
        answer = step.reaction_open
        mentioned, dms, deadlines = [], [], {}
        for user_id in users:
            settings = await self._settings_of(user_id)
            seat = game.seats[game.seat_of(user_id)]
            # a wait that goes on keeps its deadline; a new one counts from now
            due = deadlines[user_id] = (
                parse_time(seat.deadline)
                if seat.awaiting and seat.deadline
                else turn_deadline(clocks, answer, now, settings.vacation_until)
            )
            for via, at in routes(settings, now):
                if via == "channel":
                    mentioned.append(user_id)
                else:
                    words = your_turn(label, answer=answer, happened=happened, due=due)
                    dms.append((user_id, alone(words), iso(at)))
        ping = None
        if mentioned:  # one message pings them all: the earliest of their deadlines
            due = min((d for u in mentioned if (d := deadlines[u]) is not None), default=None)
            ping = your_turn(label, answer=answer, happened=happened, due=due)
        return Told(tuple(mentioned), ping, tuple(dms), deadlines)

    async def _settings_of(self, user_id: int) -> Settings:
        """A user's settings, as read at most :data:`SETTINGS_FOR` seconds ago: nearly every
        move tells someone it is their turn, and their settings rarely change. This
        process's own changes replace the copy at once (:meth:`_put_settings`); another
        process's are seen within that time."""
        read_at, settings = self._settings.get(user_id, (-SETTINGS_FOR, Settings()))
        if time.monotonic() - read_at >= SETTINGS_FOR:
            settings = await self.store.settings(user_id)
            if len(self._settings) >= SETTINGS_KEPT:
                self._settings.clear()
            self._settings[user_id] = (time.monotonic(), settings)
        return settings

    async def _put_settings(self, user_id: int, settings: Settings) -> None:
        await self.store.put_settings(user_id, settings)
        self._settings[user_id] = (time.monotonic(), settings)
