"""Every action of a turn, and its one notation.

A turn is a few small actions, one per button press, in the rulebook's step order:
``buy``; ``bridge d2`` / ``boat d2`` / ``plane d2`` / ``cannon d2``; ``advance 3``,
``enter``, ``board b1``, ``launch b1``; ``fire``, ``fly 3-5``, ``bomb``; ``reroll 4`` /
``keep`` while the ghost pilot's re-roll waits; ``end``. Some options add their own:
``buy boat`` (declare-before-buying), ``plane c2`` / ``cannon 3-5`` (interchangeable),
``fly p2`` (secret pilots), ``fly 3-5 s4`` (match bombing).

A domino in a player's reserve is hidden from the other player, so actions name it
by its slot (``d2``: the second domino in the reserve, in the order bought), never by
its ends: the notation is posted publicly after every move. Planes are face up, so
``fly`` names them by their ends, unless secret pilots keeps them face down: then by their
place at the air base (``p2``). Boats are named by number (``b3``: the third built),
cannons too (``c2``), and bridge sections (``s4``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.bridges_and_boats.dominoes import Domino
from engine.core import IllegalMove

BUILDS = ("bridge", "boat", "plane", "cannon")


@dataclass(frozen=True)
class Buy:
    """Step 2: pay for the top domino of the pool; with declare-before-buying, ``use``
    names what it becomes (``bridge``, ``boat``, ``plane`` or ``cannon``) before anyone
    sees it."""

    use: str = ""


@dataclass(frozen=True)
class Build:
    """Step 3: put the reserve domino in ``slot`` (0-based) to use as ``kind``."""

    kind: str
    slot: int


@dataclass(frozen=True)
class Convert:
    """Step 3, planes and cannons interchangeable: ``piece`` becomes a ``kind``: a cannon
    (its number, from 1) a plane, or a plane (its domino, or its place from 1 while pilots
    are secret) a cannon."""

    kind: str
    piece: Domino | int


@dataclass(frozen=True)
class Advance:
    """Attacker step 4a: move ``count`` soldiers on the bridge one space, front first."""

    count: int


@dataclass(frozen=True)
class Enter:
    """Attacker step 4b: a coin becomes a soldier on space 1."""


@dataclass(frozen=True)
class Board:
    """Attacker step 4c: a coin becomes a soldier in boat number ``boat``."""

    boat: int


@dataclass(frozen=True)
class Launch:
    """Attacker step 4d: boat number ``boat`` crosses to the defender's bank."""

    boat: int


@dataclass(frozen=True)
class Fire:
    """Defender step 4: every cannon fires at the boats on the defender's bank."""


@dataclass(frozen=True)
class Fly:
    """Defender step 4: add ``plane`` to today's bombing run (nothing is rolled yet): its
    domino, or its place at the air base from 1 while pilots are secret; with match
    bombing, ``target`` is the section it aims at (from 1; 0: the ghost, who aims at none)."""

    plane: Domino | int
    target: int = 0


@dataclass(frozen=True)
class Bomb:
    """Defender step 4: the declared planes fly, pay, and are resolved one by one."""


@dataclass(frozen=True)
class Reroll:
    """Use the ghost pilot's re-roll on the die showing ``value``."""

    value: int


@dataclass(frozen=True)
class Keep:
    """Accept the dice just rolled, keeping the ghost's re-roll for later."""


@dataclass(frozen=True)
class End:
    """Step 5: declare the end of the turn."""


Action = (
    Buy
    | Build
    | Convert
    | Advance
    | Enter
    | Board
    | Launch
    | Fire
    | Fly
    | Bomb
    | Reroll
    | Keep
    | End
)

HOWTO = (
    "Moves: `buy`, `bridge d1`, `boat d1`, `plane d1`, `cannon d1`, `advance 2`, `enter`, "
    "`board b1`, `launch b1`, `fire`, `fly 3-5`, `bomb`, `reroll 4`, `keep`, `end`."
)
_BARE: dict[str, Action] = {
    "buy": Buy(),
    "enter": Enter(),
    "fire": Fire(),
    "bomb": Bomb(),
    "keep": Keep(),
    "end": End(),
    "end turn": End(),
}
_NUMBER = re.compile(r"[a-z]?(\d{1,2})")


def _number(token: str, letter: str, what: str) -> int:
    m = _NUMBER.fullmatch(token)
    if not m or (token[0].isalpha() and token[0] != letter):
        raise IllegalMove(f"'{token}' is not {what}, e.g. `{letter}1`. {HOWTO}")
    return int(m.group(1))


def parse(text: str) -> Action:
    """Read one action from what a player typed or a button carried; forgiving of case,
    spaces and short forms (`boat 2`, `fly 35`), strict about anything else."""
    clean = " ".join(text.lower().split())
    if clean in _BARE:
        return _BARE[clean]
    word, _, rest = clean.partition(" ")
    if not rest:
        if word == "advance":
            raise IllegalMove("Say how many soldiers advance, front first, e.g. `advance 3`.")
        if word in (*BUILDS, "board", "launch", "fly", "reroll"):
            raise IllegalMove(f"`{word}` needs one more word. {HOWTO}")
        raise _unreadable(text)
    if word == "buy":
        if rest not in BUILDS:
            uses = "`, `buy ".join(BUILDS)
            raise IllegalMove(f"`buy` names what the domino is for: `buy {uses}`.")
        return Buy(rest)
    if word in ("plane", "cannon") and (piece := _piece(word, rest)) is not None:
        return Convert(word, piece)
    if word in BUILDS:
        slot = _number(rest, "d", "a domino of your reserve")
        if slot < 1:
            raise IllegalMove("Reserve slots count from `d1`.")
        return Build(word, slot - 1)
    if word in ("board", "launch"):
        boat = _number(rest, "b", "a boat")
        return Board(boat) if word == "board" else Launch(boat)
    if word == "advance":
        if not rest.isdigit():
            raise IllegalMove("Say how many soldiers advance, front first, e.g. `advance 3`.")
        return Advance(int(rest))
    if word == "fly":
        return _fly(rest)
    if word == "reroll":
        if not (rest.isdigit() and 1 <= int(rest) <= 6):
            raise IllegalMove("Name the die to re-roll by the number it shows, e.g. `reroll 4`.")
        return Reroll(int(rest))
    raise _unreadable(text)


_PLACE = re.compile(r"p[1-9]\d?")
_SECTION = re.compile(r"s[1-6]")
_CANNON = re.compile(r"c([1-9]\d?)")
_ENDS = re.compile(r"\d\s*[-|/:]\s*\d")


def _piece(kind: str, token: str) -> Domino | int | None:
    """What turns into a ``kind``: for a plane, a cannon (``c2``); for a cannon, a plane by
    its ends (``3-5``, written with a dash: ``35`` is reserve slot d35) or its place
    (``p2``, secret pilots). None: a reserve slot, as in the rulebook's game."""
    if kind == "plane":
        m = _CANNON.fullmatch(token)
        return int(m.group(1)) if m else None
    if _PLACE.fullmatch(token):
        return int(token[1:])
    return Domino.parse(token) if _ENDS.fullmatch(token) else None


def _fly(rest: str) -> Fly:
    """``3-5`` (or ``35``, ``5 3``), ``p2`` (secret pilots), then ``s4`` (match bombing)."""
    name, target = rest, 0
    head, _, aim = rest.rpartition(" ")
    if head and _SECTION.fullmatch(aim):
        name, target = head, int(aim[1:])
    plane = int(name[1:]) if _PLACE.fullmatch(name) else Domino.parse(name)
    if plane is None:
        raise IllegalMove(
            f"'{rest[:20]}' is not a plane: name it by its ends, e.g. `fly 3-5` (`fly p2` "
            "with secret pilots; `fly 3-5 s4` with match bombing)."
        )
    return Fly(plane, target)


def _unreadable(text: str) -> IllegalMove:
    return IllegalMove(f"I can't read '{text.strip()[:40]}' as a Bridges and Boats move. {HOWTO}")


def format(action: Action) -> str:
    """The one canonical notation of ``action``: what the move log stores for good."""
    match action:
        case Buy(use) if use:
            return f"buy {use}"
        case Convert("plane", number):
            return f"plane c{number}"
        case Convert(kind, Domino() as plane):
            return f"{kind} {plane}"
        case Convert(kind, number):
            return f"{kind} p{number}"
        case Fly(plane, target):
            name = f"p{plane}" if isinstance(plane, int) else str(plane)
            return f"fly {name}" + (f" s{target}" if target else "")
        case Build(kind, slot):
            return f"{kind} d{slot + 1}"
        case Advance(count):
            return f"advance {count}"
        case Board(boat):
            return f"board b{boat}"
        case Launch(boat):
            return f"launch b{boat}"
        case Reroll(value):
            return f"reroll {value}"
    return next(text for text, bare in _BARE.items() if bare == action)
