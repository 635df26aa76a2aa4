"""What a seat, or a spectator, may see of a game.

Hands are hidden: a seat sees its own cards, everyone sees how many cards each seat
holds. The draw pile and the past tile deck are counts; the discard piles are face up
but shown as counts too. Nothing in a view says who holds which reaction card: a
reaction window lists every seat asked, holders or not.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seven_cities.board import FUTURE, PAST, Coord, Placement, Tile
from engine.seven_cities.cities import all_cities, future_cities, supply
from engine.seven_cities.scoring import result
from engine.seven_cities.state import GOAL, PLACE, ROUND_CAP, City, State, to_play


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
        window = WindowView(w.kind, w.by, w.card, w.tile, w.waiting)
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
        resigned=state.resigned,
        last=state.last,
        marks=state.marks,
        over=state.over is not None,
        reason=state.over,
        places=None if state.over is None else result(state).places,
    )
