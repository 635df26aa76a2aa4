"""Which moves a seat may make now, in canonical order.

The rules of each card live here as generators of its legal targets; ``apply`` accepts
exactly what these produce, and a refusal explains why a move is not among them.
"""

from __future__ import annotations

from itertools import combinations

from engine.seven_cities.actions import (
    Action,
    Build,
    Discard,
    End,
    Found,
    Move,
    Pass,
    Place,
    Play,
    Points,
    Recall,
    Start,
    Time,
    tile_key,
)
from engine.seven_cities.board import (
    FUTURE,
    LIGHT,
    PAST,
    PLAIN_LAND,
    Tile,
    build_cost,
)
from engine.seven_cities.cards import BY_SLUG, sort_hand
from engine.seven_cities.rules import (
    active,
    cities_at,
    crowded,
    entry_cost,
    geometry,
    railed,
    shielded,
    supply,
    walled,
)
from engine.seven_cities.state import (
    DISCARD,
    FOUND,
    PLACE,
    RAILWAYS,
    SHIELDS,
    SHIELDS_EACH,
    START,
    WALLS,
    State,
)


def legal(state: State, seat: int) -> list[Action]:
    if state.over is not None or seat in state.resigned:
        return []
    if state.windows:
        window = state.windows[0]
        return reactions(state, seat) if seat in window.waiting else []
    if seat != state.turn:
        return []
    geo = geometry(state)
    if state.stage == START:
        return [Start(geo.name(t)) for t in geo.tiles(FUTURE)]
    if state.stage == PLACE:
        pos = state.positions[seat]
        assert pos is not None
        return [Place(q, r, rot) for q, r, rot in geo.placements_touching((pos[1], pos[2]))]
    if state.stage == FOUND:
        return founding(state, seat)
    if state.stage == DISCARD:
        return [Discard(c) for c in sort_hand(set(state.hands[seat]))]
    return turn_moves(state, seat)


def reactions(state: State, seat: int) -> list[Action]:
    """A seat's answers in the open window: its reaction card if it holds one, or pass."""
    window = state.windows[0]
    hand = state.hands[seat]
    moves: list[Action] = []
    if window.kind in ("defend", "sands") and window.kind in hand:
        moves.append(Play(window.kind))
    if window.kind == "metropolis" and "metropolis" in hand:
        here = cities_at(state)
        geo = geometry(state)
        for owner, tile in window.offers:
            if owner == seat and metropolis_ok(state, seat, tile, here):
                moves.append(Play("metropolis", (geo.name(tile),)))
    moves.append(Pass())
    return moves


def founding(state: State, seat: int) -> list[Action]:
    """Expedition's free city: any empty past soil, forest or mountain of the new group."""
    geo = geometry(state)
    moves: list[Action] = []
    if supply(state, seat) > 0:
        here = cities_at(state)
        for q, r in geo.order:
            tile = (PAST, q, r)
            if (
                geo.cell_of[(q, r)][0] == state.expedition
                and geo.terrain(tile) in PLAIN_LAND
                and tile not in here
            ):
                moves.append(Found(geo.name(tile)))
    moves.append(Found(None))
    return moves


def can_build(state: State, seat: int, tile: Tile, here: dict[Tile, object]) -> bool:
    cost = build_cost(tile[0], geometry(state).terrain(tile))
    return cost is not None and tile not in here and state.ap >= cost and supply(state, seat) > 0


def metropolis_ok(state: State, seat: int, tile: Tile, here: dict) -> bool:
    city = here.get(tile)
    return (
        tile[0] == FUTURE
        and city is not None
        and city.owner == seat
        and city.size == 1
        and supply(state, seat) > 0
        and crowded(state, tile, here)
    )


def turn_moves(state: State, seat: int) -> list[Action]:
    geo = geometry(state)
    here = cities_at(state)
    pos = state.positions[seat]
    assert pos is not None
    cards = sort_hand(set(state.hands[seat]))
    moves: list[Action] = [Points(c) for c in cards]
    for n in geo.neighbours(pos):
        cost = entry_cost(state, n)
        if cost is not None and cost <= state.ap:
            moves.append(Move(geo.name(n)))
    if state.ap >= 1:
        moves.append(Time())
    if can_build(state, seat, pos, here):
        moves.append(Build())
    for card in cards:
        if not (BY_SLUG[card].plain or BY_SLUG[card].reaction_only):
            moves += specials(state, seat, card, here)
    if supply(state, seat) == 0:
        guarded = shielded(state)
        for tile in sorted(here, key=lambda t: tile_key(geo.name(t))):
            if here[tile].owner == seat and tile not in guarded:
                moves.append(Recall(geo.name(tile)))
    moves.append(End())
    return moves


def _names(state: State, tiles: list[Tile]) -> list[str]:
    geo = geometry(state)
    return sorted((geo.name(t) for t in tiles), key=tile_key)


def specials(state: State, seat: int, card: str, here: dict) -> list[Action]:
    """Every legal target of ``card``'s special action for ``seat`` (none: not playable)."""
    geo = geometry(state)
    pos = state.positions[seat]
    assert pos is not None
    guarded = shielded(state)
    tokens = supply(state, seat) > 0
    every = geo.tiles(PAST) + geo.tiles(FUTURE)
    rivals = [t for t in every if t in here and here[t].owner != seat and t not in guarded]
    if card == "expedition":
        ok = state.past_deck and geo.placements_touching((pos[1], pos[2]))
        return [Play(card)] if ok else []
    if card == "burn":
        ok = pos in rivals and geo.terrain(pos) in PLAIN_LAND
        return [Play(card)] if ok else []
    if card == "takeover":
        if not tokens:
            return []
        targets = [
            t for t in rivals if any(n in here and here[n].owner == seat for n in geo.neighbours(t))
        ]
        return [Play(card, (name,)) for name in _names(state, targets)]
    if card == "remote":
        if not tokens or pos[0] != FUTURE:
            return []
        return [
            Play(card, (n,))
            for n in _names(state, [t for t in geo.neighbours(pos) if t not in here])
        ]
    if card == "atlantis":
        ok = tokens and pos[0] == PAST and geo.terrain(pos) == LIGHT and pos not in here
        return [Play(card)] if ok else []
    if card == "army":
        mine = sum(1 for _, s in state.shields if s == seat)
        if len(state.shields) >= SHIELDS or mine >= SHIELDS_EACH:
            return []
        return [Play(card, (n,)) for n in _names(state, [t for t in here if t not in guarded])]
    if card == "metropolis":
        targets = [t for t in here if metropolis_ok(state, seat, t, here)]
        return [Play(card, (n,)) for n in _names(state, targets)]
    if card in ("railway", "wall"):
        return [Play(card, names) for names in token_spots(state, card)]
    if card == "embassy":
        others = [s for s in active(state) if s != seat]
        groups = [g for k in (1, 2) for g in combinations(sorted(others), k)]
        mine = [t for t in here if here[t].owner == seat]
        return [Play(card, (n,), g) for n in _names(state, mine) for g in groups]
    if card == "enemy":
        moves: list[Action] = []
        for name in _names(state, rivals):
            owner = here[geo.tile_named(name)].owner
            for third in sorted(active(state)):
                if third not in (seat, owner) and supply(state, third) > 0:
                    moves.append(Play(card, (name,), (third,)))
        return moves
    return []


def token_spots(state: State, card: str) -> list[tuple[str, ...]]:
    """Where a railway or the wall may go: 3 connected tiles of one era, free of the other
    kind and of the same kind's token that stays. With none left in the supply, the one
    laid longest ago moves (RULINGS §4.2: "place or move")."""
    geo = geometry(state)
    placed = state.railways if card == "railway" else state.walls
    supply_left = (RAILWAYS if card == "railway" else WALLS) - len(placed)
    moving = placed[0] if supply_left == 0 else None
    staying = {t for tokens in placed if tokens != moving for t in tokens}
    blocked = (walled(state) if card == "railway" else railed(state)) | staying
    spots = []
    for era in (PAST, FUTURE):
        for triple in geo.triples:
            tiles = tuple((era, q, r) for q, r in triple)
            if tiles == moving or blocked.intersection(tiles):
                continue
            spots.append(tuple(sorted((geo.name(t) for t in tiles), key=tile_key)))
    return spots
