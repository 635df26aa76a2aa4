"""What a seat, or a spectator, may see of a game.

Hands are hidden: a seat sees its own cards, everyone sees how many cards each seat
holds. The draw pile and the past tile deck are counts; the discard piles are face up
but shown as counts too. Nothing in a view says who holds which reaction card: a
reaction window lists every seat asked, holders or not.

``sample`` goes back, for the computer players: every card a seat does not hold is dealt
from the rest of the deck at random into the other hands, the draw pile and the discard
piles (face up, but a view shows their sizes only), and the tile groups not yet on the
table are shuffled into the past deck — a fair guess, and nothing of what the true state
holds. A reaction window comes back as far as the view shows it: the attack held in the
air, the seats still to answer and what they may answer. Who already answered with
Defend City, and windows queued behind the open one, are not in a view, so the sampled
state has none: the search may misjudge such an attack, never the seat's own legal
answers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from engine.core import Rng
from engine.seven_cities.board import FUTURE, GROUPS, PAST, Coord, Placement, Tile
from engine.seven_cities.cards import deck_for, sort_hand
from engine.seven_cities.cities import all_cities, future_cities, supply
from engine.seven_cities.scoring import result
from engine.seven_cities.state import (
    GOAL,
    PLACE,
    ROUND_CAP,
    City,
    State,
    Window,
    to_play,
)


@dataclass(frozen=True)
class TileView:
    tile: Tile
    name: str  # "f7b"
    terrain: str
    group: int


@dataclass(frozen=True)
class WindowView:
    kind: str  # "defend", "sands" or "metropolis"
    by: int
    card: str  # the attack waiting on Defend City ("burn" / "takeover"), else ""
    tile: Tile | None
    waiting: tuple[int, ...]
    #: a Metropolis window's (owner, future city) chances: the ones new since the last
    #: window, not every city that could grow now (the board shows those)
    offers: tuple[tuple[int, Tile], ...] = ()


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    round: int
    round_cap: int
    goal: int
    stage: str
    turn: int
    first: int
    to_play: tuple[int, ...]
    ap: int
    land_builds: int  # cities built on future land this turn: cards drawn at its end
    hand: tuple[str, ...] | None  # the viewing seat's own cards
    hand_counts: tuple[int, ...]
    deck: int
    blue: int
    red: int
    past_deck: int
    clock: int
    clocks: tuple[int, ...]
    placements: tuple[Placement, ...]
    tiles: tuple[TileView, ...]  # past tiles, then future tiles
    cities: tuple[City, ...]
    shields: tuple[tuple[Tile, int], ...]
    walls: tuple[tuple[Tile, ...], ...]
    railways: tuple[tuple[Tile, ...], ...]
    positions: tuple[Tile | None, ...]
    supply: tuple[int, ...]
    future_cities: tuple[int, ...]
    all_cities: tuple[int, ...]
    expedition: int | None  # the past group being laid
    anchors: tuple[Coord, ...]  # where its cell a may go, while it is being laid
    window: WindowView | None
    #: the Metropolis chances already offered: a window opens only for new ones
    offered: frozenset[tuple[int, Tile]]
    resigned: frozenset[int]
    last: tuple[int, str] | None
    marks: tuple[Tile, ...]
    over: bool
    reason: str | None
    places: tuple[int, ...] | None


def view(state: State, seat: int | None) -> View:
    geo = state.geo
    tiles = tuple(
        TileView(
            tile=t,
            name=geo.name(t),
            terrain=geo.terrain(t),
            group=geo.cell_of[(t[1], t[2])][0],
        )
        for t in geo.tiles(PAST) + geo.tiles(FUTURE)
    )
    anchors: tuple[Coord, ...] = ()
    if state.expedition is not None and state.stage == PLACE:
        pos = state.positions[state.turn]
        assert pos is not None
        anchors = tuple(sorted({(q, r) for q, r, _ in geo.placements_touching(pos[1:])}))
    window = None
    if state.windows:
        w = state.windows[0]
        window = WindowView(w.kind, w.by, w.card, w.tile, w.waiting, w.offers)
    n = state.players
    return View(
        seat=seat,
        players=n,
        round=state.round,
        round_cap=ROUND_CAP,
        goal=GOAL,
        stage=state.stage,
        turn=state.turn,
        first=state.first,
        to_play=to_play(state),
        ap=state.ap,
        land_builds=state.land_builds,
        hand=None if seat is None else state.hands[seat],
        hand_counts=tuple(len(h) for h in state.hands),
        deck=len(state.deck),
        blue=len(state.blue),
        red=len(state.red),
        past_deck=len(state.past_deck),
        clock=state.clock,
        clocks=state.clocks,
        placements=state.placements,
        tiles=tiles,
        cities=state.cities,
        shields=state.shields,
        walls=state.walls,
        railways=state.railways,
        positions=state.positions,
        supply=tuple(supply(state, s) for s in range(n)),
        future_cities=tuple(future_cities(state, s) for s in range(n)),
        all_cities=tuple(all_cities(state, s) for s in range(n)),
        expedition=state.expedition,
        anchors=anchors,
        window=window,
        offered=state.offered,
        resigned=state.resigned,
        last=state.last,
        marks=state.marks,
        over=state.over is not None,
        reason=state.over,
        places=None if state.over is None else result(state).places,
    )


def sample(seen: View, rng: Rng) -> State:
    """A state ``seen`` could have come from, with ``rng`` for its hidden cards, the past
    deck and future shuffles (the module docstring says what is dealt where)."""
    unseen = Counter(deck_for(seen.players))
    unseen.subtract(seen.hand or ())
    if seen.window is not None and seen.window.card:
        unseen.subtract([seen.window.card])  # the attack held in the air, in no pile
    cards, rng = rng.shuffled(sorted(unseen.elements()))
    hands = []
    for other, count in enumerate(seen.hand_counts):
        if other == seen.seat:
            hands.append(seen.hand or ())
        else:
            hands.append(sort_hand(cards[:count]))
            cards = cards[count:]
    blue, cards = cards[: seen.blue], cards[seen.blue :]
    red, deck = cards[: seen.red], cards[seen.red :]
    laid = {p[0] for p in seen.placements} | {seen.expedition}
    past_deck, rng = rng.shuffled(sorted(set(GROUPS) - laid))
    state = State(
        players=seen.players,
        clock=seen.clock,
        clocks=seen.clocks,
        first=seen.first,
        turn=seen.turn,
        stage=seen.stage,
        round=seen.round,
        placements=seen.placements,
        past_deck=past_deck,
        deck=deck,
        blue=blue,
        red=red,
        hands=tuple(hands),
        positions=seen.positions,
        cities=seen.cities,
        shields=seen.shields,
        walls=seen.walls,
        railways=seen.railways,
        ap=seen.ap,
        land_builds=seen.land_builds,
        expedition=seen.expedition,
        windows=(),
        offered=seen.offered,
        resigned=seen.resigned,
        over=seen.reason,
        last=seen.last,
        marks=seen.marks,
        rng=rng,
    )
    if seen.window is None:
        return state
    w = seen.window
    window = Window(
        kind=w.kind, by=w.by, waiting=w.waiting, card=w.card, tile=w.tile, offers=w.offers
    )
    return replace(state, windows=(window,))
