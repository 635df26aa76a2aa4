"""The six dice: two types of three, the same five shapes plus a horse of 2 or 3 squares.

RULINGS §1.2. A face's *value* is its place in the IMMEDIATE USE column (1 cross ... 6
horse [P]); downgrading turns a die to the next value. Dice 0–2 carry a 2-square horse,
dice 3–5 a 3-square horse. Shapes are drawn inside one square in one of their rotations,
each written as its arms in N, E, S, W order (``nes`` is a tee open to the west).
"""

from __future__ import annotations

from engine.core import Rng

FACES = ("cross", "tee", "corner", "straight", "half", "horse")
HORSE = 6
DICE = 6
KINDS = (2, 2, 2, 3, 3, 3)  # horse length in squares, per die
SHORT = {"x": "cross", "+": "cross", "t": "tee", "l": "corner", "i": "straight", "e": "half"}
SHORT["h"] = "horse"

ROTATIONS: dict[int, tuple[tuple[int, ...], ...]] = {
    1: ((0, 1, 2, 3),),
    2: ((0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)),
    3: ((0, 1), (1, 2), (2, 3), (0, 3)),
    4: ((0, 2), (1, 3)),
    5: ((0,), (1,), (2,), (3,)),
}
ARM_COUNT = {1: 4, 2: 3, 3: 2, 4: 2, 5: 1}


def face_name(value: int) -> str:
    return FACES[value - 1]


def face_value(name: str) -> int | None:
    """The value of a face written as its name or one-letter short form."""
    name = SHORT.get(name, name)
    return FACES.index(name) + 1 if name in FACES else None


def rotation_name(dirs: tuple[int, ...]) -> str:
    return "".join("nesw"[d] for d in sorted(dirs))


def parse_rotation(text: str) -> tuple[int, ...] | None:
    """Arms written as letters, any order (``sen`` is ``nes``); ``None`` if unreadable."""
    if not text or any(ch not in "nesw" for ch in text) or len(set(text)) != len(text):
        return None
    return tuple(sorted("nesw".index(ch) for ch in text))


def die_token(kind: int, value: int) -> str:
    """How a die is named in moves: its face and its type, e.g. ``tee3``, ``horse2``."""
    return f"{face_name(value)}{kind}"


def roll(rng: Rng, count: int) -> tuple[tuple[int, ...], Rng]:
    """``count`` fresh face values."""
    values = []
    for _ in range(count):
        v, rng = rng.below(6)
        values.append(v + 1)
    return tuple(values), rng


def horse_reach(kind: int) -> int:
    """The longest horse line of a die type, in half squares (RULINGS §1.8)."""
    return 2 * kind
