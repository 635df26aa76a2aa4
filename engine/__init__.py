"""Game rules, pure and deterministic. ``GAMES`` maps each game's key to its rules."""

from collections.abc import Iterable

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


def check_option_owners(game: Game, names: Iterable[str]) -> None:
    """Raise :class:`BadOptions` for an option of another game than ``game``, naming the
    game it belongs to: whoever picked the wrong game learns which one has it ("height is a
    Bridge Wars option; Skybridge has no options"). A name no game has is ``game.new``'s
    to refuse."""
    for name in sorted(str(n) for n in names):
        if game.info.option(name) is not None:
            continue
        owners = " and ".join(g.info.name for g in GAMES.values() if g.info.option(name))
        if owners:
            article = "an" if owners[0] in "AEIOU" else "a"
            raise BadOptions(
                f"{name} is {article} {owners} option; {game.info.name} "
                f"{game.info.options_in_words()}."
            )


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
    "check_option_owners",
    "get",
]
