"""Every move and its one notation, general to specific so the picker can walk it.

Tiles are named as on the picture: ``f7b`` is the future tile in cell b of group 7,
``p7b`` its past twin. Seats are ``seat2`` (1-based, as the status panel numbers them).
Cards are named by short names (``burn``); a card's name appears in a move only when
the card is played, when it is public anyway. The moves:

``start f7b`` · ``ap burn`` (play a card for its action points) · ``move f7b`` (one
step) · ``time`` (to the other era) · ``build`` · ``play <card> [tiles] [seats]`` (a
card's special action) · ``place 3,-1 r2`` (Expedition's tile group: anchor and
rotation) · ``found p7b`` / ``found none`` · ``recall f7b`` · ``discard burn`` ·
``pass`` · ``end`` (and ``resign``, which the core reads for every game).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import IllegalMove
from engine.seven_cities.cards import BY_SLUG, CARDS


@dataclass(frozen=True)
class Start:
    """Choose a starting future tile (before round 1, in player order)."""

    tile: str


@dataclass(frozen=True)
class Points:
    """Play a card for its action points: it goes face up on the blue pile."""

    card: str


@dataclass(frozen=True)
class Move:
    """Travel one step to a neighbouring tile of the same era."""

    tile: str


@dataclass(frozen=True)
class Time:
    """Travel to the matching tile of the other era (1 action point)."""


@dataclass(frozen=True)
class Build:
    """Build a city on the tile your token is on, paying its build cost."""


@dataclass(frozen=True)
class Play:
    """A card's special action: it goes face up on the red pile."""

    card: str
    tiles: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()  # 0-based


@dataclass(frozen=True)
class Place:
    """Lay the drawn past tile group: cell a at ``(q, r)``, turned ``rotation`` sixths."""

    q: int
    r: int
    rotation: int


@dataclass(frozen=True)
class Found:
    """Expedition's free city on the new group (``None``: no city)."""

    tile: str | None


@dataclass(frozen=True)
class Recall:
    """Out of city tokens: destroy your own city at ``tile`` to take its token back."""

    tile: str


@dataclass(frozen=True)
class Discard:
    """Discard a card at the end of your turn, down to two."""

    card: str


@dataclass(frozen=True)
class Pass:
    """Decline to react while a reaction window is open."""


@dataclass(frozen=True)
class End:
    """End your turn."""


Action = Start | Points | Move | Time | Build | Play | Place | Found | Recall | Discard | Pass | End

#: what each special action names: (tiles, fewest seats, most seats)
ARGUMENTS: dict[str, tuple[int, int, int]] = {
    "expedition": (0, 0, 0),
    "burn": (0, 0, 0),
    "takeover": (1, 0, 0),
    "defend": (0, 0, 0),
    "remote": (1, 0, 0),
    "army": (1, 0, 0),
    "atlantis": (0, 0, 0),
    "sands": (0, 0, 0),
    "metropolis": (1, 0, 0),
    "railway": (3, 0, 0),
    "wall": (3, 0, 0),
    "embassy": (1, 1, 2),
    "enemy": (1, 1, 1),
}

HOWTO = (
    "Moves: `start f7b`, `ap <card>`, `move f7b`, `time`, `build`, `play <card> …`, "
    "`place 3,-1 r2`, `found p7b`, `recall f7b`, `discard <card>`, `pass`, `end`."
)
_BARE: dict[str, Action] = {"time": Time(), "build": Build(), "pass": Pass(), "end": End()}
_TILE = re.compile(r"([pf])(1[01]|[1-9])([a-d])")
_SEAT = re.compile(r"seat([1-6])")
_ANCHOR = re.compile(r"(-?\d{1,2}),(-?\d{1,2})")
_ROTATION = re.compile(r"r([0-5])")
_CARD_LIST = ", ".join(c.slug for c in CARDS)


def tile_key(name: str) -> tuple[str, int, str]:
    """Sort key for tile names: era, then group, then cell (``f2a`` before ``f10a``)."""
    m = _TILE.fullmatch(name)
    assert m is not None
    return m.group(1), int(m.group(2)), m.group(3)


def _tile(token: str) -> str:
    if not _TILE.fullmatch(token):
        raise IllegalMove(
            f"'{token}' is not a tile: name it as on the picture, `p` (past) or `f` (future), "
            "group number and cell letter, e.g. `f7b`."
        )
    return token


def _card(token: str) -> str:
    if token not in BY_SLUG:
        raise IllegalMove(f"'{token}' is not a card. Cards: {_CARD_LIST}.")
    return token


def _play(words: list[str]) -> Play:
    card = _card(words[0])
    if card not in ARGUMENTS:
        raise IllegalMove(f"{BY_SLUG[card].name} has no special action: play it with `ap {card}`.")
    tiles_wanted, fewest, most = ARGUMENTS[card]
    rest = words[1:]
    tiles = tuple(sorted((_tile(t) for t in rest[:tiles_wanted]), key=tile_key))
    seat_words = rest[tiles_wanted:]
    seats = []
    for word in seat_words:
        m = _SEAT.fullmatch(word)
        if not m:
            raise IllegalMove(f"'{word}' is not a seat: name players as `seat2`.")
        seats.append(int(m.group(1)) - 1)
    if len(tiles) != tiles_wanted or not fewest <= len(seats) <= most:
        raise IllegalMove(f"{BY_SLUG[card].name} is played as `{played_as(card)}`.")
    if len(set(tiles)) != len(tiles) or len(set(seats)) != len(seats):
        raise IllegalMove("Name each tile and each seat once.")
    return Play(card, tiles, tuple(sorted(seats)))


def played_as(card: str) -> str:
    """How a card's special action is written, e.g. `play embassy f7b [seat2]`."""
    tiles, fewest, most = ARGUMENTS[card]
    words = ["play", card] + ["f7b"] * tiles + ["seat2", "seat3"][:most]
    if most > fewest:
        words[-1] = f"[{words[-1]}]"
    return " ".join(words)


def parse(text: str) -> Action:
    clean = " ".join(text.lower().split())
    if clean in _BARE:
        return _BARE[clean]
    word, *rest = clean.split(" ") if clean else [""]
    if word in _BARE:
        where = " (you build where your token stands)" if word == "build" else ""
        raise IllegalMove(f"`{word}` takes nothing after it{where}.")
    if word in ("start", "move", "recall") and len(rest) == 1:
        tile = _tile(rest[0])
        return Start(tile) if word == "start" else Move(tile) if word == "move" else Recall(tile)
    if word in ("ap", "discard") and len(rest) == 1:
        card = _card(rest[0])
        return Points(card) if word == "ap" else Discard(card)
    if word == "play" and rest:
        return _play(rest)
    if word == "found" and len(rest) == 1:
        return Found(None if rest[0] == "none" else _tile(rest[0]))
    if word == "place" and len(rest) == 2:
        anchor, rotation = _ANCHOR.fullmatch(rest[0]), _ROTATION.fullmatch(rest[1])
        if not anchor or not rotation:
            raise IllegalMove(
                "Place a tile group as `place q,r rN`: cell a's place, N from 0 to 5."
            )
        return Place(int(anchor.group(1)), int(anchor.group(2)), int(rotation.group(1)))
    raise IllegalMove(f"I can't read '{text.strip()[:40]}' as a Seven Cities move. {HOWTO}")


def is_tile_name(text: str) -> bool:
    """Whether ``text`` is written like a tile (``f7b``), on the board or not."""
    return _TILE.fullmatch(text) is not None


def format(action: Action) -> str:
    """The one canonical notation of ``action``, as ``parse`` reads it back."""
    match action:
        case Start(tile):
            return f"start {tile}"
        case Points(card):
            return f"ap {card}"
        case Move(tile):
            return f"move {tile}"
        case Play(card, tiles, seats):
            return " ".join(["play", card, *tiles, *(f"seat{s + 1}" for s in seats)])
        case Place(q, r, rotation):
            return f"place {q},{r} r{rotation}"
        case Found(tile):
            return f"found {tile or 'none'}"
        case Recall(tile):
            return f"recall {tile}"
        case Discard(card):
            return f"discard {card}"
    return next(text for text, bare in _BARE.items() if bare == action)
