"""Why a move is refused: one sentence naming the rule and the place.

Only asked once a move is known not to be legal, so it may take its time; it never
names a card in another seat's hand.
"""

from __future__ import annotations

from engine.seven_cities.actions import (
    Action,
    Build,
    Discard,
    End,
    Found,
    Move,
    Pass,
    Place,
    Play,
    Points,
    Recall,
    Start,
    Time,
)
from engine.seven_cities.board import LIGHT, PAST, PLAIN_LAND, build_cost
from engine.seven_cities.cards import BY_SLUG, name
from engine.seven_cities.moves import specials
from engine.seven_cities.rules import cities_at, entry_cost, geometry, shielded, supply
from engine.seven_cities.state import DISCARD, FOUND, PLACE, SHIELDS_EACH, START, State

_STAGE_HINT = {
    START: "Choose your starting future tile first (`start f7b`).",
    PLACE: "Lay the Expedition's tile group first (`place q,r rN`).",
    FOUND: "Say where Expedition's free city goes first (`found p7b` or `found none`).",
    DISCARD: "Discard down to 2 cards first (`discard <card>`).",
}


def refusal(state: State, seat: int, action: Action) -> str:
    if state.windows:
        window = state.windows[0]
        if window.kind == "metropolis":
            return "Answer the Metropolis chance first: `play metropolis <tile>` or `pass`."
        card = "Defend City" if window.kind == "defend" else "Sands of Time"
        if isinstance(action, Play) and action.card == window.kind:
            return f"You hold no {card} card."
        return f"A reaction window is open: answer with {card} or `pass`."
    if isinstance(action, Pass):
        return "There is nothing to react to: `pass` answers a reaction window."
    expected = {START: Start, PLACE: Place, FOUND: Found, DISCARD: Discard}.get(state.stage)
    if expected is not None and not isinstance(action, expected):
        return _STAGE_HINT[state.stage]
    geo = geometry(state)
    pos = state.positions[seat]
    hand = state.hands[seat]
    tile_named = getattr(action, "tile", None)
    named = geo.tile_named(tile_named) if isinstance(tile_named, str) else None
    if isinstance(tile_named, str) and named is None:
        return f"There is no tile {tile_named} on the board."
    match action:
        case Start():
            return "Start on a future tile (its name begins with `f`)."
        case Place(q, r, rotation):
            return (
                f"Tile group {state.expedition} cannot lie at {q},{r} r{rotation}: it must "
                "overlap no tile and touch your place in the past."
            )
        case Found():
            if supply(state, seat) == 0:
                return "You have no city token left: `found none`."
            return (
                f"Expedition's free city goes on an empty past soil, forest or mountain tile "
                f"of group {state.expedition}."
            )
        case Discard(card) | Points(card):
            return f"You hold no {name(card)} card."
        case Move():
            assert pos is not None and named is not None
            if named not in geo.neighbours(pos):
                return f"{tile_named} is not next to {geo.name(pos)}: travel one tile at a time."
            cost = entry_cost(state, named)
            if cost is None:
                return f"A wall stands on {tile_named}: only time travel or Embassy gets you in."
            return f"Entering {tile_named} costs {cost} AP and you have {state.ap}."
        case Time():
            return "Time travel costs 1 AP and you have none: play a card for its points (`ap`)."
        case Build():
            assert pos is not None
            cost = build_cost(pos[0], geo.terrain(pos))
            if pos in cities_at(state):
                return f"{geo.name(pos)} already has a city."
            if cost is None:
                return f"Nobody builds on past {geo.terrain(pos)} ({geo.name(pos)}) with AP."
            if supply(state, seat) == 0:
                return "You have no city token left: `recall` one of your cities first."
            return f"Building on {geo.name(pos)} costs {cost} AP and you have {state.ap}."
        case Recall():
            if supply(state, seat) > 0:
                return "You may destroy your own city for its token only when you have none left."
            return f"{tile_named} does not hold an unshielded city of yours."
        case End():
            return "You cannot end your turn now."
        case Play(card):
            return _play_refusal(state, seat, action, hand)
    return "That move is not possible now."


def _play_refusal(state: State, seat: int, action: Play, hand: tuple[str, ...]) -> str:
    card = action.card
    title = name(card)
    if card not in hand:
        return f"You hold no {title} card."
    if BY_SLUG[card].reaction_only:
        return f"{title} is played only when a reaction window asks you; or use `ap {card}`."
    here = cities_at(state)
    options = specials(state, seat, card, here)
    pos = state.positions[seat]
    assert pos is not None
    if not options:
        why = {
            "expedition": "the past tile deck is empty or no group fits next to your place",
            "burn": "your token must stand on an unshielded rival city on soil, forest or mountain",
            "takeover": "it needs an unshielded rival city next to one of yours, and a city token",
            "remote": "your token must be in the future, next to an empty tile, with a token left",
            "atlantis": "your token must be on an empty past light sea tile, with a token left",
            "army": f"all shields are out, or {SHIELDS_EACH} of them are yours, or no city is bare",
            "metropolis": "it needs your future city with at least 3 neighbouring cities",
            "embassy": "it needs a city of yours to send the others to",
            "enemy": "it needs an unshielded rival city and a third player with a token",
        }.get(card, "it has no legal target now")
        return f"{title} cannot be played now: {why}."
    if card in ("railway", "wall"):
        return (
            f"{title} covers 3 connected tiles of one era, none under the "
            f"{'wall' if card == 'railway' else 'railways'}."
        )
    geo = geometry(state)
    target = geo.tile_named(action.tiles[0]) if action.tiles else None
    if card == "takeover" and target is not None:
        if target in shielded(state):
            return f"A shield protects {action.tiles[0]}."
        return f"{action.tiles[0]} is not a rival city next to one of your cities."
    if card == "remote":
        return "Remote Construction builds on an empty future tile next to your token."
    if card == "metropolis":
        return "Metropolis needs your future city with at least 3 neighbouring cities."
    if card == "enemy":
        return "The Enemy of my Enemy names an unshielded rival city and a third player."
    if card == "embassy":
        return "Embassy sends one or two other players to a tile with your city."
    if card == "atlantis" and (pos[0] != PAST or geo.terrain(pos) != LIGHT):
        return "Build Atlantis needs your token on a past light sea tile."
    if card == "burn" and geo.terrain(pos) not in PLAIN_LAND:
        return "Burn City works on soil, forest or mountain only."
    return f"{title} cannot be played like that: try `play {card}` from the move list."
