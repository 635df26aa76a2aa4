"""The whole game as one immutable value, hidden parts included, and its JSON form.

Only the service holds a state; players see it through ``view``, which leaves out
every hand but the viewer's, the order of the draw pile and of the past tile deck.
Here too: the stages a seat can be asked for, seat order, and the starting position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, wraps
from typing import Any, TypeVar

from engine.core import BadOptions, Rng, Stage
from engine.options import SUGGESTED, Suggestion, Text, quoted
from engine.seven_cities.board import GROUPS, START_ANCHORS, Board, Placement, Tile, board
from engine.seven_cities.cards import CLOCKS, DIAL, deck_for, first_player

T = TypeVar("T")

CITY_TOKENS = 14
SHIELDS = 4
SHIELDS_EACH = 3
WALLS = 1
RAILWAYS = 2
HAND_LIMIT = 2
DRAW = 3
GOAL = 7
#: RULINGS §4 [P]: a safety stop so that every game ends, scored as if someone had won
ROUND_CAP = 25

# stages of the seat to play (``State.stage``); a reaction window's stage is its kind
START, TURN, PLACE, FOUND, DISCARD = "start", "turn", "place", "found", "discard"
DEFEND, SANDS, METROPOLIS = "defend", "sands", "metropolis"
#: what each stage asks for, said to a seat that tries something else
STAGES: dict[str, Stage] = {
    START: Stage(START, "Choose your starting future tile first (`start f7b`)."),
    TURN: Stage(TURN),
    PLACE: Stage(PLACE, "Lay the Expedition's tile group first (`place q,r rN`)."),
    FOUND: Stage(
        FOUND, "Say where Expedition's free city goes first (`found p7b` or `found none`)."
    ),
    DISCARD: Stage(DISCARD, "Discard down to 2 cards first (`discard <card>`)."),
    DEFEND: Stage(
        DEFEND, "A reaction window is open: answer with Defend City or `pass`.", out_of_turn=True
    ),
    SANDS: Stage(
        SANDS, "A reaction window is open: answer with Sands of Time or `pass`.", out_of_turn=True
    ),
    METROPOLIS: Stage(
        METROPOLIS,
        "Answer the Metropolis chance first: `play metropolis <tile>` or `pass`.",
        out_of_turn=True,
    ),
}
#: every stage a reaction window can be
WINDOWS = frozenset({DEFEND, SANDS, METROPOLIS})


@dataclass(frozen=True)
class City:
    tile: Tile
    owner: int
    size: int = 1  # 2 for a Metropolis: two tokens, one tile


@dataclass(frozen=True)
class Window:
    """Seats answering out of turn before play goes on (react, or ``pass``).

    ``defend``: Burn City or Hostile Takeover by ``by`` on ``tile`` waits for every other
    player; ``sands``: the new past city on ``tile`` waits for the owner of the matching
    future city; ``metropolis``: each seat in ``offers`` may make that city a Metropolis.
    """

    kind: str
    by: int
    waiting: tuple[int, ...]  # seats still to answer, in turn order
    card: str = ""  # the card held in the air (defend windows)
    tile: Tile | None = None
    defenders: tuple[int, ...] = ()  # seats that answered with Defend City, in answer order
    offers: tuple[tuple[int, Tile], ...] = ()


@dataclass(frozen=True)
class State:
    players: int
    clock: int  # the game's start time, minutes on the 12-hour dial
    clocks: tuple[int, ...]  # each seat's clock card
    first: int  # who holds the Time-Shift card
    turn: int
    stage: str
    round: int  # 0 while players choose starting tiles
    placements: tuple[Placement, ...]
    past_deck: tuple[int, ...]  # face down: the next Expedition draws past_deck[0]
    deck: tuple[str, ...]  # face down: the next card drawn is deck[0]
    blue: tuple[str, ...]
    red: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    positions: tuple[Tile | None, ...]
    cities: tuple[City, ...]  # sorted by tile
    shields: tuple[tuple[Tile, int], ...]  # (tile, seat that placed it), in order placed
    walls: tuple[tuple[Tile, ...], ...]
    railways: tuple[tuple[Tile, ...], ...]  # oldest first: the one that moves next
    ap: int
    land_builds: int  # cities built directly on future land this turn: cards to draw
    expedition: int | None  # the past group being placed by Expedition
    windows: tuple[Window, ...]  # the first is open; the rest wait their turn
    offered: frozenset[tuple[int, Tile]]  # Metropolis chances already offered
    resigned: frozenset[int]
    over: str | None  # "goal", "cap" or "resign"
    last: tuple[int, str] | None
    marks: tuple[Tile, ...]  # tiles the last move touched, for the picture
    rng: Rng

    # Worked out once per state: a refusal or a move list asks them again and again.

    @cached_property
    def geo(self) -> Board:
        """The board these placements make."""
        return board(self.placements)

    @cached_property
    def here(self) -> dict[Tile, City]:
        """Every city by its tile."""
        return {c.tile: c for c in self.cities}


def per_state(question: Callable[[State], T]) -> Callable[[State], T]:
    """``question(state)`` worked out once per state and kept with it, as ``State.geo``
    is: for what every refusal and every move list asks again (a state never changes)."""
    key = f"_{question.__module__}.{question.__name__}"

    @wraps(question)
    def once(state: State) -> T:
        try:
            return state.__dict__[key]
        except KeyError:
            answer = state.__dict__[key] = question(state)
            return answer

    return once


def replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the one at ``index`` replaced: a seat's hand, a seat's position."""
    return values[:index] + (value,) + values[index + 1 :]


def to_play(state: State) -> tuple[int, ...]:
    """The seats whose input is awaited: the open window's, else the seat to play."""
    if state.over is not None:
        return ()
    if state.windows:
        return state.windows[0].waiting
    return (state.turn,)


def answered(state: State, seat: int) -> State:
    """``seat`` no longer holds up the open window (``flow`` closes it once nobody does)."""
    window = state.windows[0]
    window = replace(window, waiting=tuple(s for s in window.waiting if s != seat))
    return replace(state, windows=(window,) + state.windows[1:])


def active(state: State) -> tuple[int, ...]:
    """Seats still playing, in turn order from the Time-Shift holder."""
    n = state.players
    return tuple(s for s in ((state.first + i) % n for i in range(n)) if s not in state.resigned)


def in_turn_order(state: State, seats: list[int] | set[int], after: int) -> tuple[int, ...]:
    """``seats`` clockwise from the one after ``after``."""
    n = state.players
    return tuple(sorted(seats, key=lambda s: (s - after - 1) % n))


_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")
#: the times suggested while a clock is typed: every five minutes of the day
_TIMES = [f"{m // 60:02d}:{m % 60:02d}" for m in range(0, 24 * 60, 5)]


def _clock_text(text: str) -> str:
    """``HH:MM`` on a 24-hour clock, in its one spelling (``9:05`` is ``09:05``)."""
    m = _CLOCK.fullmatch(text)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise BadOptions(
            f"clock is the time the game starts, as HH:MM (e.g. 19:05), not {quoted(text)}."
        )
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _clock_suggestions(typed: str) -> list[Suggestion]:
    """The times that begin as typed (``7`` is ``07:…``): every five minutes of one hour,
    or whole hours where more would fit; a whole time typed comes first."""
    found = [t for t in _TIMES if t.startswith(typed) or t.removeprefix("0").startswith(typed)]
    if len(found) > SUGGESTED:
        found = [t for t in found if t.endswith(":00")]
    try:
        exact = _clock_text(typed)
    except BadOptions:
        exact = None
    if exact is not None:
        found = [exact, *(t for t in found if t != exact)]
    return [(t, t) for t in found]


#: the game's start time, which the clock cards turn into the first player (RULINGS §4)
CLOCK = Text(
    "clock",
    "the start time, which picks the first player",
    example="19:05",
    check=_clock_text,
    suggest=_clock_suggestions,
    default_text="now",
    note="(on the opener's clock: their `/settings` time zone, else UTC)",
)


def clock_option(options: Mapping[str, Any]) -> int | None:
    """The ``clock`` option, read by :data:`CLOCK`, in minutes on the 12-hour dial."""
    if options["clock"] is None:
        return None
    hours, minutes = options["clock"].split(":")
    return (int(hours) * 60 + int(minutes)) % DIAL


def new(players: int, clock: int | None, seed: int) -> State:
    """Three tile groups laid, the deck shuffled, the first player drawn by the clock
    cards; then each seat chooses a starting tile (without a ``clock``, the seed picks one)."""
    rng = Rng.from_seed(seed)
    if clock is None:
        clock, rng = rng.below(DIAL)
    clocks, rng = rng.shuffled(CLOCKS)
    clocks = clocks[:players]
    groups, rng = rng.shuffled(sorted(GROUPS))
    deck, rng = rng.shuffled(deck_for(players))
    first = first_player(clocks, clock)
    return State(
        players=players,
        clock=clock,
        clocks=clocks,
        first=first,
        turn=first,
        stage=START,
        round=0,
        placements=tuple((g, *a, 0) for g, a in zip(groups, START_ANCHORS, strict=False)),
        past_deck=groups[len(START_ANCHORS) :],
        deck=deck,
        blue=(),
        red=(),
        hands=((),) * players,
        positions=(None,) * players,
        cities=(),
        shields=(),
        walls=(),
        railways=(),
        ap=0,
        land_builds=0,
        expedition=None,
        windows=(),
        offered=frozenset(),
        resigned=frozenset(),
        over=None,
        last=None,
        marks=(),
        rng=rng,
    )


def _tile(value: list[int] | None) -> Tile | None:
    return None if value is None else (value[0], value[1], value[2])


def _tiles(values: list[list[int]]) -> tuple[Tile, ...]:
    return tuple((v[0], v[1], v[2]) for v in values)


def _window_dict(w: Window) -> dict[str, Any]:
    return {
        "kind": w.kind,
        "by": w.by,
        "waiting": list(w.waiting),
        "card": w.card,
        "tile": None if w.tile is None else list(w.tile),
        "defenders": list(w.defenders),
        "offers": [[s, list(t)] for s, t in w.offers],
    }


def _window(d: Mapping[str, Any]) -> Window:
    return Window(
        kind=d["kind"],
        by=d["by"],
        waiting=tuple(d["waiting"]),
        card=d["card"],
        tile=_tile(d["tile"]),
        defenders=tuple(d["defenders"]),
        offers=tuple((s, (t[0], t[1], t[2])) for s, t in d["offers"]),
    )


def to_dict(s: State) -> dict[str, Any]:
    return {
        "players": s.players,
        "clock": s.clock,
        "clocks": list(s.clocks),
        "first": s.first,
        "turn": s.turn,
        "stage": s.stage,
        "round": s.round,
        "placements": [list(p) for p in s.placements],
        "past_deck": list(s.past_deck),
        "deck": list(s.deck),
        "blue": list(s.blue),
        "red": list(s.red),
        "hands": [list(h) for h in s.hands],
        "positions": [None if p is None else list(p) for p in s.positions],
        "cities": [[list(c.tile), c.owner, c.size] for c in s.cities],
        "shields": [[list(t), seat] for t, seat in s.shields],
        "walls": [[list(t) for t in w] for w in s.walls],
        "railways": [[list(t) for t in w] for w in s.railways],
        "ap": s.ap,
        "land_builds": s.land_builds,
        "expedition": s.expedition,
        "windows": [_window_dict(w) for w in s.windows],
        "offered": sorted([seat, list(t)] for seat, t in s.offered),
        "resigned": sorted(s.resigned),
        "over": s.over,
        "last": None if s.last is None else list(s.last),
        "marks": [list(t) for t in s.marks],
        "rng": s.rng.state,
    }


def from_dict(d: Mapping[str, Any]) -> State:
    return State(
        players=d["players"],
        clock=d["clock"],
        clocks=tuple(d["clocks"]),
        first=d["first"],
        turn=d["turn"],
        stage=d["stage"],
        round=d["round"],
        placements=tuple((p[0], p[1], p[2], p[3]) for p in d["placements"]),
        past_deck=tuple(d["past_deck"]),
        deck=tuple(d["deck"]),
        blue=tuple(d["blue"]),
        red=tuple(d["red"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        positions=tuple(_tile(p) for p in d["positions"]),
        cities=tuple(City((c[0][0], c[0][1], c[0][2]), c[1], c[2]) for c in d["cities"]),
        shields=tuple(((t[0], t[1], t[2]), seat) for t, seat in d["shields"]),
        walls=tuple(_tiles(w) for w in d["walls"]),
        railways=tuple(_tiles(w) for w in d["railways"]),
        ap=d["ap"],
        land_builds=d["land_builds"],
        expedition=d["expedition"],
        windows=tuple(_window(w) for w in d["windows"]),
        offered=frozenset((seat, (t[0], t[1], t[2])) for seat, t in d["offered"]),
        resigned=frozenset(d["resigned"]),
        over=d["over"],
        last=None if d["last"] is None else (d["last"][0], d["last"][1]),
        marks=_tiles(d["marks"]),
        rng=Rng(d["rng"]),
    )
