"""The actions and their one notation: tokens from general to specific, so a picker can
step through them.

    roll                   the roller rolls the six dice to start a turn
    tee3 ii-2-3 nes        draft the tee on a 3-horse die; draw it in ii-2-3, arms N, E, S
    cross2 ii-2-3          a cross has one rotation, so none is written
    horse3 ii-2-4w e3      horse line from the west edge of ii-2-4, east, 3 half squares
    horse2 ii-2-3 s4       horse line from the centre of ii-2-3, south, 2 squares
    bonus corner i-1-2 es  draw an immediate bonus (bonus horse: like a horse die)
    reserve reroll         reserve the next re-roll/distribute bonus (or: reserve footpaths)
    reroll                 use a reserved bonus: re-roll the available dice
    distribute tee3 half2  use it to hand out the dice, one per remaining pick, in pick order
    downgrade cross3       nothing fits and no horse is out: turn the lowest die up
    discard horse2         nothing fits, not even the horse: take a die and draw nothing
    score trees            advanced rule: the item this bridge crossing will score

Squares are the rulebook's quadrant-row-column (``ii-2-3``); ``ii23`` and the map grid's
``r2c9`` are read too. A point on an edge adds the edge's letter (``ii-2-4w``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import IllegalMove
from engine.seven_bridges.board import DIRS, format_square, parse_square
from engine.seven_bridges.dice import (
    FACES,
    die_token,
    face_name,
    face_value,
    parse_rotation,
    rotation_name,
)
from engine.seven_bridges.legend import ITEMS
from engine.seven_bridges.lines import centre, format_point, midpoint


@dataclass(frozen=True, order=True)
class Shape:
    """A shape inside one square: its arms, as directions 0–3 (N, E, S, W)."""

    square: int
    dirs: tuple[int, ...]


@dataclass(frozen=True, order=True)
class Line:
    """A horse line: from lattice point ``start``, ``length`` half squares towards ``heading``."""

    start: int
    heading: int
    length: int


Placement = Shape | Line


@dataclass(frozen=True)
class Pick:
    """Draft the die of type ``kind`` (2 or 3) showing ``value`` and draw it at ``where``."""

    kind: int
    value: int
    where: Placement


@dataclass(frozen=True)
class Bonus:
    """Draw the immediate bonus shape of ``value`` at ``where``."""

    value: int
    where: Placement


@dataclass(frozen=True)
class Reserve:
    """Take a landmark's bonus from the RESERVED USE column, to use later."""

    what: str  # "reroll" or "footpaths"


@dataclass(frozen=True)
class Roll:
    """The roller rolls the six dice: the turn's first move, so play by post waits for it."""


@dataclass(frozen=True)
class Reroll:
    """Use a reserved re-roll/distribute bonus to re-roll the dice still available."""


@dataclass(frozen=True)
class Distribute:
    """Hand out the available dice: ``dice[i]`` (kind, value) goes to the i-th remaining pick."""

    dice: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Downgrade:
    """Nothing fits and no horse is out: turn the lowest die up until it fits."""

    kind: int
    value: int


@dataclass(frozen=True)
class Discard:
    """Nothing fits, not even the horse that is out: take a die and draw nothing."""

    kind: int
    value: int


@dataclass(frozen=True)
class Choose:
    """Advanced rule: the legend item chosen for a bridge just crossed."""

    item: str


Action = Roll | Pick | Bonus | Reserve | Reroll | Distribute | Downgrade | Discard | Choose

HOWTO = (
    "`roll` starts a turn. Write a move as die, square and rotation (`tee3 ii-2-3 nes`, "
    "`cross2 ii-2-3`), a horse as die, start and direction with length in half squares "
    "(`horse3 ii-2-4w e3`), or "
    "`bonus ...`, `reserve reroll`, `reroll`, `distribute ...`, `downgrade ...`."
)


def format_placement(where: Placement) -> str:
    if isinstance(where, Line):
        heading = DIRS[where.heading].lower()
        return f"{format_point(where.start, where.heading)} {heading}{where.length}"
    text = format_square(where.square)
    return text if len(where.dirs) == 4 else f"{text} {rotation_name(where.dirs)}"


def format(action: Action) -> str:
    """The canonical notation of ``action``: what the move log stores and buttons carry."""
    if isinstance(action, Pick):
        return f"{die_token(action.kind, action.value)} {format_placement(action.where)}"
    if isinstance(action, Bonus):
        return f"bonus {face_name(action.value)} {format_placement(action.where)}"
    if isinstance(action, Reserve):
        return f"reserve {action.what}"
    if isinstance(action, Roll):
        return "roll"
    if isinstance(action, Reroll):
        return "reroll"
    if isinstance(action, Distribute):
        return " ".join(["distribute", *(die_token(k, v) for k, v in action.dice)])
    if isinstance(action, Downgrade):
        return f"downgrade {die_token(action.kind, action.value)}"
    if isinstance(action, Discard):
        return f"discard {die_token(action.kind, action.value)}"
    if isinstance(action, Choose):
        return f"score {action.item}"
    raise TypeError(f"not a Seven Bridges action: {action!r}")


_DIE = re.compile(r"([a-z+]+)([23])")
_POINT = re.compile(r"(.+?)([nesw])?")
_HEADING = re.compile(r"([nesw])(\d{1,2})")


def _die(token: str) -> tuple[int, int]:
    m = _DIE.fullmatch(token)
    value = face_value(m.group(1)) if m else None
    if m is None or value is None:
        raise IllegalMove(
            f"'{token}' is not a die: write its face and type, like `tee3` or `horse2` "
            f"(faces: {', '.join(FACES)}; type 2 or 3 is the die's horse)."
        )
    return int(m.group(2)), value


def _square(token: str) -> int:
    square = parse_square(token)
    if square is None:
        raise IllegalMove(
            f"'{token}' is not a square: write quadrant-row-column like `ii-2-3` "
            f"(or `ii23`, or the map grid's `r2c9`)."
        )
    return square


def _placement(tokens: list[str]) -> Placement:
    if len(tokens) == 2 and (h := _HEADING.fullmatch(tokens[1])):
        m = _POINT.fullmatch(tokens[0])
        square = parse_square(m.group(1)) if m else None
        if m is None or square is None:
            raise IllegalMove(f"'{tokens[0]}' is not a point: a square, or a square and an edge.")
        edge = m.group(2)
        start = centre(square) if edge is None else midpoint(square, "nesw".index(edge))
        return Line(start, "nesw".index(h.group(1)), int(h.group(2)))
    if len(tokens) == 1:
        return Shape(_square(tokens[0]), (0, 1, 2, 3))
    if len(tokens) == 2:
        dirs = parse_rotation(tokens[1])
        if dirs is None:
            raise IllegalMove(
                f"'{tokens[1]}' is not a rotation: write the arms to draw, like `nes` or `ew`."
            )
        return Shape(_square(tokens[0]), dirs)
    raise IllegalMove(f"I expected a square and a rotation, or a start and a direction. {HOWTO}")


def parse(text: str) -> Action:
    """Read an action in the notation above; raises :class:`IllegalMove` if unreadable."""
    tokens = text.lower().split()
    if not tokens:
        raise IllegalMove(f"Nothing to read. {HOWTO}")
    head, rest = tokens[0], tokens[1:]
    if head == "roll" and not rest:
        return Roll()
    if head == "reroll" and not rest:
        return Reroll()
    if head == "reserve" and len(rest) == 1 and rest[0] in ("reroll", "footpaths"):
        return Reserve(rest[0])
    if head == "score" and len(rest) == 1 and rest[0] in ITEMS:
        return Choose(rest[0])
    if head == "distribute" and rest:
        return Distribute(tuple(_die(t) for t in rest))
    if head in ("downgrade", "discard") and len(rest) == 1:
        kind, value = _die(rest[0])
        return Downgrade(kind, value) if head == "downgrade" else Discard(kind, value)
    if head == "bonus" and rest:
        face = face_value(rest[0])
        if face is None:
            raise IllegalMove(f"'{rest[0]}' is not a bonus shape ({', '.join(FACES)}).")
        return Bonus(face, _placement(rest[1:]))
    if _DIE.fullmatch(head) and rest:
        kind, value = _die(head)
        return Pick(kind, value, _placement(rest))
    raise IllegalMove(f"I can't read '{text.strip()[:40]}' as a Seven Bridges move. {HOWTO}")
