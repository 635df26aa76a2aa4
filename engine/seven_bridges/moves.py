"""What a seat may do now: every legal placement, bonus choice and pick, in a stable order.

Buttons and autocomplete offer exactly these lists, and ``apply`` checks a move with the
same refusals the lists are built from (:mod:`engine.seven_bridges.drawing`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.seven_bridges.bonuses import BONUS_HORSE_REACH, NOT_TAKEN, REROLLS
from engine.seven_bridges.dice import HORSE, KINDS, ROTATIONS, face_name, horse_reach
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
from engine.seven_bridges.notation import (
    Action,
    Bonus,
    Discard,
    Distribute,
    Downgrade,
    Line,
    Pick,
    Placement,
    Reroll,
    Reserve,
    Shape,
)
from engine.seven_bridges.state import PICKS, Player, State, available, owner


def _reach(kind: int | None) -> int:
    return BONUS_HORSE_REACH if kind is None else horse_reach(kind)


def placements(player: Player, value: int, kind: int | None) -> list[Placement]:
    """Every legal placement of a face (``kind`` None: the immediate bonus)."""
    walk = player.bonuses.may_walk_footpaths
    if value == HORSE:
        return [Line(*p) for p in line_placements(player.drawn, walk, _reach(kind))]
    return [Shape(sq, dirs) for sq, dirs in shape_placements(player.drawn, walk, value)]


def fits(player: Player, value: int, kind: int | None) -> bool:
    walk = player.bonuses.may_walk_footpaths
    if value == HORSE:
        return line_fits(player.drawn, walk, _reach(kind))
    return shape_fits(player.drawn, walk, value)


def placement_refusal(player: Player, value: int, kind: int | None, where: Any) -> str | None:
    walk = player.bonuses.may_walk_footpaths
    name = face_name(value)
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
            f"Exclusivity: the lines of a {name} go into one square; only a horse may draw a "
            f"line across squares."
        )
    if not isinstance(where, Shape) or value not in ROTATIONS:
        return "That is not a placement."
    return shape_refusal(player.drawn, walk, value, where.square, tuple(where.dirs))


def arms_of(value: int, where: Placement) -> int:
    if isinstance(where, Line):
        return line_arms(where.start, where.heading, where.length)
    return shape_arms(where.square, where.dirs)


def bonus_options(player: Player) -> list[Action]:
    """A landmark's bonus choices: any unused immediate shape that fits, or a reserve."""
    out: list[Action] = []
    for value in range(1, 7):
        if player.bonuses.immediate_free(value):
            out += [Bonus(value, where) for where in placements(player, value, None)]
    if player.bonuses.reserved < REROLLS:
        out.append(Reserve("reroll"))
    if player.bonuses.footpaths == NOT_TAKEN:
        out.append(Reserve("footpaths"))
    return out


def has_bonus_option(player: Player) -> bool:
    b = player.bonuses
    if b.reserved < REROLLS or b.footpaths == NOT_TAKEN:
        return True
    return any(b.immediate_free(v) and fits(player, v, None) for v in range(1, 7))


def _distinct(state: State, dice: tuple[int, ...]) -> list[int]:
    """One die per (type, face) among ``dice``, in face then type order."""
    seen: dict[tuple[int, int], int] = {}
    for d in dice:
        seen.setdefault((state.dice[d], KINDS[d]), d)
    return [seen[key] for key in sorted(seen)]


def pick_options(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    if state.committed >= 0:
        d = state.committed
        return [
            Pick(KINDS[d], state.dice[d], where)
            for where in placements(player, state.dice[d], KINDS[d])
        ]
    out: list[Action] = []
    mine = available(state, seat)
    for d in _distinct(state, mine):
        out += [
            Pick(KINDS[d], state.dice[d], where)
            for where in placements(player, state.dice[d], KINDS[d])
        ]
    if not out:
        if any(state.dice[d] == HORSE for d in mine):
            out += [Discard(KINDS[d], state.dice[d]) for d in _distinct(state, mine)]
        else:
            low = min(state.dice[d] for d in mine)
            out += [
                Downgrade(KINDS[d], low) for d in _distinct(state, mine) if state.dice[d] == low
            ]
    if player.bonuses.reroll_ready and seat not in state.rerolled:
        out.append(Reroll())
        if not state.hands:
            out += [Distribute(dice) for dice in _distributions(state)]
    return out


def _distributions(state: State) -> list[tuple[tuple[int, int], ...]]:
    """Every way to hand the available dice to the remaining picks, each way once.

    Dice are (type, face) pairs; a position holding several picks gets its dice in face
    order across them, which makes each way of sharing the dice out one listing. Listed in
    face order pick by pick.
    """
    owners = [owner(state, s) for s in range(state.slot, PICKS)]
    pool = Counter((KINDS[d], state.dice[d]) for d in available(state, owners[0]))
    keys = sorted(pool, key=lambda die: (die[1], die[0]))
    counts = [pool[key] for key in keys]
    out: list[tuple[tuple[int, int], ...]] = []
    lowest = dict.fromkeys(owners, 0)  # a position's next die is no lower than its last

    def give(k: int, prefix: tuple[tuple[int, int], ...]) -> None:
        if k == len(owners):
            out.append(prefix)
            return
        p = owners[k]
        floor = lowest[p]
        for i in range(floor, len(keys)):
            if counts[i]:
                counts[i] -= 1
                lowest[p] = i
                give(k + 1, (*prefix, keys[i]))
                counts[i] += 1
        lowest[p] = floor

    give(0, ())
    return out
