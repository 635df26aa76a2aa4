"""Play a card for its special action (it costs no action points), one module per card.

What every card shares is here: the card must be in hand and the move written as the
card wants it; during a reaction window only the card that window asks for may be
played. Each card's module answers the rest for its card: ``refusal(state, seat,
play)`` and ``effect(state, seat, play)``, and ``targets(state, seat, card)`` when the
card names tiles or seats (one that names nothing is listed when its refusal allows
it). Defend City and Sands of Time are played only to answer their window, with the
card alone; Metropolis, which may also answer one, adds ``answers`` and ``answer``.
"""

from __future__ import annotations

from types import ModuleType

from engine.core import Event, Rule
from engine.seven_cities.actions import ARGUMENTS, Play, is_tile_name, played_as, tile_key
from engine.seven_cities.cards import BY_SLUG, name, not_held, sort_hand
from engine.seven_cities.rules.play import (
    army,
    atlantis,
    burn,
    defend,
    embassy,
    enemy,
    expedition,
    metropolis,
    railway,
    remote,
    sands,
    takeover,
)
from engine.seven_cities.state import STAGES, TURN, WINDOWS, State

#: the module holding each card's special action (Build Railway and Build Wall share one)
CARDS: dict[str, ModuleType] = {
    "expedition": expedition,
    "burn": burn,
    "takeover": takeover,
    "defend": defend,
    "remote": remote,
    "army": army,
    "atlantis": atlantis,
    "sands": sands,
    "metropolis": metropolis,
    "railway": railway,
    "wall": railway,
    "embassy": embassy,
    "enemy": enemy,
}


def _listed(state: State, seat: int, card: str) -> list[Play]:
    """Every way ``seat`` may play ``card`` for its special action on its own turn."""
    if BY_SLUG[card].reaction_only:
        return []
    if ARGUMENTS[card] == (0, 0, 0):
        return [Play(card)] if CARDS[card].refusal(state, seat, Play(card)) is None else []
    return CARDS[card].targets(state, seat, card)


def targets(state: State, seat: int) -> list[Play]:
    if state.windows:
        card = state.windows[0].kind
        if card not in state.hands[seat]:
            return []
        return [Play(card)] if BY_SLUG[card].reaction_only else CARDS[card].answers(state, seat)
    hand = sort_hand(set(state.hands[seat]))
    return [play for card in hand if card in CARDS for play in _listed(state, seat, card)]


def _unwritten(play: Play) -> str | None:
    """What the notation never produces, for a move built some other way."""
    card = play.card
    if card not in ARGUMENTS:
        return f"{name(card)} has no special action: play it with `ap {card}`."
    tiles, fewest, most = ARGUMENTS[card]
    if len(play.tiles) != tiles or not fewest <= len(play.seats) <= most:
        return f"{name(card)} is played as `{played_as(card)}`."
    if not all(is_tile_name(t) for t in play.tiles):
        return f"{name(card)} is played as `{played_as(card)}`, tiles named like `f7b`."
    canonical = tuple(sorted(set(play.tiles), key=tile_key)), tuple(sorted(set(play.seats)))
    if (play.tiles, play.seats) != canonical:
        return "Name each tile and each seat once, tiles and seats in order."
    return None


def refusal(state: State, seat: int, play: Play) -> str | None:
    """The cheap questions first (a card at all, the window's card, in your hand), as most
    refused plays are a card not held: then the shape of the rest of the move."""
    if play.card not in BY_SLUG:
        return f"'{play.card}' is not a card."
    if state.windows and play.card != state.windows[0].kind:
        return STAGES[state.windows[0].kind].prompt
    held = not_held(state.hands[seat], play.card)
    if held:
        return held
    wrong = _unwritten(play)
    if wrong:
        return wrong
    missing = [t for t in play.tiles if state.geo.tile_named(t) is None]
    if missing:
        return f"There is no tile {missing[0]} on the board."
    if any(not 0 <= s < state.players for s in play.seats):
        return f"There are {state.players} seats in this game."
    if BY_SLUG[play.card].reaction_only:
        if state.windows:
            return None
        return (
            f"{name(play.card)} is played only when a reaction window asks you; "
            f"or use `ap {play.card}`."
        )
    card = CARDS[play.card]
    return card.answer(state, seat, play) if state.windows else card.refusal(state, seat, play)


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    return CARDS[play.card].effect(state, seat, play)


RULE = Rule(Play, refusal, effect, targets, stages=frozenset({TURN} | WINDOWS))
