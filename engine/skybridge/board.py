"""The city: nine foundations, the pieces, and how high a tower stands.

Squares are named like chess: columns a–c from the left, rows 1–3 from the bottom.
A piece *touches* only what it rests on; a bridge lies on two towers at once.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("red", "blue", "yellow", "green")
KINDS = ("tall", "cube", "bridge", "roof")
STORIES = {"tall": 3, "cube": 2, "bridge": 1, "roof": 0}
PER_COLOUR = {"tall": 4, "cube": 4, "bridge": 1, "roof": 2}
NEUTRAL = 3  # the 4th colour in a 3-player game: each player holds one tall and one cube
SQUARES = tuple(f"{col}{row}" for row in (1, 2, 3) for col in "abc")
ADJACENT = tuple(
    (a, b)
    for a in range(9)
    for b in range(a + 1, 9)
    if (a // 3 == b // 3 and b - a == 1) or (a % 3 == b % 3 and b - a == 3)
)


@dataclass(frozen=True, order=True)
class Piece:
    colour: int
    kind: str

    @property
    def code(self) -> str:
        return COLOURS[self.colour][0].upper() + self.kind[0].upper()

    @classmethod
    def from_code(cls, code: str) -> Piece:
        colour = next(i for i, name in enumerate(COLOURS) if name[0].upper() == code[0])
        kind = next(k for k in KINDS if k[0].upper() == code[1])
        return cls(colour, kind)


Stack = tuple[Piece, ...]
Board = tuple[Stack, ...]  # nine stacks, bottom piece first, indexed like SQUARES


def height(stack: Stack) -> int:
    return sum(STORIES[p.kind] for p in stack)


def roofed(stack: Stack) -> bool:
    return bool(stack) and stack[-1].kind == "roof"


def bridge_spans(board: Board) -> dict[int, tuple[int, int]]:
    """Where each colour's bridge lies (each colour has one bridge)."""
    found: dict[int, list[int]] = {}
    for sq, stack in enumerate(board):
        for piece in stack:
            if piece.kind == "bridge":
                found.setdefault(piece.colour, []).append(sq)
    return {colour: (sqs[0], sqs[1]) for colour, sqs in found.items()}
