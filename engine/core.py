"""The contract every game engine fulfils, and what all of them share.

A game is plain data (an immutable state) plus pure functions over it, in the
spirit of boardgame.io: ``new`` makes a state, and each kind of action is a
:class:`Rule` that answers three questions in one place — which actions of its kind
a seat may choose now (*targets*), why one is refused (*refusal*) and what it does
(*effect*). The core owns what every game shares: the guards (the game is over, you
are not seated, you are not awaited or not for this), ``legal``, a cheap
``is_legal``, ``apply``, which returns one :class:`Step` computed once, and resigning,
which every game has (:class:`Resign`).
Randomness comes from :class:`Rng`, whose whole state lives inside the game state,
so ``new(seed)`` plus the logged actions replays a game exactly. Nothing here does
I/O. engine/README.md says where each part of a game lives.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.options import QUOTED, BadOptions, Choice, Option


class IllegalMove(ValueError):
    """A refused action. The message is one sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def ranked(
    scores: tuple[int, ...], keys: Sequence[tuple], tie_break: str, level: int = 2
) -> Result:
    """The :class:`Result` of seats ordered by their ``keys`` (higher is better).

    A seat's place is one more than the number of seats with a better key, so equal keys
    share a place. ``tie_break`` (the rule's words) becomes the detail when two seats level
    on the first ``level`` items of their keys were told apart by the later ones.
    """
    places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
    broken = any(a[:level] == b[:level] and a != b for i, a in enumerate(keys) for b in keys[:i])
    return Result(scores=scores, places=places, detail=tie_break if broken else "")


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


class Seats(Protocol):
    """How many seats a game has and which of them resigned: what every state holds, and
    any view that shows it, for :func:`too_few_left`."""

    @property
    def players(self) -> int: ...

    @property
    def resigned(self) -> frozenset[int]: ...


class GameState(Seats, Protocol):
    """What the core reads of every game's state, whatever else it holds: a frozen
    dataclass (the core records a resignation with ``dataclasses.replace``) with its
    :class:`Seats` and its generator."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def rng(self) -> Rng: ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")
F = TypeVar("F", bound=Callable[..., Any])
V = TypeVar("V")  # any frozen dataclass: a state or a part of one


def kit_answers(method: F) -> F:
    """Mark a :class:`Game` method that a game's :class:`Kit` answers. It is abstract at run
    time, so ABCMeta still refuses a game that neither names a kit nor writes the method,
    but concrete to a type checker, which cannot see the kit's functions
    ``Game.__init_subclass__`` puts in place (with ``abstractmethod`` every game would be
    abstract to it). Its body is never run: the kit's function or the game's own replaces it."""
    setattr(method, "__isabstractmethod__", True)  # noqa: B010 (mypy: no such field)
    return method


@dataclass(frozen=True)
class Stage:
    """What an awaited seat is asked for now, as boardgame.io's stages.

    ``name`` keys the rules that may be played in it. ``prompt`` is the sentence a seat
    gets when it tries an action of another stage ("Roll the dice first: `roll`.").
    An ``out_of_turn`` stage is a reaction window: the seat answers someone else's turn,
    and a game by post must not stall on it, so when its time runs out the bot plays
    ``pass`` for every seat still in it.
    """

    name: str
    prompt: str = ""
    out_of_turn: bool = False


#: the ordinary stage: the seat whose turn it is, free to play any of its turn's rules
TURN = Stage("turn")


@dataclass(frozen=True)
class Rule(Generic[S, A]):
    """One kind of action: what can be chosen now, why one is refused, what it does.

    ``targets(state, seat)`` lists, in canonical order, every action of this kind the
    seat may choose now: it is what ``legal`` is made of. ``refusal(state, seat,
    action)`` says in one sentence why this action may not be played, or ``None`` when
    it may; it is what ``is_legal`` asks, so it must not generate the targets to answer.
    ``effect`` returns the state after the action and what happened. Both are only
    called once the core's guards have passed. ``stages`` names the stages the rule may
    be played in. (Resigning, open to a seated player at any time, is no game's rule but
    the core's own: :class:`Resign`.)
    """

    action: type[A]
    refusal: Callable[[S, int, A], str | None]
    effect: Callable[[S, int, A], tuple[S, list[Event]]]
    targets: Callable[[S, int], Iterable[A]] = lambda state, seat: ()
    stages: frozenset[str] = frozenset({TURN.name})


@dataclass(frozen=True)
class Resign:
    """Leaving the game: every game's action, open to a seated player at any time, so no
    game writes it. The core reads and writes its notation, :data:`RESIGN`, records the
    seat in the state's ``resigned`` and tells everyone; the game's ``resigned`` says what
    else follows (whose turn it is now, the end when too few are left)."""


#: the notation of :class:`Resign`, the same in every game
RESIGN = "resign"


def evolve(value: V, **changes: Any) -> V:
    """``dataclasses.replace`` for a frozen dataclass that checks nothing as it is made (no
    ``__post_init__``): the same new value, made by copying its fields at once rather than
    calling its constructor with every one. The computer players make hundreds of
    thousands of states a move; with a state of two dozen fields, ``replace`` was most of
    their time."""
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__, **changes)
    return new


def too_few_left(state: Seats) -> bool:
    """Whether resignations leave too few to play on: fewer than two players still in,
    or none in a game played alone (against the game's own opponent)."""
    return state.players - len(state.resigned) < min(2, state.players)


def offered(action: A, refusal: Callable[[S, int, A], str | None]) -> Callable[[S, int], list[A]]:
    """The targets of a rule that has one action (``end``, ``buy``): that action, whenever
    its refusal has nothing to say."""
    return lambda state, seat: [action] if refusal(state, seat, action) is None else []


@dataclass(frozen=True)
class Step(Generic[S, A]):
    """Everything one action led to, computed once so no caller asks again.

    ``awaited`` maps each seat whose input is awaited now to what for; ``result`` is set
    once the game is over. ``action`` is ``None`` for a skipped turn.
    """

    action: A | Resign | None
    state: S
    events: tuple[Event, ...]
    awaited: Mapping[int, Stage]
    result: Result | None

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def reaction_open(self) -> bool:
        return any(stage.out_of_turn for stage in self.awaited.values())


@dataclass(frozen=True)
class Kit:
    """A game's modules in engine/README.md's layout. The core takes from them, by their
    fixed names, each function a game answers with, so no game writes the same wiring:
    ``actions.parse``/``format`` (as ``parse_move``/``format_move``: the core reads and
    writes ``resign`` itself), ``state.to_dict``/``from_dict``, ``flow.awaited`` (and
    ``flow.after``, ``flow.skipped``, ``flow.resigned``, ``flow.up_next`` where the game
    has them),
    ``scoring.result``, ``view.view`` and ``view.sample``. ``ai``, optional, holds what
    only the computer players (``engine.ai``) read: an evaluation and search settings;
    the core never calls it."""

    actions: ModuleType
    state: ModuleType
    flow: ModuleType
    scoring: ModuleType
    view: ModuleType
    ai: ModuleType | None = None

    def functions(self) -> dict[str, Callable[..., Any]]:
        """The :class:`Game` methods these modules answer, by method name."""
        found = {
            "parse_move": self.actions.parse,
            "format_move": self.actions.format,
            "state_to_dict": self.state.to_dict,
            "state_from_dict": self.state.from_dict,
            "awaited": self.flow.awaited,
            "result": self.scoring.result,
            "view": self.view.view,
            "sample": self.view.sample,
        }
        for optional in ("after", "skipped", "resigned", "up_next"):
            if hasattr(self.flow, optional):
                found[optional] = getattr(self.flow, optional)
        return found


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
    #: the options a game accepts (``engine.options``): every front end reads them
    options: tuple[Option, ...] = ()
    #: True if any seat may see something others may not: front ends then send each
    #: seat its own view privately, and public replies use the spectator view only
    hidden_information: bool = False
    #: True if each seat's own view is worth sending it even with nothing hidden (a
    #: player's own sheet): the mover gets it privately after each move, and on request
    personal_views: bool = False

    @property
    def sends_own_view(self) -> bool:
        return self.hidden_information or self.personal_views

    def option(self, name: str) -> Option | None:
        """The option called ``name``, or None if the game has none of that name."""
        return next((o for o in self.options if o.name == name), None)

    def options_in_words(self) -> str:
        """What the game takes, after its name: ``has no options``, ``has the options
        start and advanced``."""
        names = [o.name for o in self.options]
        if not names:
            return "has no options"
        if len(names) == 1:
            return f"has one option, {names[0]}"
        return f"has the options {', '.join(names[:-1])} and {names[-1]}"


class Game(ABC, Generic[S, A]):
    """One game's rules. Subclasses are stateless; every method is pure.

    A game names its :class:`Rule` s in canonical order and says who is awaited for
    what; the core does the rest. ``seat`` is an index into the players, ``None``
    meaning a spectator. Every state holds ``players`` (how many seats), ``resigned``
    (the seats that resigned, a frozenset) and ``rng`` (its :class:`Rng`).
    """

    info: ClassVar[GameInfo]
    #: every kind of action, in the order ``legal`` lists them
    rules: ClassVar[tuple[Rule, ...]]
    #: the game's modules, whose functions answer for it (a game may also write methods)
    kit: ClassVar[Kit]
    #: bumped whenever the JSON form of the state changes incompatibly
    state_version: ClassVar[int] = 1
    #: whether :meth:`skip` can pass a seat's turn (a deadline policy, not a player's move)
    can_skip: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rules" in cls.__dict__:
            cls._by_action = {rule.action: rule for rule in cls.rules}
        if "kit" in cls.__dict__:  # before ABCMeta counts what is still abstract
            for name, function in cls.kit.functions().items():
                setattr(cls, name, staticmethod(function))
            cls.can_skip = hasattr(cls.kit.flow, "skipped")

    _by_action: ClassVar[dict[type, Rule]]

    # -- what each game says ----------------------------------------------------------

    @abstractmethod
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> S:
        """A fresh game, for a number of players the game allows and every option of the
        game as a value of its kind, defaults filled in (:meth:`new` read them through
        their specs); raises :class:`BadOptions` for values it cannot play together."""

    @kit_answers
    def awaited(self, state: S) -> Mapping[int, Stage]:
        """The seats whose input is awaited now, each with its stage (empty once over)."""
        raise NotImplementedError

    @kit_answers
    def parse_move(self, text: str) -> A:
        """Read one of the game's own actions from its notation; raises
        :class:`IllegalMove` if unreadable."""
        raise NotImplementedError

    @kit_answers
    def format_move(self, action: A) -> str:
        """The one canonical notation of one of the game's own actions."""
        raise NotImplementedError

    @kit_answers
    def view(self, state: S, seat: int | None) -> Any:
        """What ``seat`` (or a spectator, ``None``) may see of ``state``."""
        raise NotImplementedError

    @kit_answers
    def sample(self, view: Any, rng: Rng) -> S:
        """One state ``view`` could have come from: the same view for its seat and the
        same legal actions, what the view hides dealt at random by ``rng`` from what
        could be there, and ``rng`` the state's generator, so the dice to come are
        unknown too. The computer players search such states; they never see the real
        one."""
        raise NotImplementedError

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @kit_answers
    def result(self, state: S) -> Result:
        """Scores and places; for an unfinished game, the standing so far."""
        raise NotImplementedError

    @kit_answers
    def state_to_dict(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    @kit_answers
    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        raise NotImplementedError

    def seated(self, state: S, seat: int) -> bool:
        """Whether ``seat`` still plays in this game (a resigned seat does not)."""
        return 0 <= seat < state.players and seat not in state.resigned

    def after(self, before: S, state: S, seat: int, action: A, events: list[Event]) -> S:
        """What follows every action, whatever its kind (the last move noted, the turn
        passed on, a round ended); ``events`` may be added to. By default, nothing."""
        return state

    def skipped(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """The state once ``seat``'s awaited turn passes unplayed (games that ``can_skip``)."""
        raise IllegalMove(f"{self.info.name} has no way to skip a turn.")

    def resigned(self, state: S, seat: int, events: list[Event]) -> S:
        """What follows ``seat``'s resignation, already recorded in ``state.resigned``
        (``events`` may be added to): the turn passes on if it was theirs, what they held
        goes where the rules say, and the game ends when :func:`too_few_left`. In place of
        :meth:`after`, as :meth:`skipped` is. By default, nothing more."""
        return state

    def up_next(self, state: S) -> int | None:
        """The seat whose turn comes once the turn being played now is over, where the
        rules already fix it from what everyone sees (seat order, who is still in): a
        player may ask to hear that they are next. None while no single seat plays a turn
        of its own (a reaction window, choices made all at once), where what happens
        decides it (a round's end), and in a game that does not say (the default)."""
        return None

    # -- what the core does for every game --------------------------------------------

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> S:
        """A fresh game; raises :class:`BadOptions` for a number of players the game does
        not allow, or an option it does not have or whose spec refuses the value (the
        game's :meth:`setup` then judges what needs the whole game)."""
        info = self.info
        if not info.min_players <= players <= info.max_players:
            allowed = (
                f"exactly {info.min_players}"
                if info.min_players == info.max_players
                else f"{info.min_players} to {info.max_players}"
            )
            raise BadOptions(f"{info.name} is for {allowed} players, not {players}.")
        return self.setup(players, self.read_options(options), seed)

    def read_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option of the game as a value of its kind: those in ``options`` read by
        their specs, the others at their defaults. Raises :class:`BadOptions`, naming the
        game, for a name the game has no option of or a value its option refuses."""
        info, given = self.info, dict(options or {})
        unknown = sorted(str(name)[:QUOTED] for name in given if info.option(name) is None)
        if unknown and not info.options:
            raise BadOptions(f"{info.name} has no options (got {', '.join(unknown)}).")
        if unknown:
            known = ", ".join(o.name for o in info.options)
            raise BadOptions(
                f"{info.name} has no option {', '.join(unknown)} (its options: {known})."
            )
        values = {}
        for option in info.options:
            if option.name not in given:
                values[option.name] = option.default
                continue
            values[option.name] = self._read(option, given[option.name])
        for option in info.options:  # a variant stored as the word alone: what it meant
            if option.name in given and isinstance(option, Choice):
                for name, value in option.former(values[option.name]).items():
                    if name not in given:
                        values[name] = self._read(self._option(name), value)
        return values

    def _option(self, name: str) -> Option:
        """The option a preset names: always one of the game's own."""
        option = self.info.option(name)
        assert option is not None, "a preset sets an option of its own game"
        return option

    def _read(self, option: Option, value: Any) -> Any:
        """``value`` read by ``option``'s spec; a refusal names the game."""
        try:
            return option.read(value)
        except BadOptions as exc:
            raise BadOptions(f"{self.info.name}: {exc}") from None

    def written_options(self, options: Mapping[str, Any] | None) -> dict[str, str]:
        """The options given, each in its one spelling: what a game stores and shows, so
        ``8``, ``"8"`` and ``" 8"`` open the same game (:class:`BadOptions` as
        :meth:`read_options`). A variant chosen is written out, every option it sets (or
        once set) with it, so the stored game keeps its rules when the variant is retuned."""
        values, given = self.read_options(options), dict(options or {})
        for option in self.info.options:
            if option.name in given and isinstance(option, Choice):
                word = values[option.name]
                for name, value in option.preset(word).items():
                    given.setdefault(name, value)
                for name in option.former(word):  # what it set once and sets no more
                    given.setdefault(name, self._option(name).default)
        values = self.read_options(given)
        return {o.name: o.write(values[o.name]) for o in self.info.options if o.name in given}

    def parse(self, text: str) -> A | Resign:
        """Read an action from its notation, ``resign`` included; raises
        :class:`IllegalMove` if unreadable."""
        if " ".join(text.lower().split()) == RESIGN:
            return Resign()
        return self.parse_move(text)

    def format(self, action: A | Resign) -> str:
        """The one canonical notation of ``action``."""
        return RESIGN if isinstance(action, Resign) else self.format_move(action)

    def to_play(self, state: S) -> tuple[int, ...]:
        """The seats whose input is awaited now (empty once the game is over)."""
        return tuple(self.awaited(state))

    def reaction_open(self, state: S) -> bool:
        """Whether the awaited seats are answering out of turn (react or ``pass``)."""
        return any(stage.out_of_turn for stage in self.awaited(state).values())

    def legal(self, state: S, seat: int) -> list[A]:
        """Every action ``seat`` may take now, in canonical order (empty if none).

        Resigning, open to every seated player at any time, is not listed.
        """
        stage = self.awaited(state).get(seat)
        if stage is None:
            return []
        return [
            action
            for rule in self.rules
            if stage.name in rule.stages
            for action in rule.targets(state, seat)
        ]

    def refusal(self, state: S, seat: int, action: A | Resign) -> str | None:
        """Why ``seat`` may not play ``action`` now, in one sentence, or ``None``."""
        if self.is_over(state):
            return "The game is over."
        if seat in state.resigned:
            return "You have already resigned."
        if not self.seated(state, seat):
            return "You are not playing in this game."
        if isinstance(action, Resign):
            return None
        rule = self._by_action.get(type(action))
        if rule is None:
            return f"That is not a {self.info.name} move."
        awaited = self.awaited(state)
        stage = awaited.get(seat)
        if stage is None:
            return not_your_turn(tuple(awaited))
        if stage.name not in rule.stages:
            return stage.prompt or f"You can't {self.format(action)} now."
        return rule.refusal(state, seat, action)

    def is_legal(self, state: S, seat: int, action: A | Resign) -> bool:
        """Whether ``seat`` may play ``action`` now, without listing every legal action."""
        return self.refusal(state, seat, action) is None

    def apply(self, state: S, seat: int, action: A | Resign) -> Step[S, A]:
        """Everything ``seat`` playing ``action`` leads to; raises :class:`IllegalMove`."""
        reason = self.refusal(state, seat, action)
        if reason is not None:
            raise IllegalMove(reason)
        if isinstance(action, Resign):
            return self.resign(state, seat)
        return self.apply_listed(state, seat, action)

    def resign(self, state: S, seat: int) -> Step[S, A]:
        """Everything ``seat`` resigning leads to (checked by :meth:`apply`): the seat is
        recorded in ``resigned`` and plays no more, everyone is told, and the game's
        :meth:`resigned` says what follows."""
        events = [Event("resign", f"{seat_ref(seat)} resigned.")]
        left = replace(state, resigned=state.resigned | {seat})
        return self.step(Resign(), self.resigned(left, seat, events), events)

    def apply_listed(self, state: S, seat: int, action: A) -> Step[S, A]:
        """:meth:`apply` for an action :meth:`legal` has just listed for ``seat`` in this
        very ``state``: listing it made every check, so none is made again. The computer
        players' search applies thousands of listed actions a move; anything else goes
        through :meth:`apply`."""
        after, events = self._by_action[type(action)].effect(state, seat, action)
        after = self.after(state, after, seat, action, events)
        return self.step(action, after, events)

    def skip(self, state: S, seat: int) -> Step[S, A]:
        """Everything ``seat``'s turn passing unplayed leads to, because its time ran out.

        Not an action a player can choose: only games whose rules survive a lost turn
        offer it (``can_skip``). Raises :class:`IllegalMove` otherwise.
        """
        if self.is_over(state):
            raise IllegalMove("The game is over.")
        if seat not in self.awaited(state):
            raise IllegalMove(f"It is not {seat_ref(seat)}'s turn.")
        after, events = self.skipped(state, seat)
        return self.step(None, after, events)

    def step(self, action: A | Resign | None, state: S, events: Iterable[Event]) -> Step[S, A]:
        """The :class:`Step` that reaching ``state`` by ``action`` amounts to."""
        result = self.result(state) if self.is_over(state) else None
        return Step(action, state, tuple(events), self.awaited(state), result)

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

    def revealed(self, before: S, after: S, events: Sequence[Event]) -> bool:
        """Whether a move from ``before`` to ``after`` showed something chance decided: a
        die rolled (the generator moved on; every state keeps it as ``rng``) or a card or
        domino drawn (told to one seat alone). Its player has seen the outcome, so such a
        move is not theirs alone to take back."""
        moved_on = before.rng != after.rng
        return moved_on or any(event.seat is not None for event in events)

    def seat_label(self, state: S, seat: int) -> str:
        """What ``seat`` plays as ("red and yellow", "attacker"), shown beside its player's
        name when the game starts; empty where the seats are alike."""
        return ""

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
            state = self.play(state, seat, text).state
        return state

    def play(self, state: S, seat: int, text: str) -> Step[S, A]:
        """Parse ``text`` and apply it: the usual path from a typed move to a new state."""
        return self.apply(state, seat, self.parse(text))


def not_your_turn(awaited: Sequence[int]) -> str:
    """The refusal for a seat nobody is waiting for, naming who is awaited."""
    return f"It is not your turn: waiting for {', '.join(seat_ref(s) for s in awaited)}."
