"""Battle for Seven Cities (prototype 13.2): time travellers, a past and a future board.

Time travellers build cities on a past and a future hex board with action cards; at
the end of each round the past copies onto the future. The rulebook plus RULINGS §4
is the spec; [P] rulings are Bridgekeeper's reconstruction and the help says so.

Reaction cards are answered out of turn, in stages that are reaction windows: Burn City
and Hostile Takeover wait for every other player (Defend City or ``pass``), a past build
waits for the owner of the future city it threatens (Sands of Time or ``pass``), and a
future city that newly has three neighbours waits for its owner (Metropolis or
``pass``). Every seat that *could* react is asked, holder or not, so that being asked
says nothing about a hand. engine/README.md says where each part lives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Game, GameInfo, Kit
from engine.seven_cities import actions, ai, flow, scoring, state, view
from engine.seven_cities.actions import Action
from engine.seven_cities.rules import RULES
from engine.seven_cities.state import CLOCK, State, clock_option

#: the /rules text, sent as one Discord message: under 2000 characters
HELP = (
    "**Battle for Seven Cities** — 2 to 6 time travellers. At the end of a round, once anyone "
    "has 7+ future cities, most future cities wins (Metropolis = 2; ties: most on water, "
    "then most cities [P]).\n"
    "Each round everyone draws 3. On your turn play cards for action points (`ap burn`, to the "
    "blue pile) or their action (`play …`, to red), then `end` and `discard` down to 2. Blue is "
    "reshuffled when the deck runs out; red never.\n"
    "• `move f7b` one step (pay its travel cost; railway 0; no entering a wall); `time` 1 AP to "
    "the other era; `build` where you stand (future soil 4, forest 6, mountain 2, light sea 6, "
    "deep sea 8, volcano 4; past soil 5, forest 7, mountain 3 [P]; no past sea). A future land "
    "build earns a card at the end of the turn. Out of tokens: `recall f7b`.\n"
    "• `play expedition` → `place q,r rN` → `found p7b`/`found none`; `play burn`; "
    "`play takeover f7b`; `play remote f7b`; `play atlantis`; `play army f7b`; "
    "`play railway f1a f1b f1c`/`play wall …`; `play embassy f7b seat2 [seat3]`; "
    "`play enemy f7b seat3`; `play metropolis f7b`.\n"
    "• Out of turn: after Burn City/Hostile Takeover every other player answers `play defend` or "
    "`pass`; after a past build, the owner of the future city above it answers `play sands` or "
    "`pass`; a future city that gets 3 neighbours: its owner answers `play metropolis f7b` or "
    "`pass`. All who could react are asked, card or not; silence at the deadline is a pass.\n"
    "• Round end: past cities copy onto their future tiles (not onto shields; an empty past "
    "tile erases nothing); the Time-Shift card passes counter-clockwise.\n"
    "*Our reconstruction [P]:* past costs, tile groups and layout, card counts, clock times "
    "(option `clock`, HH:MM), token footprints, Metropolis windows, "
    "discards to blue, 25-round limit. Full rules: docs/rules/seven-cities.md."
)


class SevenCities(Game[State, Action]):
    info = GameInfo(
        key="seven-cities",
        name="Battle for Seven Cities",
        min_players=2,
        max_players=6,
        summary=(
            "Time travellers race to found seven cities in the future, building in the past "
            "too, since every past city copies forward at the end of the round."
        ),
        help=HELP,
        options=(CLOCK,),
        hidden_information=True,
    )
    rules = RULES
    kit = Kit(actions, state, flow, scoring, view, ai)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return state.new(players, clock_option(options), seed)

    def is_over(self, state: State) -> bool:
        return state.over is not None
