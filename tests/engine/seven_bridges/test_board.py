"""The Seven Bridges board, the map of Königsberg (RULINGS §1.5–1.7): the project's data
file keeps the shared facts.

Checked against the facts the rulings state, not against the shared JSON file, so the
project's own map stands on its own: counts, totals, where bridges and landmarks are, and
Euler's Königsberg topology.
"""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from engine.seven_bridges.board import (
    CITY,
    SQUARES,
    format_square,
    map_name,
    parse_square,
    row_col,
    square_of,
)
from engine.seven_bridges.bonuses import total_bonus_value
from engine.seven_bridges.legend import HIDDEN_RING, TOTAL_GRID, TOTAL_TREES
from engine.seven_bridges.lines import ALL_ARMS, FOOTPATHS, OPPOSITE, SQUARE_ARM, bits
from tests.engine.seven_bridges.conftest import sq

STEP = {0: -12, 1: 1, 2: 12, 3: -1}


def test_the_map_file_ships_inside_the_package():
    assert resources.files("engine.seven_bridges").joinpath("map.json").is_file()


def test_144_squares_in_four_quadrants_of_36():
    assert len(CITY.kinds) == SQUARES == 144
    quadrants = Counter(format_square(s).split("-")[0] for s in range(SQUARES))
    assert quadrants == {"i": 36, "ii": 36, "iii": 36, "iv": 36}


def test_square_kinds_where_the_reference_has_them():
    kinds = Counter(CITY.kinds)
    assert kinds == {"street": 103, "bridge": 7, "water": 31, "field": 3}
    assert {map_name(s) for s in range(SQUARES) if CITY.kinds[s] == "field"} == {
        "r5c1",
        "r9c6",
        "r11c1",
    }
    # the water lines of the solo table: row 7 except its two bridges, column 4 rows 3-7
    assert all(CITY.kinds[sq(f"r7c{c}")] == "water" for c in (1, 2, 3, 4, 7, 8, 9, 10, 12))
    assert all(CITY.kinds[sq(f"r{r}c4")] == "water" for r in range(3, 8))
    # blank cells of the solo table are exactly the squares without streets
    blanks = {s for s in range(SQUARES) if CITY.solo_levels[s] is None}
    assert blanks == {s for s in range(SQUARES) if not CITY.arms[s]}


def test_streets_and_footpaths():
    assert sum(1 for k in CITY.kinds if k in ("street", "bridge")) == 110
    assert len(bits(ALL_ARMS)) == 304
    assert len(bits(FOOTPATHS)) == 18
    shapes = Counter(len(CITY.arms[s]) for s in range(SQUARES) if CITY.arms[s])
    assert shapes == {4: 17, 3: 53, 2: 37, 1: 3}
    # neighbouring squares agree on the line between them
    for s in range(SQUARES):
        for d, footpath in CITY.arms[s].items():
            r, c = row_col(s)
            inside = {0: r > 1, 1: c < 12, 2: r < 12, 3: c > 1}[d]
            if inside:
                assert CITY.arms[s + STEP[d]].get(OPPOSITE[d]) == footpath, (map_name(s), d)


def test_the_seven_named_bridges():
    names = [b.name for b in CITY.bridges]
    assert names == [
        "Green Bridge",
        "Offal Bridge",
        "Honey Bridge",
        "New Bridge",
        "Grocers Bridge",
        "Smith's Bridge",
        "Wooden Bridge",
    ]
    assert [map_name(b.square) for b in CITY.bridges] == [
        "r7c6",
        "r7c5",
        "r5c10",
        "r7c11",
        "r3c7",
        "r3c5",
        "r3c11",
    ]
    assert all(CITY.kinds[b.square] == "bridge" for b in CITY.bridges)
    assert all(len(CITY.arms[b.square]) == 2 for b in CITY.bridges)


def test_the_eleven_named_landmarks_sit_on_level_1_squares():
    letters = [lm.letter for lm in CITY.landmarks]
    assert letters == list("ABCDEFGHIJK")
    assert CITY.landmarks[5].name == "Königsberg Cathedral"
    for lm in CITY.landmarks:
        square, d = lm.arm
        assert SQUARE_ARM[square][d] >= 0, lm.letter
        assert CITY.solo_levels[square] == 1, lm.letter


def test_100_buildings_and_100_trees_with_9_hidden_in_h():
    assert len(CITY.buildings) == 100
    assert len(CITY.trees) == 91
    assert CITY.hidden_count == 9 and CITY.hidden_landmark == "H"
    assert TOTAL_TREES == 100
    assert map_name(CITY.hidden_block) == "r9c6"
    assert CITY.kinds[CITY.hidden_block] == "field"
    assert len(bits(HIDDEN_RING)) == 16
    for seen in CITY.buildings + CITY.trees:
        assert all(SQUARE_ARM[s][d] >= 0 for s, d in seen)


def test_22_edge_exits_worth_80():
    assert len(CITY.exits) == 22
    assert TOTAL_GRID == sum(v for _, v in CITY.exits) == 80
    for (s, d), value in CITY.exits:
        r, c = row_col(s)
        on_edge = {0: r == 1, 1: c == 12, 2: r == 12, 3: c == 1}[d]
        assert on_edge and SQUARE_ARM[s][d] >= 0
        # the value beside an exit is its in-quadrant row (W/E edge) or column (N/S edge)
        assert value == ((r if d in (1, 3) else c) - 1) % 6 + 1


def test_bonus_values_worth_40():
    assert total_bonus_value() == 40
    assert CITY.immediate_values == {
        "cross": 4,
        "tee": 3,
        "corner": 2,
        "straight": 2,
        "half": 1,
        "horse": 3,
    }
    assert CITY.reroll_values == (4, 6, 8) and CITY.footpaths_value == 7


def test_eulers_topology_four_land_masses_with_degrees_3_5_3_3():
    bridges = {b.square for b in CITY.bridges}
    land = {s for s in range(SQUARES) if CITY.arms[s] and s not in bridges}
    part: dict[int, int] = {}
    for start in sorted(land):
        if start in part:
            continue
        part[start] = start
        todo = [start]
        while todo:
            s = todo.pop()
            for d in CITY.arms[s]:
                other = s + STEP[d]
                if other in land and other not in part and OPPOSITE[d] in CITY.arms[other]:
                    part[other] = start
                    todo.append(other)
    sizes = Counter(part.values())
    assert sorted(sizes.values()) == [6, 15, 33, 49]
    degree: Counter[int] = Counter()
    for b in bridges:
        for d in CITY.arms[b]:
            degree[part[b + STEP[d]]] += 1
    by_size = {sizes[p]: degree[p] for p in sizes}
    # north bank (33 squares) 3, Kneiphof (15) 5, Lomse (6) 3, south bank (49) 3
    assert by_size == {33: 3, 15: 5, 6: 3, 49: 3}
    # so no walk crosses every bridge once: more than two land masses have odd degree
    assert sum(1 for v in degree.values() if v % 2) == 4


@pytest.mark.parametrize(
    ("text", "row", "col"),
    [
        ("ii-2-3", 2, 9),
        ("II-2-3", 2, 9),
        ("ii23", 2, 9),
        ("r2c9", 2, 9),
        ("i-1-1", 1, 1),
        ("iii-1-6", 7, 6),
        ("iv-6-6", 12, 12),
        ("iv66", 12, 12),
        ("r12c1", 12, 1),
    ],
)
def test_coordinates_parse_in_both_forms(text, row, col):
    assert parse_square(text) == square_of(row, col)


def test_coordinates_format_as_the_rulebook_writes_them():
    # the rulebook's starting square "Quadrant ii, Column 3, Row 2", near the upper right
    assert format_square(square_of(2, 9)) == "ii-2-3"
    assert format_square(square_of(7, 1)) == "iii-1-1"
    for s in range(SQUARES):
        assert parse_square(format_square(s)) == s
        assert parse_square(map_name(s)) == s


@pytest.mark.parametrize("text", ["v-1-1", "ii-7-1", "ii-0-1", "r13c1", "r0c3", "x", "", "ii-2"])
def test_bad_coordinates_do_not_parse(text):
    assert parse_square(text) is None
