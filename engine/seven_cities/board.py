"""The two hex boards: terrain, tile groups, their placement, and what tiles cost.

Both eras share one geometry: a past tile group and its same-numbered future twin lie
at identical axial coordinates (RULINGS §4.2), so a board is described once by its
placements and each tile is ``(era, q, r)``. A tile is named by its group and cell,
``p7b`` (past, group 7, cell b) or ``f7b`` (its future twin): the same name a player
reads on the picture, and the same for both eras but for the first letter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

PAST, FUTURE = 0, 1
Coord = tuple[int, int]
Tile = tuple[int, int, int]  # (era, q, r)
Placement = tuple[int, int, int, int]  # (group, q, r, rotation)

SOIL, FOREST, MOUNTAIN, LIGHT, DEEP, VOLCANO = (
    "soil",
    "forest",
    "mountain",
    "light sea",
    "deep sea",
    "volcano",
)
#: the draw-a-card symbol: building on these future tiles earns a card (RULINGS §4.1)
FUTURE_LAND = frozenset({SOIL, FOREST, MOUNTAIN, VOLCANO})
#: what Expedition's free city and Burn City name as land
PLAIN_LAND = frozenset({SOIL, FOREST, MOUNTAIN})
WATER = frozenset({LIGHT, DEEP})

#: (build, travel) per era; None: nobody builds there with action points
COSTS: tuple[dict[str, tuple[int | None, int]], ...] = (
    {SOIL: (5, 1), FOREST: (7, 2), MOUNTAIN: (3, 3), LIGHT: (None, 2), DEEP: (None, 2)},  # [P]
    {SOIL: (4, 1), FOREST: (6, 1), MOUNTAIN: (2, 3), LIGHT: (6, 1), DEEP: (8, 1), VOLCANO: (4, 4)},
)

_S, _F, _M, _L, _D, _V = SOIL, FOREST, MOUNTAIN, LIGHT, DEEP, VOLCANO
#: group number -> cells a, b, c, d, for the past and for the future (RULINGS §4.2 [P])
GROUPS: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    1: ((_S, _S, _F, _L), (_S, _S, _F, _L)),
    2: ((_S, _M, _M, _F), (_S, _M, _V, _S)),
    3: ((_L, _D, _L, _S), (_L, _D, _S, _S)),
    4: ((_F, _F, _S, _M), (_F, _S, _S, _M)),
    5: ((_D, _D, _L, _S), (_D, _L, _L, _S)),
    6: ((_M, _S, _L, _F), (_V, _S, _L, _F)),
    7: ((_S, _S, _L, _D), (_S, _F, _L, _D)),
    8: ((_F, _M, _S, _S), (_S, _M, _S, _F)),
    9: ((_M, _M, _F, _L), (_M, _V, _F, _L)),
    10: ((_L, _S, _F, _D), (_S, _S, _F, _D)),
    11: ((_S, _F, _M, _L), (_S, _F, _V, _L)),
}
CELLS = "abcd"
#: the rhombus of four hexes every group is, in axial offsets from its anchor
SHAPE: tuple[Coord, ...] = ((0, 0), (1, 0), (0, 1), (1, 1))
#: RULINGS §4.2 default layout: a touching triangle of three rhombi
START_ANCHORS: tuple[Coord, ...] = ((0, 0), (2, 0), (1, 2))
DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def rotate(offset: Coord, turns: int) -> Coord:
    """``offset`` turned by ``turns`` sixths of a circle about the anchor."""
    q, r = offset
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def group_cells(q: int, r: int, rotation: int) -> tuple[Coord, ...]:
    """Where cells a, b, c, d of a group placed at anchor ``(q, r)`` land."""
    return tuple((q + dq, r + dr) for dq, dr in (rotate(o, rotation) for o in SHAPE))


def neighbours_of(coord: Coord) -> tuple[Coord, ...]:
    q, r = coord
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


@dataclass(frozen=True)
class Board:
    """The geometry of one set of placements, computed once and shared (see :func:`board`)."""

    placements: tuple[Placement, ...]
    cell_of: dict[Coord, tuple[int, int]]  # coord -> (group, cell index)
    order: tuple[Coord, ...]  # canonical order: by group, then cell
    adjacent: dict[Coord, tuple[Coord, ...]]  # neighbours on the board, canonical order
    triples: tuple[tuple[Coord, Coord, Coord], ...]  # connected 3-tile sets, canonical
    # every tile of both eras looked up directly: refusals ask these for one tile
    name_of: dict[Tile, str]  # "f7b"
    tile_of: dict[str, Tile]
    terrain_of: dict[Tile, str]
    travel_of: dict[Tile, int]  # what stepping onto the tile costs, tokens aside
    near: dict[Tile, tuple[Tile, ...]]  # neighbours of the same era, canonical order

    def terrain(self, tile: Tile) -> str:
        return self.terrain_of[tile]

    def name(self, tile: Tile) -> str:
        return self.name_of[tile]

    def tile_named(self, name: str) -> Tile | None:
        """The tile a player names ``f7b``, or None if the board has no such tile."""
        return self.tile_of.get(name)

    def sorted_names(self, tiles: Iterable[Tile]) -> list[str]:
        """The names of ``tiles`` in canonical order: by name (``f`` before ``p``), then
        group number, then cell."""
        return [self.name(t) for t in sorted(tiles, key=lambda t: (-t[0], *self.cell_of[t[1:]]))]

    def tile(self, name: str) -> Tile:
        """The tile named ``name``, known to be on the board (a move already checked)."""
        tile = self.tile_named(name)
        assert tile is not None, name
        return tile

    def tiles(self, era: int) -> tuple[Tile, ...]:
        return tuple((era, q, r) for q, r in self.order)

    def neighbours(self, tile: Tile) -> tuple[Tile, ...]:
        return self.near[tile]

    def placements_touching(self, coord: Coord) -> tuple[tuple[int, int, int], ...]:
        """Every (q, r, rotation) where a new group overlaps nothing and touches ``coord``."""
        return _placements_touching(self.placements, coord)


@lru_cache(maxsize=256)
def board(placements: tuple[Placement, ...]) -> Board:
    """The board for ``placements``, cached: legal-move generation asks for it constantly."""
    cell_of: dict[Coord, tuple[int, int]] = {}
    for group, q, r, rotation in placements:
        for index, coord in enumerate(group_cells(q, r, rotation)):
            cell_of[coord] = (group, index)
    order = tuple(sorted(cell_of, key=lambda c: cell_of[c]))
    rank = {c: i for i, c in enumerate(order)}
    adjacent = {
        c: tuple(sorted((n for n in neighbours_of(c) if n in cell_of), key=rank.__getitem__))
        for c in order
    }
    label_of = {c: f"{cell_of[c][0]}{CELLS[cell_of[c][1]]}" for c in order}
    triples: set[tuple[Coord, Coord, Coord]] = set()
    for c in order:
        for x, y in combinations(adjacent[c], 2):
            # c joined to both x and y: a line, a bend or a triangle
            first, second, third = sorted((c, x, y), key=rank.__getitem__)
            triples.add((first, second, third))
    tiles = [(era, q, r) for era in (PAST, FUTURE) for q, r in order]
    name_of = {t: "pf"[t[0]] + label_of[t[1:]] for t in tiles}
    terrain_of = {t: GROUPS[cell_of[t[1:]][0]][t[0]][cell_of[t[1:]][1]] for t in tiles}
    return Board(
        placements=placements,
        cell_of=cell_of,
        order=order,
        adjacent=adjacent,
        triples=tuple(sorted(triples, key=lambda t: tuple(rank[c] for c in t))),
        name_of=name_of,
        tile_of={name: t for t, name in name_of.items()},
        terrain_of=terrain_of,
        near={t: tuple((t[0], *c) for c in adjacent[t[1:]]) for t in tiles},
        travel_of={t: travel_cost(t[0], terrain_of[t]) for t in tiles},
    )


@lru_cache(maxsize=1024)
def _placements_touching(
    placements: tuple[Placement, ...], coord: Coord
) -> tuple[tuple[int, int, int], ...]:
    taken = board(placements).cell_of
    near = set(neighbours_of(coord))
    found = []
    for dq in range(-3, 4):
        for dr in range(-3, 4):
            q, r = coord[0] + dq, coord[1] + dr
            for rotation in range(6):
                cells = group_cells(q, r, rotation)
                if any(c in taken for c in cells) or not near.intersection(cells):
                    continue
                found.append((q, r, rotation))
    return tuple(sorted(found))


def twin(tile: Tile) -> Tile:
    """The matching tile in the other era."""
    return (PAST if tile[0] == FUTURE else FUTURE, tile[1], tile[2])


def build_cost(era: int, terrain: str) -> int | None:
    return COSTS[era][terrain][0]


def travel_cost(era: int, terrain: str) -> int:
    return COSTS[era][terrain][1]
