"""The application layer: what a player can ask of Bridgekeeper, with no Discord in it.

Front ends (the Discord cogs, the terminal) turn their input into calls here and show
the :class:`Reply` they get back. A request the rules or the lobby do not allow raises
:class:`Refused` with a sentence for the asker only; a refusal never changes anything.
A move is checked by the engine, then logged and stored in one transaction.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any
from weakref import WeakValueDictionary
from zoneinfo import ZoneInfo

import engine
from bot.drawing import Drawers, DrawingFailed
from bot.inputs import (  # Refused is re-exported: bot.service.Refused is the one to catch
    EXTEND_BY,
    SHOWN,
    Refused,
    check_clocks,
    check_hours,
    format_hours,
    parse_timezone,
    shown,
)
from bot.notify import routes
from bot.store import (
    Attempt,
    Clocks,
    GameRow,
    MoveRow,
    SeatRow,
    StaleGame,
    Store,
    UndoRequest,
    iso,
    parse_time,
)
from engine.core import BadOptions, Game, IllegalMove, Result, Step, describe
from renders import has_renderer, render

log = logging.getLogger(__name__)

POLICIES = {
    "random": "a random legal move for them",
    "skip": "nothing for them: their turn is skipped",
    "forfeit": "their resignation",
}
NOTIFY = {
    "channel": "a mention in the game's channel",
    "dm": "a direct message",
    "both": "a mention and a direct message",
    "off": "none",
}


#: the most extra time `/game extend` gives one turn, unless its time per move is longer
EXTEND_CAP_HOURS = 7 * 24

#: how many characters of moves /game legal lists: one message, with room for its words
LEGAL_LISTED = 1800

#: said instead of the board when its drawing worker died (the move itself stands)
BOARD_LOST = "The board could not be drawn this time; `/game board` shows it."


def _solo_names() -> str:
    return ", ".join(g.info.name for g in engine.GAMES.values() if g.info.min_players == 1)


def _asked(game: Loaded, standing: Sequence[MoveRow], request: UndoRequest) -> list[SeatRow]:
    """Who must agree to a take-back: every other player still in the game when the moves
    taken back were played (one who had resigned by then has no say)."""
    kept = standing[: len(standing) - request.moves]
    gone = {m.seat for m in kept if m.action == "resign"}
    return [s for s in game.seats if s.user_id != request.user_id and s.seat not in gone]


def player_count(info: engine.GameInfo) -> str:
    if info.min_players == info.max_players:
        return f"{info.min_players} players"
    return f"{info.min_players}–{info.max_players} players"


@dataclass(frozen=True)
class Caller:
    user_id: int
    name: str
    manager: bool = False  # may manage the server: can abandon others' games
    roles: tuple[int, ...] = ()  # the server roles the user has (organiser role, say)


@dataclass(frozen=True)
class Table:
    """Where a game lives: a channel or thread (or a DM, with no guild)."""

    channel_id: int
    guild_id: int | None = None


@dataclass(frozen=True)
class Reply:
    """What a front end shows. ``private`` replies are for the asker's eyes only."""

    text: str
    private: bool = False
    image: bytes | None = None
    mentions: tuple[int, ...] = ()  # the users to ping, and nobody else
    awaiting: tuple[int, ...] = ()  # every user whose move the game now waits for
    game_id: int | None = None
    version: int | None = None  # the position shown, so buttons can tell when stale
    playable: bool = False  # the game waits for a move: offer the play button
    #: for the asker only, after a public reply: their own view of a game with secrets
    followup: Reply | None = None
    #: games whose pinned status message no longer says where they stand
    changed: tuple[int, ...] = ()


@dataclass(frozen=True)
class Loaded:
    """A game row with what every request needs beside it."""

    row: GameRow
    seats: list[SeatRow]
    rules: Game = field(repr=False)
    state: Any = field(repr=False)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def awaited_users(self) -> tuple[int, ...]:
        if self.state is None:
            return ()
        return tuple(self.seats[s].user_id for s in self.rules.to_play(self.state))


@dataclass(frozen=True)
class StatusCard:
    """A game's pinned summary, and the channel and message it is pinned as."""

    channel_id: int
    message_id: int | None
    text: str


def _loaded(row: GameRow, seats: list[SeatRow]) -> Loaded:
    state = _PARSED.get(row.game_key, row.state) if row.state else None
    return Loaded(row, seats, engine.get(row.game_key), state)


class _Parsed:
    """Stored states, each parsed once: a click loads its game up to three times (legal
    moves, the move, the pinned status). States are immutable, so the same text always
    gives an equal state that every request may share; and a state the bot has just
    stored is kept under its text (:meth:`stored`), so the next click parses nothing."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def get(self, game_key: str, text: str) -> Any:
        state = self._states.get((game_key, text))
        if state is None:
            state = engine.get(game_key).from_json(text)
        self._keep(game_key, text, state)
        return state

    def stored(self, game_key: str, state: Any) -> str:
        """``state`` as stored text, kept for the next load of it."""
        text = engine.get(game_key).to_json(state)
        self._keep(game_key, text, state)
        return text

    def _keep(self, game_key: str, text: str, state: Any) -> None:
        self._states[game_key, text] = state
        self._states.move_to_end((game_key, text))
        if len(self._states) > self._size:
            self._states.popitem(last=False)


_PARSED = _Parsed(4096)


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
    rules = game.rules
    state = rules.new(len(game.seats), game.row.options, game.row.seed)
    for entry in effective_moves(log):
        if entry.kind == "skip":
            state = rules.skip(state, entry.seat).state
        else:
            state = rules.play(state, entry.seat, entry.action).state
    return state


def solo_attempt(game: Loaded, state: Any, *, abandoned: bool = False) -> Attempt | None:
    """How a game alone against the rulebook's opponent (Euler) stands, to settle a daily
    attempt in the same transaction as the move that ends it (called off: a loss).
    None for any other game."""
    if len(game.seats) != 1:
        return None
    euler = getattr(game.rules.view(state, 0), "euler_total", None)
    if euler is None:
        return None
    total = game.rules.result(state).scores[0]
    status = "won" if total > euler else "tied" if total == euler else "lost"
    return Attempt("lost" if abandoned else status, total, euler)


def _hand_line(view: Any) -> str | None:
    """The seat's own hand in words, beside its picture: read where no image shows (the
    terminal, a screen reader). Only the viewing seat's view carries a hand."""
    hand = getattr(view, "hand", None)
    if hand is None:
        return None
    return f"Your hand: {', '.join(str(item) for item in hand)}." if hand else "Your hand is empty."


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st: a place as people say it."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def default_link(table: Table) -> str:
    return f"channel {table.channel_id}"


class Service:
    """Every request a front end can make. One instance per process, over one store."""

    def __init__(
        self,
        store: Store,
        *,
        images: bool = True,
        link: Callable[[Table], str] = default_link,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
        drawers: Drawers | None = None,
    ) -> None:
        """``drawers`` draw boards in worker processes, so every core draws; without them
        boards are drawn in a thread, sharing the event loop's core (Pillow holds the GIL
        for much of a board)."""
        self.store = store
        self.images = images
        self._link = link
        self._seed = seed
        self._drawers = drawers
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def _turn(self, table: Table) -> asyncio.Lock:
        """The channel's lock: a channel holds one live game, whose moves are taken in turn.
        It lives while a request holds or awaits it, so channels long quiet cost nothing."""
        lock = self._locks.get(table.channel_id)
        if lock is None:
            lock = self._locks[table.channel_id] = asyncio.Lock()
        return lock

    # -- loading --------------------------------------------------------------------------

    async def _load(self, row: GameRow) -> Loaded:
        return _loaded(row, await self.store.seats(row.id))

    async def _live(self, table: Table) -> Loaded:
        found = await self.store.seated_live_game(table.channel_id)
        if found is None:
            latest = await self.store.latest_game(table.channel_id)
            if latest is not None:
                raise Refused(f"The game here is {latest.status}. Open a new one with `/game new`.")
            raise Refused("There is no game here. Open one with `/game new`.")
        return _loaded(*found)

    async def _latest(self, table: Table) -> Loaded:
        row = await self.store.latest_game(table.channel_id)
        if row is None:
            raise Refused("No game has been played here yet. Open one with `/game new`.")
        return await self._load(row)

    async def _active(self, table: Table, expect: tuple[int, int] | None = None) -> Loaded:
        game = await self._live(table)
        if expect is not None and (game.row.id, game.row.version) != expect:
            raise Refused(
                "That button belongs to an earlier position: the game has moved on. "
                "Use the buttons under the newest board."
            )
        if game.row.status == "lobby":
            raise Refused("The game has not started yet. Its creator starts it with `/game start`.")
        return game

    def _seated(self, game: Loaded, caller: Caller) -> int:
        seat = game.seat_of(caller.user_id)
        if seat is None:
            raise Refused("You are not playing in this game.")
        return seat

    # -- rendering ------------------------------------------------------------------------

    async def _board(
        self, game: Loaded, state: Any, text: str, seat: int | None = None
    ) -> tuple[str, bytes | None]:
        """``text`` with the board as ``seat`` sees it (the spectator's view, ``None``, for
        public posts). A board lost with its drawing worker leaves the move standing, and
        ``text`` then says so, so nobody waits for a picture that is not coming."""
        if not self.images or not has_renderer(game.row.game_key):
            return text, None
        view = game.rules.view(state, seat)
        if self._drawers is None:
            return text, await asyncio.to_thread(render, game.row.game_key, view, game.names)
        try:
            return text, await self._drawers.draw(game.row.game_key, view, game.names)
        except DrawingFailed:
            log.error("no board for game %d: its drawing worker stopped", game.row.id)
            return f"{text}\n{BOARD_LOST}", None

    async def _private(
        self, game: Loaded, state: Any, version: int, seat: int, events: list
    ) -> Reply:
        """What only ``seat`` may see now: its own view and the events meant for it."""
        lines = [e.describe(game.names) for e in events if e.seat == seat]
        hand = _hand_line(game.rules.view(state, seat))
        text = "\n".join(["Only you can see this.", *lines, *([hand] if hand else [])])
        text, image = await self._board(game, state, text, seat)
        return Reply(
            text=text,
            private=True,
            image=image,
            game_id=game.row.id,
            version=version,
        )

    def _result_text(self, game: Loaded, result: Result) -> str:
        order = sorted(range(len(game.seats)), key=lambda s: (result.places[s], s))
        lines = [f"{ordinal(result.places[s])} {game.names[s]} — {result.scores[s]}" for s in order]
        if result.detail:
            lines.append(result.detail)
        return "\n".join(lines)

    def _turn_text(self, game: Loaded, state: Any) -> str:
        if game.rules.is_over(state):
            return "**Game over.**\n" + self._result_text(game, game.rules.result(state))
        awaited = [game.names[s] for s in game.rules.to_play(state)]
        return f"To play: {', '.join(awaited)}."

    async def _position_reply(
        self,
        game: Loaded,
        state: Any,
        version: int,
        lines: Sequence[str],
        already: Sequence[int] = (),
    ) -> Reply:
        """The public answer after anything that changed the position.

        Whoever the game newly waits for (not ``already`` awaited: a player mid-way through
        a several-step turn, or one still pondering an out-of-turn answer) is told.
        """
        over = game.rules.is_over(state)
        awaited = () if over else tuple(game.seats[s].user_id for s in game.rules.to_play(state))
        text = "\n".join([*lines, self._turn_text(game, state)])
        text, image = await self._board(game, state, text)
        return Reply(
            text=text,
            image=image,
            mentions=await self._tell_turn(game, [u for u in awaited if u not in already]),
            awaiting=awaited,
            game_id=game.row.id,
            version=version,
            playable=not over,
            changed=(game.row.id,),
        )

    async def _tell_turn(self, game: Loaded, users: Sequence[int]) -> tuple[int, ...]:
        """Tell each user it is their turn, the way their ``/settings`` ask: the users to
        mention in the channel are returned; a DM is queued, held through quiet hours.
        A game played in a DM tells nobody: its board, posted there, is the notice, and
        a mention of the DM's only player would ping them about their own move."""
        if game.row.guild_id is None:
            return ()
        now = self.store.clock()
        mentioned = []
        for user_id in users:
            for via, at in routes(await self.store.settings(user_id), now):
                if via == "channel":
                    mentioned.append(user_id)
                else:
                    text = f"Your turn in **{game.rules.info.name}**."
                    await self.store.queue_turn_notice(game.row.id, user_id, text, iso(at))
        return tuple(mentioned)

    # -- the lobby ------------------------------------------------------------------------

    def games(self) -> list[engine.GameInfo]:
        return [g.info for g in engine.GAMES.values()]

    def rules_text(self, game_key: str) -> str:
        info = self._rules_of(game_key).info
        if not info.options:
            return info.help
        listed = "\n".join(f"• `{name}`: {what}" for name, what in info.options.items())
        return f"{info.help}\n**Options** (`/game new options:name=value`):\n{listed}"

    def _rules_of(self, game_key: str) -> Game:
        if game_key not in engine.GAMES:
            known = ", ".join(sorted(engine.GAMES))
            raise Refused(f"There is no game called '{game_key[:SHOWN]}'. Games: {known}.")
        return engine.GAMES[game_key]

    async def create(
        self,
        table: Table,
        caller: Caller,
        game_key: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        clocks: Clocks | None = None,
        rated: bool = True,
    ) -> Reply:
        rules = self._rules_of(game_key)
        clocks = clocks or Clocks()
        check_clocks(clocks)
        if clocks.policy not in POLICIES:
            raise Refused(
                f"at_deadline: {shown(clocks.policy)} is not a deadline policy; choose "
                f"{', '.join(POLICIES)}."
            )
        if clocks.policy == "skip" and not rules.can_skip:
            raise Refused(
                f"{rules.info.name} has no way to skip a turn: at the deadline choose a random "
                "legal move or resignation."
            )
        if table.guild_id is None and rules.info.min_players > 1:
            raise Refused(
                f"Nobody else can join a game in a DM: open {rules.info.name} in a server "
                f"channel or thread. Alone, you can play {_solo_names()} here with `/solo`."
            )
        options = dict(options or {})
        if "clock" in rules.info.options and "clock" not in options:
            # a game that starts by the time of day (Seven Cities' clock cards) reads the
            # opener's own clock: their time zone from /settings, else UTC
            zone = ZoneInfo((await self.store.settings(caller.user_id)).timezone)
            options["clock"] = self.store.clock().astimezone(zone).strftime("%H:%M")
        try:
            rules.new(rules.info.min_players, options, 0)
        except BadOptions as exc:
            raise Refused(str(exc)) from None
        if await self.store.live_game(table.channel_id):
            if table.guild_id is None:
                raise Refused(
                    "You already have a game going in this DM: finish it, or call it off "
                    "with `/game abandon`, first."
                )
            raise Refused(
                "This channel already has a game. Finish or abandon it, or use another "
                "channel or thread."
            )
        try:
            game_id = await self.store.create_game(
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                game_key=game_key,
                options=options,
                seed=self._seed() if seed is None else seed,
                creator_id=caller.user_id,
                creator_name=caller.name,
                clocks=clocks,
                rated=rated,
            )
        except StaleGame:
            raise Refused("This channel already has a game.") from None
        info = rules.info
        timing = "" if rated else " A casual game: ratings stay as they are."
        if clocks.move_hours is not None:
            timing += (
                f" Time per move: {format_hours(clocks.move_hours)}; then the game plays "
                f"{POLICIES[clocks.policy]}."
            )
        return Reply(
            text=(
                f"{caller.name} opened a game of **{info.name}** "
                f"({player_count(info)}). "
                f"Join with `/game join`; {caller.name} starts it with `/game start`.{timing}"
            ),
            game_id=game_id,
        )

    async def solo(
        self, table: Table, caller: Caller, game_key: str, options: Mapping[str, Any] | None = None
    ) -> Reply:
        """Open and start a game for one at ``table`` (a DM, a channel, a thread): against
        the game's own opponent, unrated."""
        rules = self._rules_of(game_key)
        if rules.info.min_players > 1:
            raise Refused(
                f"{rules.info.name} needs {player_count(rules.info)}; "
                f"games to play alone: {_solo_names()}."
            )
        await self.create(table, caller, game_key, options, rated=False)
        return await self.start(table, caller)

    async def join(self, table: Table, caller: Caller) -> Reply:
        game = await self._live(table)
        if game.row.status != "lobby":
            raise Refused("This game has already started; wait for the next one.")
        if game.seat_of(caller.user_id) is not None:
            raise Refused("You are already in this game.")
        if len(game.seats) >= game.rules.info.max_players:
            raise Refused(f"The game is full ({game.rules.info.max_players} players).")
        try:
            await self.store.join(game.row.id, game.row.version, caller.user_id, caller.name)
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        names = [*game.names, caller.name]
        return Reply(text=f"{caller.name} joined. Players: {', '.join(names)}.")

    async def leave(self, table: Table, caller: Caller) -> Reply:
        game = await self._live(table)
        if game.row.status != "lobby":
            raise Refused("The game has started: use `/game resign` to leave it.")
        if game.seat_of(caller.user_id) is None:
            raise Refused("You are not in this game.")
        if caller.user_id == game.row.creator_id:
            raise Refused("You opened this game: call it off with `/game abandon` instead.")
        try:
            await self.store.leave(game.row.id, game.row.version, caller.user_id)
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        names = [
            n for s, n in zip(game.seats, game.names, strict=True) if s.user_id != caller.user_id
        ]
        return Reply(text=f"{caller.name} left. Players: {', '.join(names)}.")

    async def start(self, table: Table, caller: Caller) -> Reply:
        game = await self._live(table)
        if game.row.status != "lobby":
            raise Refused("The game has already started.")
        self._manager_of(game, caller, "start it")
        info = game.rules.info
        if len(game.seats) < info.min_players:
            raise Refused(
                f"{info.name} needs at least {info.min_players} players; "
                f"{len(game.seats)} joined so far."
            )
        try:
            state = game.rules.new(len(game.seats), game.row.options, game.row.seed)
        except BadOptions as exc:
            raise Refused(str(exc)) from None
        started = Loaded(game.row, game.seats, game.rules, state)
        try:
            await self.store.start(
                game.row.id,
                game.row.version,
                _PARSED.stored(game.row.game_key, state),
                game.rules.to_play(state),
            )
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        labels = [game.rules.seat_label(state, s) for s in range(len(game.names))]
        order = ", ".join(
            f"{s + 1}. {n}" + (f" ({label})" if label else "")
            for s, (n, label) in enumerate(zip(game.names, labels, strict=True))
        )
        return await self._position_reply(
            started, state, game.row.version + 1, [f"**{info.name}** begins. Seats: {order}."]
        )

    async def abandon(self, table: Table, caller: Caller) -> Reply:
        game = await self._live(table)
        league_game = await self.store.league_match_of(game.row.id) is not None
        if league_game and (game.seat_of(caller.user_id) is not None or not caller.manager):
            # abandoning settles the match as a forfeit by every seat: not a player's call
            raise Refused(
                "This is a league match, so it can't be abandoned. To concede, use "
                "`/game resign`: a loss for you alone. A match nobody finishes is settled "
                "at the round's deadline as a forfeit by whoever holds it up."
            )
        if not self._referee(game, caller) and await self._at_stake(game):
            # calling it off would erase a result: a player losing it must not have that way out
            raise Refused(
                "This rated game is under way (every player has moved), so calling it off "
                "would erase its result. To stop, use `/game resign` (a loss for you alone), "
                "or ask a server manager who is not playing in it to call it off."
            )
        self._manager_of(game, caller, "abandon it")
        async with self._turn(table):
            try:
                attempt = solo_attempt(game, game.state, abandoned=True) if game.state else None
                await self.store.abandon(game.row.id, game.row.version, attempt)
            except StaleGame:
                raise Refused("The game changed at that moment; please try again.") from None
        return Reply(
            text=f"{caller.name} abandoned the game of {game.rules.info.name}.",
            changed=(game.row.id,),
        )

    # -- playing --------------------------------------------------------------------------

    async def move(
        self, table: Table, caller: Caller, text: str, expect: tuple[int, int] | None = None
    ) -> Reply:
        """Play ``text`` for the caller. ``expect`` = (game id, version) from a button."""
        async with self._turn(table):
            game = await self._active(table, expect)
            seat = self._seated(game, caller)
            try:
                step = game.rules.play(game.state, seat, text)
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None
            return await self._commit(game, seat, caller, game.rules.format(step.action), step)

    async def resign(
        self, table: Table, caller: Caller, expect: tuple[int, int] | None = None
    ) -> Reply:
        async with self._turn(table):
            game = await self._active(table, expect)
            seat = self._seated(game, caller)
            try:
                step = game.rules.play(game.state, seat, "resign")
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None
            return await self._commit(game, seat, caller, "resign", step)

    async def skip_turn(self, table: Table, caller: Caller, expect: tuple[int, int]) -> Reply:
        """Pass a seat's turn because its time ran out (the ``skip`` deadline policy)."""
        async with self._turn(table):
            game = await self._active(table, expect)
            seat = self._seated(game, caller)
            try:
                step = game.rules.skip(game.state, seat)
            except IllegalMove as exc:
                raise Refused(describe(exc.reason, game.names)) from None
            return await self._commit(game, seat, caller, "skip", step, kind="skip")

    async def _commit(
        self,
        game: Loaded,
        seat: int,
        caller: Caller,
        notation: str,
        step: Step,
        kind: str = "move",
    ) -> Reply:
        """Store ``step`` as the game's next move, in one transaction, and answer it."""
        rules = game.rules
        state, events, result = step.state, step.events, step.result
        results = None
        if result is not None:
            results = list(zip(result.places, result.scores, strict=True))
        try:
            await self.store.record(
                game.row.id,
                game.row.version,
                seat=seat,
                user_id=caller.user_id,
                action=notation,
                state=_PARSED.stored(game.row.game_key, state),
                awaiting=tuple(step.awaited),
                results=results,
                kind=kind,
                reacting=step.reaction_open,
                attempt=solo_attempt(game, state) if step.over else None,
            )
        except StaleGame:
            raise Refused(
                "Another move was played at that same moment, so yours was not. "
                "Look at the new board and try again."
            ) from None
        lines = [e.describe(game.names) for e in events if e.seat is None and e.kind != "end"]
        reply = await self._position_reply(
            game, state, game.row.version + 1, lines, already=game.awaited_users()
        )
        if not rules.info.sends_own_view:
            return reply
        private = await self._private(game, state, reply.version, seat, events)
        return replace(reply, followup=private)

    async def hand(self, table: Table, caller: Caller) -> Reply:
        """The caller's own view of a game with hidden information, for their eyes only."""
        game = await self._active(table)
        seat = self._seated(game, caller)
        if not game.rules.info.sends_own_view:
            raise Refused(
                f"Nothing is hidden in {game.rules.info.name}: everyone sees the same board "
                "(`/game board`)."
            )
        return await self._private(game, game.state, game.row.version, seat, [])

    async def legal_moves(
        self, table: Table, caller: Caller, expect: tuple[int, int] | None = None
    ) -> list[str]:
        """The caller's legal moves in notation; refuses if it is not their turn."""
        game = await self._active(table, expect)
        seat = self._seated(game, caller)
        if game.rules.is_over(game.state):
            raise Refused("The game is over.")
        if seat not in game.rules.to_play(game.state):
            waiting = ", ".join(game.names[s] for s in game.rules.to_play(game.state))
            raise Refused(f"It is not your turn: waiting for {waiting}.")
        return [game.rules.format(a) for a in game.rules.legal(game.state, seat)]

    async def legal(self, table: Table, caller: Caller) -> Reply:
        moves = await self.legal_moves(table, caller)
        listed: list[str] = []
        used = 0  # characters so far, with each move's backquotes and comma
        for m in moves:  # one message's worth: the Play button walks through any number
            if used + len(m) > LEGAL_LISTED:
                break
            listed.append(m)
            used += len(m) + 4
        listing = ", ".join(f"`{m}`" for m in listed)
        if len(listed) < len(moves):
            listing += f" and {len(moves) - len(listed)} more (the **Play** button offers them all)"
        return Reply(text=f"Your {len(moves)} legal moves: {listing}", private=True)

    # -- undo -----------------------------------------------------------------------------

    async def undo(self, table: Table, caller: Caller) -> Reply:
        """Take back the caller's last move (and any after it, if all others agree).

        The mover may take a move back alone until the next player acts; after that a
        request waits for every other player, who agree by asking to undo too.
        """
        async with self._turn(table):
            game = await self._active(table)
            seat = self._seated(game, caller)
            standing = effective_moves(await self.store.moves(game.row.id))
            request = await self.store.undo_request(game.row.id)
            if request is not None and request.version == game.row.version:
                return await self._agree(game, caller, standing, request)
            mine = [i for i, m in enumerate(standing) if m.seat == seat]
            if not mine:
                raise Refused("You have no move to take back.")
            count = len(standing) - mine[-1]
            if count == 1:
                last = standing[-1]
                if last.kind == "move":
                    before = rebuild(game, standing[:-1])
                    step = game.rules.play(before, last.seat, last.action)
                    if game.rules.revealed(before, step.state, step.events):
                        raise Refused(
                            f"`{last.action}` rolled or drew something you have now seen, "
                            "so it cannot be taken back."
                        )
                return await self._take_back(game, seat, caller.user_id, standing, 1)
            request = UndoRequest(caller.user_id, count, game.row.version, frozenset())
            await self.store.put_undo_request(game.row.id, request)
            others = _asked(game, standing, request)
            return Reply(
                text=(
                    f"{caller.name} asks to take back their move `{standing[mine[-1]].action}` "
                    f"and the {count - 1} after it. "
                    f"{', '.join(s.name for s in others)}: agree with `/game undo`; "
                    "any move cancels the request."
                ),
                mentions=tuple(s.user_id for s in others),
            )

    async def _agree(
        self, game: Loaded, caller: Caller, standing: list, request: UndoRequest
    ) -> Reply:
        if caller.user_id == request.user_id:
            raise Refused("You already asked; the other players have to agree.")
        agreed = request.agreed | {caller.user_id}
        missing = [s for s in _asked(game, standing, request) if s.user_id not in agreed]
        if missing:
            await self.store.put_undo_request(
                game.row.id,
                UndoRequest(request.user_id, request.moves, request.version, agreed),
            )
            waiting = ", ".join(s.name for s in missing)
            return Reply(text=f"{caller.name} agrees. Still waiting for {waiting}.")
        asker = game.seat_of(request.user_id)
        return await self._take_back(game, asker, request.user_id, standing, request.moves)

    async def _take_back(
        self, game: Loaded, seat: int, user_id: int, standing: list, count: int
    ) -> Reply:
        """Log a take-back of ``count`` moves by its asker and store the replayed state."""
        kept = standing[: len(standing) - count]
        state = rebuild(game, kept)
        try:
            await self.store.record(
                game.row.id,
                game.row.version,
                seat=seat,
                user_id=user_id,
                kind="undo",
                action=str(count),
                state=_PARSED.stored(game.row.game_key, state),
                awaiting=game.rules.to_play(state),
                reacting=game.rules.reaction_open(state),
            )
        except StaleGame:
            raise Refused("A move was played at that moment; nothing was taken back.") from None
        taken = ", ".join(f"`{m.action}`" for m in standing[len(kept) :])
        return await self._position_reply(
            game, state, game.row.version + 1, [f"Taken back: {taken}."]
        )

    # -- play by post ---------------------------------------------------------------------

    def _manager_of(self, game: Loaded, caller: Caller, what: str) -> None:
        if caller.user_id != game.row.creator_id and not caller.manager:
            raise Refused(f"Only the player who opened the game (or a server manager) can {what}.")

    @staticmethod
    def _referee(game: Loaded, caller: Caller) -> bool:
        """A server manager with no seat in the game: the only one who may change a rated
        game's seats or outcome against its players' will, as nothing is at stake for them."""
        return caller.manager and game.seat_of(caller.user_id) is None

    async def _at_stake(self, game: Loaded) -> bool:
        """Whether a rated result is taking shape: a rated game in which every player has
        made a move of their own. Before that somebody never engaged, and calling the game
        off or handing a seat on takes nothing from anyone."""
        if game.state is None or not await self.store.is_rated(game.row.id):
            return False
        log = effective_moves(await self.store.moves(game.row.id))
        return {m.seat for m in log if m.kind == "move"} == set(range(len(game.seats)))

    async def snooze(self, table: Table, caller: Caller) -> Reply:
        """No more reminders for the caller's current turn in this channel's game."""
        game = await self._active(table)
        seat = self._seated(game, caller)
        if seat not in game.rules.to_play(game.state):
            raise Refused("It is not your turn, so there is nothing to snooze.")
        await self.store.snooze(game.row.id, caller.user_id)
        return Reply(text="No more reminders for this turn.", private=True)

    async def snooze_turn(self, game_id: int, caller: Caller, turn_since: str) -> Reply:
        """The Snooze button on a reminder (in the channel or a DM): that turn only."""
        row = await self.store.game(game_id)
        seats = await self.store.seats(game_id) if row else []
        if all(s.user_id != caller.user_id for s in seats):
            raise Refused("You are not playing in this game.")
        if row.status != "active" or not await self.store.snooze(
            game_id, caller.user_id, turn_since
        ):
            waited = await self.store.waiting_since(game_id, turn_since)
            if row.status == "active" and waited:  # someone else's reminder, in the channel
                raise Refused(
                    f"This isn't your turn to snooze: only {', '.join(waited)} is waited for."
                )
            raise Refused("That turn is over, so there is nothing to snooze.")
        return Reply(text="No more reminders for this turn.", private=True)

    async def extend(self, table: Table, caller: Caller, hours: float) -> Reply:
        """Give the waiting players more time: never by themselves (a creator or manager
        would otherwise stretch their own clock), and at most :data:`EXTEND_CAP_HOURS`,
        or the time per move if longer, for one turn."""
        game = await self._active(table)
        self._manager_of(game, caller, "extend a deadline")
        if caller.user_id in game.awaited_users():
            raise Refused(
                "Nobody can extend their own clock, and this turn is yours: a server manager "
                "(or the game's creator, if that is not you) can give you more time."
            )
        hours = check_hours(hours, EXTEND_BY)
        most = max((await self.store.clocks(game.row.id)).move_hours or 0, EXTEND_CAP_HOURS)
        try:
            extended = await self.store.extend_turn(game.row.id, game.row.version, hours, most)
        except StaleGame:
            raise Refused("The game changed at that moment; please try again.") from None
        if extended is None:
            raise Refused("This game has no running deadline (no time per move).")
        given, made = extended
        if not made:
            raise Refused(
                f"`by:{format_hours(hours)}` is too much: one turn can be given at most "
                f"{format_hours(most)} more (its time per move, or "
                f"{format_hours(EXTEND_CAP_HOURS)} if that is longer), and this turn has had "
                + (f"{format_hours(given)} already." if given else "none yet.")
            )
        waiting = ", ".join(game.names[s] for s in game.rules.to_play(game.state))
        return Reply(
            text=f"{caller.name} gave {waiting} {format_hours(hours)} more.",
            changed=(game.row.id,),
        )

    async def replace_player(
        self, table: Table, caller: Caller, old_user: int, new: Caller
    ) -> Reply:
        """Hand a seat to another user; the seat, its pieces and its turn stay."""
        game = await self._live(table)
        await self._may_replace(game, caller, old_user)
        seat = game.seat_of(old_user)
        if seat is None:
            raise Refused("That user is not playing in this game.")
        if game.seat_of(new.user_id) is not None:
            raise Refused(f"{new.name} already has a seat in this game.")
        try:
            await self.store.replace_player(
                game.row.id, game.row.version, seat, new.user_id, new.name
            )
        except StaleGame:
            raise Refused("The game changed at that moment; please try again.") from None
        awaited = seat in (game.rules.to_play(game.state) if game.state else ())
        by = "" if caller.user_id == old_user else f" {caller.name} made the change."
        return Reply(
            text=f"{new.name} takes over seat {seat + 1} from {game.names[seat]}.{by}",
            mentions=await self._tell_turn(game, [new.user_id] if awaited else []),
            changed=(game.row.id,),
        )

    async def _may_replace(self, game: Loaded, caller: Caller, old_user: int) -> None:
        """Who may hand ``old_user``'s seat on. In the lobby, its owner (creator or
        manager). Once the game has started a seat is its player's: they may hand it on
        themselves, or a server manager with no seat may; a creator can no longer swap an
        opponent for a second account of their own. In a league match, or once a rated
        result is taking shape, a player's own hand-over could pass a result to someone
        else, so only that manager."""
        if game.state is None:
            self._manager_of(game, caller, "replace a player")
            return
        if self._referee(game, caller):
            return
        if await self.store.league_match_of(game.row.id) is not None:
            # the league's pairings and standings name its members: nobody sends a stand-in
            raise Refused(
                "This is a league match: its seats are the league's pairing, so only a server "
                "manager who is not playing in it can hand one on. To leave, use `/game resign`."
            )
        if caller.user_id != old_user:
            raise Refused(
                "The game has started, so a seat is its player's: only they can hand it on "
                "(`/game replace player:<themselves> by:<someone>`), or a server manager "
                "who is not playing in this game."
            )
        if await self._at_stake(game):
            raise Refused(
                "This rated game is under way (every player has moved), so your seat and "
                "its result stay yours: to stop, use `/game resign`, or ask a server "
                "manager who is not playing in it to hand your seat on."
            )

    async def vacation(self, caller: Caller, days: float) -> Reply:
        """Pause the caller's clocks for ``days`` from their bank; 0 ends a vacation early."""
        settings = await self.store.settings(caller.user_id)
        now = self.store.clock()
        until = parse_time(settings.vacation_until) if settings.vacation_until else None
        if days == 0:
            if until is None or until <= now:
                raise Refused("You are not on vacation.")
            left = (until - now).total_seconds() / 86400
            await self.store.put_settings(
                caller.user_id,
                replace(settings, vacation_until=None, vacation_days=settings.vacation_days + left),
            )
            games = await self.store.push_deadlines(-left * 24, user_id=caller.user_id)
            return Reply(
                text=f"Welcome back. {left:.1f} unused days went back to your bank.",
                private=True,
                changed=tuple(games),
            )
        if not 0 < days <= settings.vacation_days:
            raise Refused(
                f"You have {settings.vacation_days:g} vacation days left: days must be from 0 "
                f"(back early) to {settings.vacation_days:g}; {shown(days)} is not."
            )
        start = max(now, until) if until else now
        await self.store.put_settings(
            caller.user_id,
            replace(
                settings,
                vacation_until=iso(start + timedelta(days=days)),
                vacation_days=settings.vacation_days - days,
            ),
        )
        games = await self.store.push_deadlines(days * 24, user_id=caller.user_id)
        return Reply(
            text=(
                f"Enjoy your break: your clocks are paused for {days:g} days "
                f"({len(games)} running deadline(s) moved). {settings.vacation_days - days:g} "
                "days left in your bank. `/vacation days:0` comes back early."
            ),
            private=True,
            changed=tuple(games),
        )

    async def settings(self, caller: Caller, *, quiet_off: bool = False, **changes: Any) -> Reply:
        """Show or change how the caller is told it is their turn; ``quiet_off`` clears
        the quiet hours (a ``None`` among ``changes`` means "unchanged")."""
        current = await self.store.settings(caller.user_id)
        given = {k: v for k, v in changes.items() if v is not None}
        if "notify" in given and given["notify"] not in NOTIFY:
            raise Refused(f"Notify must be one of {', '.join(NOTIFY)}.")
        if "timezone" in given:
            given["timezone"] = parse_timezone(given["timezone"])
        for key in ("quiet_start", "quiet_end"):
            if key in given and not 0 <= given[key] <= 23:
                raise Refused("Quiet hours are whole hours from 0 to 23.")
        if quiet_off:
            if "quiet_start" in given or "quiet_end" in given:
                raise Refused("Set quiet hours or turn them off, not both at once.")
            given.update(quiet_start=None, quiet_end=None)
        updated = replace(current, **given)
        if given:
            await self.store.put_settings(caller.user_id, updated)
        quiet = (
            f"quiet {updated.quiet_start}:00–{updated.quiet_end}:00 (DMs wait)"
            if updated.quiet_start is not None and updated.quiet_end is not None
            else "no quiet hours"
        )
        return Reply(
            text=(
                f"Turn notices: {NOTIFY[updated.notify]}; time zone {updated.timezone}; {quiet}; "
                f"{updated.vacation_days:g} vacation days in the bank."
            ),
            private=True,
        )

    async def archive(self, table: Table, caller: Caller) -> Reply:
        """Close a finished game's place; its log, boards and results are kept."""
        game = await self._latest(table)
        if game.row.status in ("lobby", "active"):
            raise Refused("Finish or abandon the game before archiving it.")
        self._manager_of(game, caller, "archive it")
        return Reply(
            text=(
                f"{caller.name} archived this {game.rules.info.name} game. Its history and "
                "every past board stay available (`/game history`, `/game board move:N`)."
            )
        )

    # -- ratings --------------------------------------------------------------------------

    async def rating(self, guild_id: int | None, player: Caller, game_key: str | None) -> Reply:
        """A player's rating in this server, for one game or every game they have played."""
        keys = [self._rules_of(game_key).info.key] if game_key else sorted(engine.GAMES)
        lines = []
        for key in keys:
            board = await self.store.ratings(guild_id, key)
            for rank, (user_id, _name, r) in enumerate(board, start=1):
                if user_id == player.user_id:
                    lines.append(
                        f"{engine.get(key).info.name}: **{r.label()}** — #{rank} of {len(board)}, "
                        f"{r.games} rated game(s)"
                    )
        if not lines:
            raise Refused(f"{player.name} has no rated games here yet.")
        note = "\n(? = provisional: fewer than 5 rated games)" if "?" in "".join(lines) else ""
        return Reply(text=f"**{player.name}**\n" + "\n".join(lines) + note, private=True)

    async def leaderboard(self, guild_id: int | None, game_key: str) -> Reply:
        info = self._rules_of(game_key).info
        board = await self.store.ratings(guild_id, game_key)
        if not board:
            raise Refused(f"No rated {info.name} games have been played here yet.")
        lines = [
            f"{rank}. {name} — {r.label()} ({r.games})"
            for rank, (_u, name, r) in enumerate(board[:20], start=1)
        ]
        return Reply(
            text=f"**{info.name} leaderboard** (rating = mu − 3·sigma; ? = provisional)\n"
            + "\n".join(lines)
        )

    # -- looking --------------------------------------------------------------------------

    async def board(self, table: Table, move: int | None = None) -> Reply:
        """The public board now, or as it stood after entry ``move`` of the history."""
        game = await self._latest(table)
        if game.state is None:
            raise Refused("The game has not started yet, so there is no board.")
        if move is None:
            text = f"**{game.rules.info.name}** — " + self._turn_text(game, game.state)
            text, image = await self._board(game, game.state, text)
            return Reply(
                text=text,
                image=image,
                private=True,
                game_id=game.row.id,
                version=game.row.version,
            )
        log = await self.store.moves(game.row.id)
        if not 0 <= move <= len(log):
            raise Refused(f"Pick a move from 0 (the start) to {len(log)}; see `/game history`.")
        state = rebuild(game, log[:move])
        when = "at the start" if move == 0 else f"after move {move} (`{log[move - 1].action}`)"
        text = f"**{game.rules.info.name}** {when} — " + self._turn_text(game, state)
        text, image = await self._board(game, state, text)
        return Reply(
            text=text,
            image=image,
            private=True,
            game_id=game.row.id,
        )

    async def status_card(self, game_id: int) -> StatusCard:
        """The short summary a channel keeps pinned (players, scores, turn, deadline), and
        where it is pinned: one query, as it is refreshed after every move."""
        game = _loaded(*await self.store.seated_game(game_id))
        row = game.row
        return StatusCard(row.channel_id, row.status_message_id, self._status_text(game))

    async def status_posted(self, game_id: int, message_id: int) -> None:
        """Remember where the game's status now is, so the next refresh edits it."""
        await self.store.set_status_message(game_id, message_id)

    def _status_text(self, game: Loaded) -> str:
        row, info = game.row, game.rules.info
        if game.state is None:
            return f"**{info.name}** — waiting to start. Players: {', '.join(game.names)}."
        scores = game.rules.result(game.state).scores
        awaited = set(game.rules.to_play(game.state))
        players = " · ".join(
            f"{'▶ ' if s in awaited else ''}{n} {scores[s]}" for s, n in enumerate(game.names)
        )
        lines = [f"**{info.name}** ({row.status}) — {players}", self._turn_text(game, game.state)]
        deadlines = [seat.deadline for seat in game.seats if seat.awaiting and seat.deadline]
        if deadlines and row.status == "active":
            lines.append(f"Deadline: {min(deadlines)[:16].replace('T', ' ')} UTC.")
        return "\n".join(lines)

    async def status(self, table: Table) -> Reply:
        game = await self._latest(table)
        info = game.rules.info
        if game.state is None:
            players = ", ".join(game.names)
            return Reply(
                text=f"**{info.name}** lobby — players: {players} ({player_count(info)} can play).",
                private=True,
            )
        result = game.rules.result(game.state)
        seats = "\n".join(
            f"{s + 1}. {name} — {result.scores[s]}" for s, name in enumerate(game.names)
        )
        status = "" if game.row.status in ("active", "finished") else f" ({game.row.status})"
        return Reply(
            text=f"**{info.name}**{status}\n{seats}\n{self._turn_text(game, game.state)}",
            private=True,
        )

    async def history(self, table: Table) -> Reply:
        game = await self._latest(table)
        log = await self.store.moves(game.row.id)
        if not log:
            return Reply(text="No moves yet.", private=True)
        lines = []
        for m in log:
            who = game.names[m.seat]
            if m.kind == "undo":
                lines.append(f"{m.seq}. {who} took back {m.action} move(s)")
            elif m.kind == "skip":
                lines.append(f"{m.seq}. {who}'s turn was skipped (out of time)")
            else:
                lines.append(f"{m.seq}. {who}: {m.action}")
        return Reply(text="\n".join(lines), private=True)

    async def my_turns(self, caller: Caller) -> Reply:
        waiting = await self.store.awaiting(caller.user_id)
        if not waiting:
            return Reply(text="No game is waiting for you.", private=True)
        lines = [
            f"• {engine.get(w.game_key).info.name} in {self._link(Table(w.channel_id, w.guild_id))}"
            f" — waiting since {w.since[:16].replace('T', ' ')} UTC"
            for w in waiting
        ]
        return Reply(text="Your turn in:\n" + "\n".join(lines), private=True)
