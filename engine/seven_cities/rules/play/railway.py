"""Build Railway and Build Wall: a token covering 3 connected tiles of one era (a line, a
bend or a triangle), none under the other kind of token. With none left in the supply,
the one laid longest ago moves (RULINGS §4.2: "place or move"). Entering a railway tile
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


def _blocked(state: State, card: str) -> tuple[tuple[Tile, ...] | None, frozenset[Tile]]:
    """The token that would move (if any), and the tiles the new one may not cover."""
    placed, full = _laid(state, card)
    moving = placed[0] if full else None
    staying = {t for tokens in placed if tokens != moving for t in tokens}
    return moving, (walled(state) if card == "railway" else railed(state)) | staying


def targets(state: State, seat: int, card: str) -> list[Play]:
    geo = state.geo
    moving, blocked = _blocked(state, card)
    spots = []
    for era in (PAST, FUTURE):
        for triple in geo.triples:
            tiles = tuple((era, q, r) for q, r in triple)
            if tiles == moving or blocked.intersection(tiles):
                continue
            spots.append(Play(card, tuple(geo.sorted_names(tiles))))
    return spots


def refusal(state: State, seat: int, play: Play) -> str | None:
    geo = state.geo
    tiles = [geo.tile(t) for t in play.tiles]
    moving, blocked = _blocked(state, play.card)
    a, b, c = (t[1:] for t in tiles)
    joined = geo.adjacent
    connected = any(
        y in joined[x] and z in joined[x] for x, y, z in ((a, b, c), (b, a, c), (c, a, b))
    )
    one_era = len({t[0] for t in tiles}) == 1
    if (
        connected
        and one_era
        and set(tiles) != set(moving or ())
        and not blocked.intersection(tiles)
    ):
        return None
    other = "wall" if play.card == "railway" else "railways"
    return f"{name(play.card)} covers 3 connected tiles of one era, none under the {other}."


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    geo = state.geo
    tiles = tuple(geo.tile(n) for n in play.tiles)
    placed, full = _laid(state, play.card)
    kept = placed[1:] if full else placed
    text = (
        f"{seat_ref(seat)} plays {name(play.card)} and {'moves' if full else 'places'} it "
        f"onto {', '.join(play.tiles)}."
    )
    field = "railways" if play.card == "railway" else "walls"
    state = replace(to_red(state, seat, play.card), **{field: kept + (tiles,)}, marks=tiles)
    return state, [Event("play", text)]
