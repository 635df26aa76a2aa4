"""A game as the service loads it (:class:`Loaded`), how its log replays, and
:class:`Games`, which finds and loads the game a request is about: the channel's live
one, its latest, or one by id, a damaged one rebuilt from its log on the way.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import engine
from bot.service.context import Context
from bot.service.inputs import SHOWN, Refused
from bot.service.replies import Caller, Table
from bot.service.states import GAMES_KEPT, ParsedStates
from bot.store import Attempt, CannotSave, GameRow, MoveRow, SeatRow, Store
from bot.store.damage import OPTIONS_DAMAGED
from engine.core import Game, Step

log = logging.getLogger(__name__)

#: said to a click on a button of a position (or a game) that is no more
STALE = (
    "That button belongs to an earlier position: the game has moved on. "
    "Use the buttons under the newest board."
)
#: said to a request about a game still in its lobby
NOT_STARTED = "The game has not started yet. Its creator starts it with `/game start`."
#: what parsing a stored state raises when its text is not a state (a damaged byte)
UNREADABLE = (ValueError, KeyError, IndexError, TypeError, AttributeError)


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

    def held_seat(self, user_id: int) -> int:
        """The seat of a user known to play here (one the game awaits, the asker of a
        request it stored)."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise LookupError(f"user {user_id} holds no seat in game {self.row.id}")
        return seat

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


def unchanged(game: Loaded, kept: Loaded | None) -> bool:
    """Whether ``game`` as read is as ``kept`` has it: what was worked out on the one
    holds for the other."""
    return (
        kept is not None
        and game.row.version == kept.row.version
        and game.state is kept.state
        and game.seats == kept.seats
    )


class Outdated(Refused):
    """A move not stored because its game was no longer as it was decided on: decided on
    a kept copy (:meth:`Games.kept`), it is decided again on the game as stored; decided
    on the game as stored, it is refused with this."""

    def __init__(self) -> None:
        super().__init__(
            "Another move was played at that same moment, so yours was not. "
            "Look at the new board and try again."
        )


def loaded(row: GameRow, seats: list[SeatRow], states: ParsedStates) -> Loaded:
    state = states.get(row.id, row.game_key, row.state) if row.state else None
    return Loaded(row, seats, engine.get(row.game_key), state)


def rules_of(game_key: str) -> Game:
    """The rules of the game called ``game_key``; refused, naming the games, if none is."""
    if game_key not in engine.GAMES:
        known = ", ".join(sorted(engine.GAMES))
        raise Refused(f"There is no game called '{game_key[:SHOWN]}'. Games: {known}.")
    return engine.GAMES[game_key]


def seated(game: Loaded, caller: Caller) -> int:
    """The caller's seat in ``game``; refused if they have none."""
    seat = game.seat_of(caller.user_id)
    if seat is None:
        raise Refused("You are not playing in this game.")
    return seat


async def stored_game(store: Store, game_id: int) -> GameRow:
    """The row of a game known to be stored (a league match's): games are never
    deleted."""
    row = await store.game(game_id)
    if row is None:
        raise LookupError(f"game {game_id} is not in the store")
    return row


def results_of(seats: Sequence[SeatRow]) -> tuple[list[int], list[int]]:
    """A finished game's places and scores, a seat each: the move that finished it set
    both on every seat."""
    places, scores = [], []
    for seat in seats:
        if seat.place is None or seat.score is None:
            raise LookupError(f"seat {seat.seat} of a finished game has no result")
        places.append(seat.place)
        scores.append(seat.score)
    return places, scores


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
    return deque(walked(rules, players, options, seed, log), maxlen=1)[0]


def walked(
    rules: Game, players: int, options: dict, seed: int, log: Sequence[MoveRow]
) -> Iterator[Any]:
    """Every position a log leads through, from the start to where it stands now."""
    state = rules.new(players, options, seed)
    yield state
    for entry in effective_moves(log):
        if entry.kind == "skip":
            state = rules.skip(state, entry.seat).state
        else:
            state = rules.play(state, entry.seat, entry.action).state
        yield state


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


class GameDamaged(Refused):
    """A game whose stored state is damaged and cannot be rebuilt from its move log: every
    request about it is refused with this, but calling it off (:meth:`Games.live`)."""

    def __init__(self, row: GameRow) -> None:
        who = "a server manager" if row.guild_id is not None else "you"
        super().__init__(
            f"Game #{row.id}'s stored state is damaged, so it can't be played on; {who} "
            "can call it off with `/game abandon`."
        )


class Games:
    """Finding and loading the game a request is about, as stored: a damaged state
    (:mod:`bot.store.damage`) is rebuilt from the move log, the game's source of truth,
    or named to the operator once and refused to the players."""

    def __init__(self, context: Context) -> None:
        self.store = context.store
        self.states = context.states
        self._damaged: set[int] = set()  # games whose damage the operator has been told of
        #: each running game as this process's last move of it left it, by id, the least
        #: lately moved let go first (:meth:`kept`), and which of them each channel plays
        self._kept: OrderedDict[int, Loaded] = OrderedDict()
        self._channels: dict[int, int] = {}

    def kept(self, game_id: int) -> Loaded | None:
        """Game ``game_id`` as this process's last move of it left it, not read again: a
        move may be decided on it and stored in one trip to the database, for the move
        is refused as stale if the game is no longer so (its version, and its seats:
        :attr:`~bot.store.rows.MoveRecord.seen`). Whatever it refuses or leaves
        undecided is asked again of the game as stored, for the copy may be behind."""
        return self._kept.get(game_id)

    def kept_active(self, table: Table, expect: tuple[int, int] | None) -> Loaded | None:
        """:meth:`kept` of the channel's running game, if its version is ``expect``'s."""
        game = self._kept.get(self._channels.get(table.channel_id, 0))
        if game is None or (expect is not None and (game.row.id, game.row.version) != expect):
            return None
        return game

    def keep(self, game: Loaded) -> None:
        """Keep ``game`` as a move of this process left it (a running game), or forget it."""
        self.forget(game.row.id)
        if game.row.status != "active":
            return
        self.forget(self._channels.get(game.row.channel_id, 0))  # an older game there
        self._kept[game.row.id] = game
        self._channels[game.row.channel_id] = game.row.id
        if len(self._kept) > GAMES_KEPT:
            self.forget(next(iter(self._kept)))

    def forget(self, game_id: int) -> None:
        game = self._kept.pop(game_id, None)
        if game is not None and self._channels.get(game.row.channel_id) == game_id:
            del self._channels[game.row.channel_id]

    async def live(self, table: Table, *, damaged: bool = False) -> Loaded:
        """The channel's lobby or running game; ``damaged``: one whose state is damaged
        past rebuilding too, without its state, to be called off."""
        found = await self.store.seated_live_game(table.channel_id)
        if found is None:
            latest = await self.store.latest_game(table.channel_id)
            if latest is not None:
                raise Refused(f"The game here is {latest.status}. {open_one(table, 'a new one')}")
            raise Refused(f"There is no game here. {open_one(table)}")
        return await self._loaded(*found, damaged=damaged)

    async def active(self, table: Table, expect: tuple[int, int] | None = None) -> Loaded:
        """The channel's running game; ``expect`` = (game id, version) from a button,
        refused as stale if the game has moved on since."""
        game = await self.live(table)
        if expect is not None and (game.row.id, game.row.version) != expect:
            raise Refused(STALE)
        if game.row.status == "lobby":
            raise Refused(NOT_STARTED)
        return game

    async def latest(self, table: Table) -> Loaded:
        """The channel's newest game, whatever became of it."""
        row = await self.store.latest_game(table.channel_id)
        if row is None:
            raise Refused(f"No game has been played here yet. {open_one(table)}")
        return await self.of_row(row)

    async def of_row(self, row: GameRow) -> Loaded:
        return await self._loaded(row, await self.store.seats(row.id))

    async def load(
        self, game_id: int, *, damaged: bool = False, missing: str = "That game is gone."
    ) -> Loaded:
        """A game by its id, as :meth:`live` gives it; refused with ``missing`` if there
        is none."""
        found = await self.store.seated_game(game_id)
        if found is None:
            raise Refused(missing)
        return await self._loaded(*found, damaged=damaged)

    async def check_stored(self) -> int:
        """Look at every live game's stored values once, at start-up, a checksum each
        (:meth:`~bot.store.interface.Games.damaged_games`): a damaged one is rebuilt
        from its log, or named to the operator, before any player meets it. Returns
        how many were damaged."""
        damaged = await self.store.damaged_games()
        for game_id in damaged:
            await self.load(game_id, damaged=True)
        return len(damaged)

    async def _loaded(self, row: GameRow, seats: list[SeatRow], *, damaged: bool = False) -> Loaded:
        """The game as stored. A damaged state (or one that does not parse) is rebuilt
        from the move log and stored again. One the log cannot rebuild raises
        :class:`GameDamaged`, or with ``damaged`` comes back without its state, its
        ``damage`` saying why."""
        damage = row.damage
        if not damage:
            try:
                return loaded(row, seats, self.states)
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
                row.id, row.version, self.states.stored(row.id, row.game_key, state)
            )
        except CannotSave as exc:
            stored, why = False, f"{why}; it could not be stored again: {exc.reason}"
        log.error(
            "Game %d (channel %d) was damaged: %s. Its state was rebuilt from its move log "
            "(%d entries)%s; damage inside the database can mean a failing disk.",
            row.id, row.channel_id, why, entries, " and stored again" if stored else "",
        )  # fmt: skip
