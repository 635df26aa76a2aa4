"""Skybridge's actions and their one notation: colour, piece, square (`red tall b2`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import IllegalMove
from engine.skybridge.board import COLOURS, KINDS, SQUARES


@dataclass(frozen=True, order=True)
class Place:
    """Put one piece: ``squares`` holds one square, or two (ascending) for a bridge."""

    colour: int
    kind: str
    squares: tuple[int, ...]


Action = Place

_COMPACT = re.compile(r"([a-z])([a-z])\s*([a-c][1-3])(?:\s*-?\s*([a-c][1-3]))?")
_WORDS = re.compile(r"([a-z]+)\s+([a-z]+)\s+([a-c][1-3])(?:\s*-\s*([a-c][1-3])|\s+([a-c][1-3]))?")
HOWTO = "Write a move as colour, piece and square, e.g. `red tall b2`, `blue bridge a1-a2`."


def _word(token: str, words: tuple[str, ...], what: str) -> int:
    for i, word in enumerate(words):
        if token in (word, word[0]):
            return i
    raise IllegalMove(f"'{token}' is not a {what} (one of {', '.join(words)}). {HOWTO}")


def parse(text: str) -> Action:
    """Read `red tall b2`, `blue bridge a1-a2` or the short `rt b2` (the core reads
    `resign`)."""
    clean = " ".join(text.lower().split())
    m = _WORDS.fullmatch(clean) or _COMPACT.fullmatch(clean)
    if not m:
        raise IllegalMove(f"I can't read '{text.strip()[:40]}' as a Skybridge move. {HOWTO}")
    colour = _word(m.group(1), COLOURS, "colour")
    kind = KINDS[_word(m.group(2), KINDS, "piece")]
    squares = tuple(sorted(SQUARES.index(s) for s in m.groups()[2:] if s))
    if kind == "bridge" and len(squares) != 2:
        raise IllegalMove("A bridge joins two squares, e.g. `blue bridge a1-a2`.")
    if kind != "bridge" and len(squares) != 1:
        raise IllegalMove(f"A {kind} goes on one square, e.g. `{COLOURS[colour]} {kind} b2`.")
    if len(set(squares)) != len(squares):
        raise IllegalMove("A bridge joins two different towers.")
    return Place(colour, kind, squares)


def format(action: Action) -> str:
    """The canonical notation: full words, a bridge's squares ascending."""
    where = "-".join(SQUARES[sq] for sq in action.squares)
    return f"{COLOURS[action.colour]} {action.kind} {where}"
