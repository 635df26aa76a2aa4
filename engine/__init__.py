"""Game rules, pure and deterministic. ``GAMES`` maps each game's key to its rules."""

from engine.bridge_wars import BridgeWars
from engine.bridges_and_boats import BridgesAndBoats
from engine.core import BadOptions, Event, Game, GameInfo, IllegalMove, Result, Rng
from engine.seven_bridges import SevenBridges
from engine.seven_cities import SevenCities
from engine.skybridge import Skybridge

GAMES: dict[str, Game] = {
    game.info.key: game
    for game in (Skybridge(), BridgesAndBoats(), BridgeWars(), SevenBridges(), SevenCities())
}


def get(key: str) -> Game:
    """The game registered under ``key``; raises ``KeyError`` with the known keys."""
    try:
        return GAMES[key]
    except KeyError:
        raise KeyError(f"no game {key!r}; known games: {', '.join(sorted(GAMES))}") from None


__all__ = [
    "GAMES",
    "BadOptions",
    "Event",
    "Game",
    "GameInfo",
    "IllegalMove",
    "Result",
    "Rng",
    "get",
]
