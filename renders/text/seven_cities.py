"""Battle for Seven Cities in words: the round and the clock, the public piles, each
player's cities, shields, walls, railways and token, and an open reaction window.

Hands are hidden: only counts are told, except the viewer's own cards in that seat's
view. Nothing says who holds a reaction card: a window names every seat it waits for.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_cities.board import FUTURE, PAST, Tile
from engine.seven_cities.cards import BY_SLUG, clock_text
from engine.seven_cities.view import View
from renders.seven_cities import REACTIONS, STAGES
from renders.text.common import heading, lines, listing, ordinal, plural, scores

ERAS = {PAST: "past", FUTURE: "future"}


def _turn(view: View, names: Sequence[str], tile: dict[Tile, str]) -> str:
    if view.over:
        places = view.places
        assert places is not None
        order = sorted(range(view.players), key=lambda s: (places[s], s))
        ranks = ", ".join(f"{ordinal(places[s])} {names[s]}" for s in order)
        return f"Game over: {ranks}"
    if view.window is not None:
        w = view.window
        waiting = listing(names[s] for s in w.waiting)
        against = ""
        if w.tile is not None:
            against = f" ({names[w.by]}'s {w.card or REACTIONS[w.kind]} on {tile[w.tile]})"
        return f"Waiting for {waiting}: {REACTIONS[w.kind]} or pass{against}"
    line = f"{names[view.turn]} to play: {STAGES.get(view.stage, view.stage)}"
    if view.stage == "place":
        where = "; ".join(f"{q},{r}" for q, r in view.anchors)
        line += f" {view.expedition}; its cell a may go at: {where}"
    if view.stage == "turn":
        line += f", {view.ap} AP left"
    return line


def _card(slug: str) -> str:
    card = BY_SLUG[slug]
    return f"{card.points} Action Points" if card.plain else f"{card.name} ({card.points} AP)"


def _holdings(view: View, seat: int, names: Sequence[str], tile: dict[Tile, str]) -> str:
    """One player's table: token, cities by era, shields, cards held, tokens left."""
    cities: dict[int, list[str]] = {era: [] for era in ERAS}
    for city in view.cities:
        if city.owner == seat:
            metropolis = " (Metropolis)" if city.size > 1 else ""
            cities[city.tile[0]].append(tile[city.tile] + metropolis)
    parts = [f"{names[seat]}" + (" (resigned)" if seat in view.resigned else "")]
    position = view.positions[seat]
    parts.append(f"token on {tile[position]}" if position is not None else "token not placed")
    for era, name in ERAS.items():
        parts.append(f"{name} cities {listing(cities[era])}")
    shields = [tile[t] for t, s in view.shields if s == seat]
    if shields:
        parts.append(f"shields on {listing(shields)}")
    parts.append(f"{plural(view.hand_counts[seat], 'card')} in hand")
    parts.append(f"{view.supply[seat]} city tokens left")
    parts.append(f"clock card {clock_text(view.clocks[seat])}")
    return f"{parts[0]}: {'; '.join(parts[1:])}"


def describe(view: View, names: Sequence[str]) -> str:
    tile = {t.tile: t.name for t in view.tiles}
    last = "No move yet"
    if view.last is not None:
        last = f"Last move: {names[view.last[0]]} {view.last[1]}"
    round_ = "Round 0 (starting tiles)" if view.round == 0 else f"Round {view.round}"
    hand = None
    if view.hand is not None:
        hand = f"Your hand (only you see it): {listing((_card(c) for c in view.hand), 'no cards')}"
    return lines(
        heading("Battle for Seven Cities", view.seat, names),
        _turn(view, names, tile),
        scores(names, view.future_cities, label=f"Future cities, the score ({view.goal} win)"),
        last,
        f"{round_} of at most {view.round_cap}; the clock reads {clock_text(view.clock)}"
        + (f"; first player {names[view.first]}" if view.round else ""),
        f"Draw pile {view.deck}, blue discards {view.blue}, red discards {view.red}, "
        f"past tile groups left {view.past_deck}",
        hand,
        *(f"Wall between {listing(tile[t] for t in wall)}" for wall in view.walls),
        *(f"Railway through {listing(tile[t] for t in rail)}" for rail in view.railways),
        *(_holdings(view, s, names, tile) for s in range(view.players)),
    )
