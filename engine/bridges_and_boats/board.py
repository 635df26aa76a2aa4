"""The river: one bridge of six sections, twelve spaces for soldiers, and where bombs fall.

Sections are numbered 1–6 from the attacker's bank (index 0–5 here); each section is
one domino laid lengthwise, so it holds two spaces: section ``k`` holds spaces
``2k-1`` and ``2k`` (indices ``2i`` and ``2i+1``). A soldier on space 12 crosses by
moving off the bridge.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bridges_and_boats.dominoes import Domino

SECTIONS = 6
SPACES = 2 * SECTIONS

#: RULINGS §5.4 [R]: the 2d6 sum picks the section hit, counted from the attacker's bank
SECTION_OF_SUM: dict[int, int] = {
    2: 0,
    3: 1,
    4: 1,
    5: 2,
    6: 2,
    7: 3,
    8: 3,
    9: 4,
    10: 4,
    11: 5,
    12: 5,
}

Bridge = tuple[Domino | None, ...]  # six sections, None where nothing stands
Spaces = tuple[bool, ...]  # twelve spaces, True where a soldier stands


def section_of_space(space: int) -> int:
    return space // 2


def spaces_of_section(section: int) -> tuple[int, int]:
    return 2 * section, 2 * section + 1


def next_gap(bridge: Bridge) -> int | None:
    """The section the next domino builds or repairs: always the lowest one standing empty."""
    return next((i for i, d in enumerate(bridge) if d is None), None)


def advance(bridge: Bridge, spaces: Spaces, count: int, speed: int = 1) -> tuple[Spaces, int, int]:
    """Move up to ``count`` soldiers up to ``speed`` spaces each (one in the rulebook),
    furthest ahead first.

    A soldier steps on while the space ahead is free and its section stands; the one on
    space 12 moves off the bridge and has crossed. Going front first lets a file of
    soldiers all step up behind its leader. Returns the spaces, how many moved and
    how many of those crossed.
    """
    moved = crossed = 0
    for space in range(SPACES - 1, -1, -1):
        if moved == count:
            break
        if not spaces[space]:
            continue
        spaces, end = walk(bridge, spaces, space, speed)
        moved += end != space
        crossed += end is None
    return spaces, moved, crossed


def walk(bridge: Bridge, spaces: Spaces, space: int, steps: int) -> tuple[Spaces, int | None]:
    """The soldier on ``space`` steps forward up to ``steps`` times, while the space ahead
    is free and its section stands; off space 12, he has crossed. Returns the spaces and
    where he stands (None: crossed)."""
    cells = list(spaces)
    at = space
    for _ in range(steps):
        ahead = at + 1
        if ahead == SPACES:
            cells[at] = False
            return tuple(cells), None
        if cells[ahead] or bridge[section_of_space(ahead)] is None:
            break
        cells[at], cells[ahead] = False, True
        at = ahead
    return tuple(cells), at


def movable(bridge: Bridge, spaces: Spaces, speed: int = 1) -> int:
    """How many soldiers can advance this turn, front first."""
    return advance(bridge, spaces, SPACES, speed)[1]


def soldiers_on(spaces: Spaces, sections: Sequence[int]) -> int:
    return sum(spaces[s] for sec in sections for s in spaces_of_section(sec))


def clear(spaces: Spaces, sections: Sequence[int]) -> Spaces:
    """The spaces with every soldier on ``sections`` removed (killed)."""
    dead = {s for sec in sections for s in spaces_of_section(sec)}
    return tuple(False if i in dead else occupied for i, occupied in enumerate(spaces))


def soldiers(n: int) -> str:
    """``n`` soldiers in words, for events and refusals."""
    return f"{n} soldier" + ("" if n == 1 else "s")


def coins(n: int) -> str:
    """``n`` coins in words, for events and refusals."""
    return f"{n} coin" + ("" if n == 1 else "s")
