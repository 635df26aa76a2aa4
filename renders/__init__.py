"""Board pictures for every game, as PNG bytes ready to attach to a Discord message.

Renderers depend only on the engine's view types and Pillow, so the bot can call them
without them knowing anything about Discord; ``RENDERERS`` maps a game key to one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from renders import bridge_wars, bridges_and_boats, seven_bridges, seven_cities, skybridge

RENDERERS: dict[str, Callable[[Any, Sequence[str]], bytes]] = {
    "skybridge": skybridge.render,
    "bridges-and-boats": bridges_and_boats.render,
    "bridge-wars": bridge_wars.render,
    "seven-bridges": seven_bridges.render,
    "seven-cities": seven_cities.render,
}


def has_renderer(game_key: str) -> bool:
    """Whether ``game_key`` can be drawn yet (a game's rules may land before its pictures)."""
    return game_key in RENDERERS


def render(game_key: str, view: Any, names: Sequence[str]) -> bytes:
    """The PNG for ``view`` of the game ``game_key``; ``names[seat]`` labels each seat.

    Raises ``KeyError`` naming the known games if ``game_key`` has no renderer.
    """
    try:
        renderer = RENDERERS[game_key]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise KeyError(f"no renderer for {game_key!r}; known: {known}") from None
    return renderer(view, names)
