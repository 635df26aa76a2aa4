"""The contract every game engine fulfils, and the few things all of them share.

A game is plain data (an immutable state) plus pure functions over it, in the
spirit of boardgame.io: ``new`` makes a state, ``legal`` lists what a seat may do,
``apply`` returns a *new* state and the events it caused. Randomness comes from
:class:`Rng`, whose whole state lives inside the game state, so ``new(seed)`` plus
the logged actions replays a game exactly. Nothing here does I/O.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar


class IllegalMove(ValueError):
    """A refused action. The message is one sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadOptions(ValueError):
    """Game options that cannot be played, with a sentence saying which and why."""


@dataclass(frozen=True)
class Event:
    """Something that happened while applying an action.

    ``text`` is a short sentence about what happened; ``seat`` names the only seat
    allowed to see it, or is ``None`` for a public event. Seats are written as
    ``{seat0}``-style placeholders so front ends can put in player names.
    """

    kind: str
    text: str
    seat: int | None = None

    def describe(self, names: Sequence[str]) -> str:
        """The text with every ``{seatN}`` replaced by that seat's name."""
        return describe(self.text, names)


_SEAT_REF = re.compile(r"\{seat(\d+)\}")


def seat_ref(seat: int) -> str:
    """The placeholder for a seat's name in event and refusal texts."""
    return f"{{seat{seat}}}"


def describe(text: str, names: Sequence[str]) -> str:
    """Put player names into a text written with :func:`seat_ref` placeholders."""
    return _SEAT_REF.sub(lambda m: names[int(m.group(1))], text)


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``places`` gives each seat's finishing place (1 is best; tied seats share a
    place), ``scores`` each seat's score, ``detail`` a line explaining tie-breaks.
    A solo game against the game's own opponent (Seven Bridges' Euler) counts that
    opponent, so its one seat is 2nd when it lost and there are no winners.
    """

    scores: tuple[int, ...]
    places: tuple[int, ...]
    detail: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, p in enumerate(self.places) if p == 1)


_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Rng:
    """SplitMix64: tiny, well known, and its whole state is one integer.

    Pure: every draw returns the value and the next generator, so a state holding
    an ``Rng`` stays immutable and serialises as a single number.
    """

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK64)

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: Sequence[Any]) -> tuple[tuple[Any, ...], Rng]:
        """A Fisher–Yates shuffle of ``items``."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng


S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class GameInfo:
    """What a front end shows about a game before anyone plays it."""

    key: str
    name: str
    min_players: int
    max_players: int
    summary: str
    #: a short help text (notation, and which rules are our reconstruction) for /rules
    help: str = ""
    #: options a game accepts, name -> what it does (for help and validation messages)
    options: Mapping[str, str] = field(default_factory=dict)
    #: True if any seat may see something others may not: front ends then send each
    #: seat its own view privately, and public replies use the spectator view only
    hidden_information: bool = False
    #: True if each seat's own view is worth sending it even with nothing hidden (a
    #: player's own sheet): the mover gets it privately after each move, and on request
    personal_views: bool = False

    @property
    def sends_own_view(self) -> bool:
        return self.hidden_information or self.personal_views


class Game(ABC, Generic[S, A]):
    """One game's rules. Subclasses are stateless; every method is pure.

    ``seat`` is an index into the players, ``None`` meaning a spectator.
    """

    info: ClassVar[GameInfo]
    #: bumped whenever the JSON form of the state changes incompatibly
    state_version: ClassVar[int] = 1
    #: whether :meth:`skip` can pass a seat's turn (a deadline policy, not a player's move)
    can_skip: ClassVar[bool] = False

    @abstractmethod
    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> S:
        """A fresh game; raises :class:`BadOptions` for options that cannot be played."""

    @abstractmethod
    def legal(self, state: S, seat: int) -> list[A]:
        """Every action ``seat`` may take now, in canonical order (empty if none)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[Event]]:
        """The state after ``seat`` plays ``action``; raises :class:`IllegalMove`."""

    @abstractmethod
    def parse(self, text: str) -> A:
        """Read an action from its notation; raises :class:`IllegalMove` if unreadable."""

    @abstractmethod
    def format(self, action: A) -> str:
        """The one canonical notation of ``action``."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Any:
        """What ``seat`` (or a spectator, ``None``) may see of ``state``."""

    @abstractmethod
    def to_play(self, state: S) -> tuple[int, ...]:
        """The seats whose input is awaited now (empty once the game is over)."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def result(self, state: S) -> Result:
        """Scores and places; for an unfinished game, the standing so far."""

    @abstractmethod
    def state_to_dict(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> S: ...

    def to_json(self, state: S) -> str:
        body = {"game": self.info.key, "version": self.state_version}
        body.update(self.state_to_dict(state))
        return json.dumps(body, separators=(",", ":"), sort_keys=True)

    def from_json(self, text: str) -> S:
        data = json.loads(text)
        if data.get("game") != self.info.key:
            raise ValueError(f"state belongs to {data.get('game')!r}, not {self.info.key!r}")
        if data.get("version") != self.state_version:
            raise ValueError(
                f"{self.info.key} state version {data.get('version')} is not "
                f"{self.state_version}; it needs a migration"
            )
        return self.state_from_dict(data)

    def skip(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """The state once ``seat``'s turn is skipped because its time ran out.

        Not an action a player can choose: only games whose rules survive a lost turn
        offer it (``can_skip``). Raises :class:`IllegalMove` otherwise.
        """
        raise IllegalMove(f"{self.info.name} has no way to skip a turn.")

    def revealed(self, before: S, after: S, events: Sequence[Event]) -> bool:
        """Whether a move from ``before`` to ``after`` showed something chance decided: a
        die rolled (the generator moved on; every state keeps it as ``rng``) or a card or
        domino drawn (told to one seat alone). Its player has seen the outcome, so such a
        move is not theirs alone to take back."""
        moved_on = before.rng != after.rng  # type: ignore[attr-defined]
        return moved_on or any(event.seat is not None for event in events)

    def seat_label(self, state: S, seat: int) -> str:
        """What ``seat`` plays as ("red and yellow", "attacker"), shown beside its player's
        name when the game starts; empty where the seats are alike."""
        return ""

    def reaction_open(self, state: S) -> bool:
        """Whether the awaited seats are answering out of turn (react or ``pass``).

        Such a window must not stall a game by post: when its time runs out, the bot
        plays ``pass`` for every seat that has not answered.
        """
        return False

    def replay(
        self,
        players: int,
        options: Mapping[str, Any] | None,
        seed: int,
        moves: Iterable[tuple[int, str]],
    ) -> S:
        """The state reached by ``new`` and then each ``(seat, notation)`` in order.

        This is how a game is rebuilt from its move log, which is the source of truth.
        """
        state = self.new(players, options, seed)
        for seat, text in moves:
            state, _, _ = self.play(state, seat, text)
        return state

    def play(self, state: S, seat: int, text: str) -> tuple[S, A, list[Event]]:
        """Parse ``text`` and apply it: the usual path from a typed move to a new state."""
        action = self.parse(text)
        new_state, events = self.apply(state, seat, action)
        return new_state, action, events
