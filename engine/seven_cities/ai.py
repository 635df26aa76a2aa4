"""Possible states behind a Seven Cities view, for the computer players (``engine.ai``).

A seat knows its own hand, how many cards every other seat holds, and the sizes of the
draw pile, the two discard piles and the past tile deck. Every card it does not hold is
dealt from the rest of the deck at random into those places, and the tile groups not yet
on the table are shuffled into the past deck: a fair guess at what it cannot see, and
nothing of what the true state holds. (The discard piles are face up, but a view shows
them as counts, so they are guessed like the rest.) The state gets a new generator, so
future shuffles are unknown too.

A reaction window comes back as far as the view shows it: the attack held in the air,
the seats still to answer and what they may answer. Who already answered with Defend
City, and windows queued behind the open one, are not in a view, so the sampled state
has none: the search may misjudge such an attack, never the seat's own legal answers.
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from dataclasses import replace

from engine.ai.hard import Search
from engine.ai.worlds import margin
from engine.core import Game, IllegalMove, Rng
from engine.seven_cities.actions import End
from engine.seven_cities.board import GROUPS
from engine.seven_cities.cards import deck_for, sort_hand
from engine.seven_cities.rules.play.metropolis import chances
from engine.seven_cities.state import METROPOLIS, TURN, State, Window
from engine.seven_cities.view import View

#: the search within a move's CPU budget (docs/ai.md): judging a turn as though it ended
#: plays its end, so each rollout is short
SEARCH = Search(iterations=60, depth=6, greed=2)


def determinize(view: View, seat: int, rng: Rng) -> State:
    unseen = Counter(deck_for(view.players))
    unseen.subtract(view.hand or ())
    if view.window is not None and view.window.card:
        unseen.subtract([view.window.card])  # the attack held in the air, in no pile
    cards, rng = rng.shuffled(sorted(unseen.elements()))
    hands = []
    for other, count in enumerate(view.hand_counts):
        if other == seat:
            hands.append(view.hand or ())
        else:
            hands.append(sort_hand(cards[:count]))
            cards = cards[count:]
    blue, cards = cards[: view.blue], cards[view.blue :]
    red, deck = cards[: view.red], cards[view.red :]
    laid = {p[0] for p in view.placements} | {view.expedition}
    past_deck, rng = rng.shuffled(sorted(set(GROUPS) - laid))
    state = State(
        players=view.players,
        clock=view.clock,
        clocks=view.clocks,
        first=view.first,
        turn=view.turn,
        stage=view.stage,
        round=view.round,
        placements=view.placements,
        past_deck=past_deck,
        deck=deck,
        blue=blue,
        red=red,
        hands=tuple(hands),
        positions=view.positions,
        cities=view.cities,
        shields=view.shields,
        walls=view.walls,
        railways=view.railways,
        ap=view.ap,
        land_builds=view.land_builds,
        expedition=view.expedition,
        windows=(),
        offered=frozenset(),
        resigned=view.resigned,
        over=view.reason,
        last=view.last,
        marks=view.marks,
        rng=rng,
    )
    state = replace(state, offered=chances(state))
    if view.window is None:
        return state
    w = view.window
    offers = tuple(sorted(o for o in state.offered if o[0] in w.waiting))
    window = Window(
        kind=w.kind,
        by=w.by,
        waiting=w.waiting,
        card=w.card,
        tile=w.tile,
        offers=offers if w.kind == METROPOLIS else (),
    )
    return replace(state, windows=(window,))


def evaluate(game: Game, state: State, seat: int) -> float:
    """The margin as though the seat ended its turn now. Moving along a railway costs
    nothing, and ending a turn can hand the rival something at once (the round's
    Timeshift), so judged as it stands, one more free move would always look better than
    ending and one greedy step would never end its turn."""
    if state.over is None and not state.windows and state.turn == seat and state.stage == TURN:
        with suppress(IllegalMove):
            state = game.apply(state, seat, End()).state
    return margin(game, state, seat)
