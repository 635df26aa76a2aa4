"""Build Railway and Build Wall: a token covering 3 connected tiles of one era (a line, a
bend or a triangle), none under another token (the other kind, or the other railway).
With none left in the supply, the one laid longest ago moves (RULINGS §4.2: "place or
move"). Entering a railway tile
costs nothing; nobody steps onto a wall (see ``tokens.entry_cost``)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import FUTURE, PAST, Tile
from engine.seven_cities.cards import name
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import RAILWAYS, WALLS, State
from engine.seven_cities.tokens import railed, walled


def _laid(state: State, card: str) -> tuple[tuple[tuple[Tile, ...], ...], bool]:
    """The tokens of ``card``'s kind on the board, and whether the next one moves one."""
    placed = state.railways if card == "railway" else state.walls
    return placed, len(placed) == (RAILWAYS if card == "railway" else WALLS)


def _blocked(state: State, card: str) -> tuple[tuple[Tile, ...] | None, dict[Tile, str]]:
    """The token that would move (if any), and the tiles the new one may not cover, each
    with the token lying there: the other kind's, or another of its own kind that stays
    (two railways never share a tile, RULINGS §4.2)."""
    placed, full = _laid(state, card)
    moving = placed[0] if full else None
    other = "the wall" if card == "railway" else "a railway"
    blocked = dict.fromkeys(walled(state) if card == "railway" else railed(state), other)
    for token in placed:
        if token != moving:
            blocked.update(dict.fromkeys(token, f"the other {card}"))
    return moving, blocked


def targets(state: State, seat: int, card: str) -> list[Play]:
    geo = state.geo
    moving, blocked = _blocked(state, card)
    spots = []
    for era in (PAST, FUTURE):
        for triple in geo.triples:
            tiles = tuple((era, q, r) for q, r in triple)
            if tiles == moving or not blocked.keys().isdisjoint(tiles):
                continue
            spots.append(Play(card, tuple(geo.sorted_names(tiles))))
    return spots


def refusal(state: State, seat: int, play: Play) -> str | None:
    geo = state.geo
    tiles = [geo.tile(t) for t in play.tiles]
    a, b, c = (t[1:] for t in tiles)
    joined = geo.adjacent
    connected = any(
        y in joined[x] and z in joined[x] for x, y, z in ((a, b, c), (b, a, c), (c, a, b))
    )
    if not connected or len({t[0] for t in tiles}) != 1:
        return f"{name(play.card)} covers 3 connected tiles of one era."
    moving, blocked = _blocked(state, play.card)
    if set(tiles) == set(moving or ()):
        where = ", ".join(play.tiles)
        return f"The {play.card} that moves already lies on {where}: choose other tiles."
    under = [(n, blocked[t]) for n, t in zip(play.tiles, tiles, strict=True) if t in blocked]
    if under:
        tile, token = under[0]
        return f"{name(play.card)} cannot cover {tile}: {token} lies there."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    geo = state.geo
    tiles = tuple(geo.tile(n) for n in play.tiles)
    placed, full = _laid(state, play.card)
    kept = placed[1:] if full else placed
    text = (
        f"{seat_ref(seat)} plays {name(play.card)} and {'moves' if full else 'places'} it "
        f"onto {', '.join(play.tiles)}."
    )
    state = to_red(state, seat, play.card)
    if play.card == "railway":
        state = replace(state, railways=kept + (tiles,), marks=tiles)
    else:
        state = replace(state, walls=kept + (tiles,), marks=tiles)
    return state, [Event("play", text)]
