"""The board: the map of Königsberg, its squares, streets, bridges, landmarks, buildings,
trees and exits.

The facts come from ``map.json`` beside this module (RULINGS §1.6: our reconstruction,
not the published map), read once at import. This module only *names* things: squares,
their printed arms and the coordinates players type. The lattice the lines live on is in
:mod:`engine.seven_bridges.lines`.

Coordinates: map rows r1–r12 from the top and columns c1–c12 from the left. Players use the
rulebook's form, quadrant then row then column inside the quadrant (``ii-2-3``), with
quadrants in reading order: i top-left, ii top-right, iii bottom-left, iv bottom-right
(RULINGS §1.5 [P]). ``ii23`` and the map form ``r2c9`` are accepted when typing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

SIZE = 12
SQUARES = SIZE * SIZE
DIRS = "NESW"
QUADRANTS = ("i", "ii", "iii", "iv")


@dataclass(frozen=True)
class Arm:
    """Half a square's width of printed line: from the centre of ``square`` to its ``d`` edge."""

    square: int
    d: int  # index into DIRS
    footpath: bool


@dataclass(frozen=True)
class Landmark:
    letter: str
    name: str
    arm: tuple[int, int]  # (square, d): drawing this arm passes the letter


@dataclass(frozen=True)
class Bridge:
    number: int
    name: str
    square: int


@dataclass(frozen=True)
class CityMap:
    kinds: tuple[str, ...]  # per square: street, bridge, water or field
    arms: tuple[dict[int, bool], ...]  # per square: d -> is it a footpath
    bridges: tuple[Bridge, ...]
    landmarks: tuple[Landmark, ...]
    buildings: tuple[tuple[tuple[int, int], ...], ...]  # each: the arms it is seen from
    trees: tuple[tuple[tuple[int, int], ...], ...]
    hidden_landmark: str
    hidden_count: int
    hidden_block: int
    hidden_ring: tuple[int, ...]  # squares around the block, in order round the ring
    exits: tuple[tuple[tuple[int, int], int], ...]  # (arm, value)
    immediate_values: dict[str, int]
    reroll_values: tuple[int, ...]
    footpaths_value: int
    solo_levels: tuple[int | None, ...]


def square_of(row: int, col: int) -> int:
    """The square index of map row ``row`` and column ``col`` (both 1–12)."""
    return (row - 1) * SIZE + (col - 1)


def row_col(square: int) -> tuple[int, int]:
    return square // SIZE + 1, square % SIZE + 1


def format_square(square: int) -> str:
    """The rulebook's name: quadrant, row and column inside it, e.g. ``ii-2-3``."""
    row, col = row_col(square)
    quadrant = QUADRANTS[2 * ((row - 1) // 6) + (col - 1) // 6]
    return f"{quadrant}-{(row - 1) % 6 + 1}-{(col - 1) % 6 + 1}"


def map_name(square: int) -> str:
    """The map-grid name, e.g. ``r2c9``: handy in tests and data."""
    row, col = row_col(square)
    return f"r{row}c{col}"


_RULEBOOK = re.compile(r"(iv|iii|ii|i)-?([1-6])-?([1-6])")
_MAP = re.compile(r"r(\d{1,2})c(\d{1,2})")


def parse_square(text: str) -> int | None:
    """A square from ``ii-2-3``, ``ii23`` or ``r2c9`` (any case), or ``None``."""
    clean = text.strip().lower()
    m = _RULEBOOK.fullmatch(clean)
    if m:
        q = QUADRANTS.index(m.group(1))
        return square_of(6 * (q // 2) + int(m.group(2)), 6 * (q % 2) + int(m.group(3)))
    m = _MAP.fullmatch(clean)
    if m and 1 <= int(m.group(1)) <= SIZE and 1 <= int(m.group(2)) <= SIZE:
        return square_of(int(m.group(1)), int(m.group(2)))
    return None


def _arm_ref(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"r(\d+)c(\d+)([NESW])", text)
    if not m:
        raise ValueError(f"bad arm {text!r} in map.json")
    return square_of(int(m.group(1)), int(m.group(2))), DIRS.index(m.group(3))


def _square_ref(text: str) -> int:
    square = parse_square(text)
    if square is None:
        raise ValueError(f"bad square {text!r} in map.json")
    return square


def _load() -> CityMap:
    raw = json.loads(resources.files(__package__).joinpath("map.json").read_text(encoding="utf-8"))
    kinds: list[str] = []
    arms: list[dict[int, bool]] = []
    for line in raw["squares"]:
        tokens = line.split()
        if len(tokens) != SIZE:
            raise ValueError(f"map.json row has {len(tokens)} squares: {line!r}")
        for token in tokens:
            if token in ("~", "#"):
                kinds.append("water" if token == "~" else "field")
                arms.append({})
                continue
            kinds.append("bridge" if token.startswith("=") else "street")
            letters = token.lstrip("=")
            arms.append({DIRS.index(ch.upper()): ch.islower() for ch in letters})
    hidden = raw["hidden_trees"]
    bonus = raw["bonus_values"]
    return CityMap(
        kinds=tuple(kinds),
        arms=tuple(arms),
        bridges=tuple(Bridge(n, name, _square_ref(sq)) for n, name, sq in raw["bridges"]),
        landmarks=tuple(
            Landmark(letter, name, _arm_ref(arm)) for letter, name, arm in raw["landmarks"]
        ),
        buildings=tuple(tuple(_arm_ref(a) for a in seen) for seen in raw["buildings"]),
        trees=tuple(tuple(_arm_ref(a) for a in seen) for seen in raw["trees"]),
        hidden_landmark=hidden["landmark"],
        hidden_count=hidden["count"],
        hidden_block=_square_ref(hidden["block"]),
        hidden_ring=tuple(_square_ref(sq) for sq in hidden["ring"]),
        exits=tuple((_arm_ref(arm), value) for arm, value in raw["edge_exits"]),
        immediate_values=dict(bonus["immediate"]),
        reroll_values=tuple(bonus["reroll"]),
        footpaths_value=bonus["footpaths"],
        solo_levels=tuple(
            None if v == "." else int(v) for line in raw["solo_levels"] for v in line.split()
        ),
    )


CITY = _load()
