"""Every game's looks: its board as a PNG ready to attach to a Discord message, the same
board in words, and a seat's colour.

Renderers depend only on the engine's view types and Pillow, so the bot can call them
without them knowing anything about Discord. ``LOOKS`` holds each game's
:class:`~renders.looks.Looks`, one object per game key; a test checks every game has one.
The words modules (:mod:`renders.text`) read the pictures' captions, so a game's picture
and words are put together here rather than in either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renders import bridge_wars, bridges_and_boats, seven_bridges, seven_cities, skybridge
from renders import text as words
from renders.looks import Looks

LOOKS: dict[str, Looks] = {
    "skybridge": Looks(
        skybridge.render, words.skybridge.describe, skybridge.accent, skybridge.warm
    ),
    "bridges-and-boats": Looks(
        bridges_and_boats.render,
        words.bridges_and_boats.describe,
        bridges_and_boats.accent,
        bridges_and_boats.warm,
    ),
    "bridge-wars": Looks(
        bridge_wars.render, words.bridge_wars.describe, bridge_wars.accent, bridge_wars.warm
    ),
    "seven-bridges": Looks(
        seven_bridges.render,
        words.seven_bridges.describe,
        seven_bridges.accent,
        seven_bridges.warm,
        describe_own=words.seven_bridges.describe_own,
    ),
    "seven-cities": Looks(
        seven_cities.render, words.seven_cities.describe, seven_cities.accent, seven_cities.warm
    ),
}


def looks(game_key: str) -> Looks | None:
    """``game_key``'s looks, or None for a game that has none yet (a game's rules may land
    before its pictures, as a test's stand-in game does)."""
    return LOOKS.get(game_key)


def render(game_key: str, view: Any, names: Sequence[str]) -> bytes:
    """The PNG for ``view`` of the game ``game_key``; ``names[seat]`` labels each seat.

    Raises ``KeyError`` naming the known games if ``game_key`` has no looks.
    """
    try:
        drawn = LOOKS[game_key]
    except KeyError:
        known = ", ".join(sorted(LOOKS))
        raise KeyError(f"no renderer for {game_key!r}; known: {known}") from None
    return drawn.draw(view, names)
