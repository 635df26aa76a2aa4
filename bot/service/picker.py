"""The move picker's logic: walk a position's legal moves one token at a time.

A move's notation is space-separated tokens from general to specific (``red tall b2``).
The picker offers the distinct next tokens among the legal moves that match what was
chosen so far, skips steps with a single choice, and ends on one complete move. A
*path* (the index chosen at each offered step) is all a button needs to carry: the
same position always gives the same legal moves, so the path replays to the same move.
No Discord here, so it is tested on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.replies import Reply, Table

FINISH = ""  # the option that ends a move which is also the start of longer moves


@dataclass(frozen=True)
class Step:
    """Where a path leads: the tokens fixed so far, and what to choose next (or the move)."""

    prefix: tuple[str, ...]
    options: tuple[str, ...]
    move: str | None = None


@dataclass(frozen=True)
class Picked:
    """Where a click of the move picker leads: the game's own table (a Play button may be
    clicked far from it), the clicker's legal moves there in notation, the step the
    click's path reached, and the answer to the move it completed, if it completed one."""

    table: Table
    moves: list[str]
    step: Step
    reply: Reply | None = None


class StalePath(LookupError):
    """A path that no longer fits the position's legal moves."""


def _options(moves: Sequence[tuple[str, ...]], prefix: tuple[str, ...]) -> tuple[str, ...]:
    n = len(prefix)
    seen: dict[str, None] = {}
    for tokens in moves:
        if tokens[:n] == prefix:
            seen[tokens[n] if len(tokens) > n else FINISH] = None
    return tuple(seen)


def _settle(moves: Sequence[tuple[str, ...]], prefix: tuple[str, ...]) -> Step:
    """Take every forced token; stop at a real choice or a complete move."""
    while True:
        options = _options(moves, prefix)
        if options == (FINISH,):
            return Step(prefix, (), " ".join(prefix))
        if len(options) != 1:
            return Step(prefix, options)
        prefix = (*prefix, options[0])


def walk(moves: Sequence[str], path: Sequence[int]) -> Step:
    """Follow ``path`` through ``moves``; raises :class:`StalePath` if it does not fit."""
    tokens = [tuple(m.split(" ")) for m in moves]
    if not tokens:
        raise StalePath("no legal moves")
    step = _settle(tokens, ())
    for index in path:
        if step.move is not None or not 0 <= index < len(step.options):
            raise StalePath(f"path {list(path)} does not fit")
        choice = step.options[index]
        if choice == FINISH:
            return Step(step.prefix, (), " ".join(step.prefix))
        step = _settle(tokens, (*step.prefix, choice))
    return step


def page(options: Sequence[str], number: int, size: int) -> tuple[range, bool, bool]:
    """The option indices on page ``number`` and whether pages exist before and after it."""
    start = number * size
    shown = range(start, min(len(options), start + size))
    return shown, number > 0, shown.stop < len(options)


def suggest(moves: Sequence[str], typed: str) -> list[str]:
    """The legal moves that contain what was typed, whatever its case or spacing: those
    starting with it first, each group in legal order (`i3` finds Bridge Wars' `I3 h f6`)."""
    wanted = " ".join(typed.lower().split())
    starting = [m for m in moves if m.lower().startswith(wanted)]
    within = [m for m in moves if wanted in m.lower() and not m.lower().startswith(wanted)]
    return starting + within
