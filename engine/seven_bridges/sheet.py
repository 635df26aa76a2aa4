"""A seat's own map sheet: where a face may go on it, and what drawing on it brings.

Drafting a die and drawing an immediate bonus both put a face on the sheet, and a stuck
seat's downgrade asks where a face would fit, so the drawing rules of
:mod:`engine.seven_bridges.drawing` are applied to a seat here, once, for all of them:
with that seat's footpaths and the reach of the horse drawn (a die's type, or the
bonus's 3 squares).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_bridges.actions import Line, Placement, Shape
from engine.seven_bridges.board import CITY
from engine.seven_bridges.bonuses import BONUS_HORSE_REACH, RESERVED, USED
from engine.seven_bridges.dice import HORSE, ROTATIONS, face_name, horse_reach
from engine.seven_bridges.drawing import (
    line_arms,
    line_fits,
    line_placements,
    line_refusal,
    shape_arms,
    shape_fits,
    shape_placements,
    shape_refusal,
)
from engine.seven_bridges.legend import crossed, visited
from engine.seven_bridges.lines import FOOTPATHS
from engine.seven_bridges.state import Player, State


def _reach(kind: int | None) -> int:
    return BONUS_HORSE_REACH if kind is None else horse_reach(kind)


def placements(player: Player, value: int, kind: int | None) -> list[Placement]:
    """Every legal placement of a face (``kind`` None: the immediate bonus)."""
    walk = player.bonuses.may_walk_footpaths
    if value == HORSE:
        return [Line(*p) for p in line_placements(player.drawn, walk, _reach(kind))]
    return [Shape(sq, dirs) for sq, dirs in shape_placements(player.drawn, walk, value)]


def fits(player: Player, value: int, kind: int | None) -> bool:
    """Whether the face fits anywhere (cheaper than listing its placements)."""
    walk = player.bonuses.may_walk_footpaths
    if value == HORSE:
        return line_fits(player.drawn, walk, _reach(kind))
    return shape_fits(player.drawn, walk, value)


def placement_refusal(player: Player, value: int, kind: int | None, where: Placement) -> str | None:
    """Why the face may not be drawn at ``where``, naming the rule; ``None`` if it may."""
    walk = player.bonuses.may_walk_footpaths
    if value == HORSE:
        if not isinstance(where, Line):
            return (
                "Get on your horse: a horse draws a straight line from an end point or corner "
                "of your lines, written as start and direction+length, e.g. `ii-2-4w e3`."
            )
        return line_refusal(
            player.drawn, walk, _reach(kind), where.start, where.heading, where.length
        )
    if isinstance(where, Line):
        return (
            f"Exclusivity: the lines of a {face_name(value)} go into one square; only a horse "
            f"may draw a line across squares."
        )
    if not isinstance(where, Shape) or value not in ROTATIONS:
        return "That is not a placement."
    return shape_refusal(player.drawn, walk, value, where.square, tuple(where.dirs))


def arms_of(value: int, where: Placement) -> int:
    """The arms a face placed at ``where`` draws."""
    if isinstance(where, Line):
        return line_arms(where.start, where.heading, where.length)
    return shape_arms(where.square, where.dirs)


def draw(state: State, seat: int, arms: int, events: list[Event]) -> Player:
    """Add ``arms`` to a seat's map: a footpath's first use, landmarks passed (a bonus
    each), bridges crossed (an item each, in the advanced game)."""
    player = state.seats[seat]
    before = player.drawn
    after = before | arms
    bonuses = player.bonuses
    if arms & FOOTPATHS and bonuses.footpaths == RESERVED:
        bonuses = replace(bonuses, footpaths=USED)
        events.append(Event("footpaths", f"{seat_ref(seat)} walks a footpath: bonus used."))
    letters = [lm for lm in visited(after) if lm not in visited(before)]
    bridges = [b for b in crossed(after) if b not in crossed(before)]
    for letter in letters:
        events.append(Event("landmark", f"{seat_ref(seat)} visits landmark {letter}."))
    for number in bridges:
        name = CITY.bridges[number - 1].name
        events.append(Event("bridge", f"{seat_ref(seat)} crosses the {name}."))
    return replace(
        player,
        drawn=after,
        bonuses=bonuses,
        pending=player.pending + len(letters),
        pending_items=player.pending_items + (len(bridges) if state.advanced else 0),
    )
