"""Battle for Seven Cities (prototype 13.2): the rules as the Game contract.

Time travellers build cities on a past and a future hex board with action cards; at
the end of each round the past copies onto the future. The rulebook plus RULINGS §4
is the spec; [P] rulings are Bridgekeeper's reconstruction and the help says so.

Reaction cards are answered out of turn: Burn City and Hostile Takeover wait for every
other player (Defend City or ``pass``), a past build waits for the owner of the future
city it threatens (Sands of Time or ``pass``), and a future city that newly has three
neighbours waits for its owner (Metropolis or ``pass``). Every seat that *could* react
is asked, holder or not, so that being asked says nothing about a hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import (
    BadOptions,
    Event,
    Game,
    GameInfo,
    IllegalMove,
    Result,
    Rng,
    Stage,
    Step,
    seat_ref,
)
from engine.seven_cities import moves
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
    Resign,
    Start,
    Time,
    format_action,
    parse,
)
from engine.seven_cities.board import (
    FUTURE,
    FUTURE_LAND,
    GROUPS,
    PAST,
    START_ANCHORS,
    Tile,
    board,
    build_cost,
)
from engine.seven_cities.cards import (
    BY_SLUG,
    CLOCKS,
    DIAL,
    deck_for,
    first_player,
    name,
    sort_hand,
)
from engine.seven_cities.help import HELP
from engine.seven_cities.refusals import refusal
from engine.seven_cities.rules import (
    active,
    all_cities,
    cities_at,
    entry_cost,
    future_cities,
    geometry,
    in_turn_order,
    metropolis_chances,
    shielded,
    supply,
    twin,
    water_cities,
)
from engine.seven_cities.state import (
    DISCARD,
    DRAW,
    FOUND,
    GOAL,
    HAND_LIMIT,
    PLACE,
    RAILWAYS,
    ROUND_CAP,
    START,
    TURN,
    WALLS,
    City,
    State,
    Window,
    from_dict,
    to_dict,
)
from engine.seven_cities.view import View, make_view

_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _clock_option(options: Mapping[str, Any]) -> int | None:
    """The ``clock=HH:MM`` option (the game's start time) in minutes on the 12-hour dial."""
    unknown = sorted(set(options) - {"clock"})
    if unknown:
        raise BadOptions(
            f"Battle for Seven Cities has one option, clock=HH:MM (got {', '.join(unknown)})."
        )
    if "clock" not in options:
        return None
    m = _CLOCK.fullmatch(str(options["clock"]).strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise BadOptions("clock is the time the game starts, as HH:MM, e.g. clock=19:05.")
    return (int(m.group(1)) * 60 + int(m.group(2))) % DIAL


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
        options={
            "clock": "HH:MM, the time the game starts: the clock cards pick the first player "
            "(the bot gives the time the game is opened, on the opener's clock; without "
            "one, a time drawn from the game's seed)"
        },
        hidden_information=True,
    )

    # -- setting up ---------------------------------------------------------------------

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        if not 2 <= players <= 6:
            raise BadOptions(f"Battle for Seven Cities is for 2 to 6 players, not {players}.")
        clock = _clock_option(options or {})
        rng = Rng.from_seed(seed)
        if clock is None:
            clock, rng = rng.below(DIAL)
        clocks, rng = rng.shuffled(CLOCKS)
        clocks = clocks[:players]
        groups, rng = rng.shuffled(sorted(GROUPS))
        deck, rng = rng.shuffled(deck_for(players))
        first = first_player(clocks, clock)
        return State(
            players=players,
            clock=clock,
            clocks=clocks,
            first=first,
            turn=first,
            stage=START,
            round=0,
            placements=tuple((g, *a, 0) for g, a in zip(groups, START_ANCHORS, strict=False)),
            past_deck=groups[len(START_ANCHORS) :],
            deck=deck,
            blue=(),
            red=(),
            hands=((),) * players,
            positions=(None,) * players,
            cities=(),
            shields=(),
            walls=(),
            railways=(),
            ap=0,
            land_builds=0,
            expedition=None,
            windows=(),
            offered=frozenset(),
            resigned=frozenset(),
            over=None,
            last=None,
            marks=(),
            rng=rng,
        )

    # -- what may be played -------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        return moves.legal(state, seat)

    def to_play(self, state: State) -> tuple[int, ...]:
        if state.over is not None:
            return ()
        if state.windows:
            return state.windows[0].waiting
        return (state.turn,)

    def reaction_open(self, state: State) -> bool:
        return state.over is None and bool(state.windows)

    # -- playing ------------------------------------------------------------------------

    # -- until this game follows engine/README.md's kit (issue #18) ----------------------
    rules = ()

    def awaited(self, state: State) -> dict[int, Stage]:
        stage = Stage("react", out_of_turn=True) if self.reaction_open(state) else Stage("turn")
        return dict.fromkeys(self.to_play(state), stage)

    def apply(self, state: State, seat: int, action: Action) -> Step[State, Action]:
        new, events = self._apply(state, seat, action)
        return self.step(action, new, events)

    def refusal(self, state: State, seat: int, action: Action) -> str | None:
        try:
            self._apply(state, seat, action)
        except IllegalMove as exc:
            return exc.reason
        return None

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.over is not None:
            raise IllegalMove("The game is over.")
        if not 0 <= seat < state.players or seat in state.resigned:
            raise IllegalMove("You are not playing in this game.")
        if isinstance(action, Resign):
            events: list[Event] = []
            new = self._resign(state, seat, events)
            return self._finish(new, seat, action, (), events)
        if seat not in self.to_play(state):
            waiting = ", ".join(seat_ref(s) for s in self.to_play(state))
            raise IllegalMove(f"It is not your turn: waiting for {waiting}.")
        if action not in moves.legal(state, seat):
            raise IllegalMove(self._refusal(state, seat, action))
        events = []
        new, marks = self._effect(state, seat, action, events)
        return self._finish(new, seat, action, marks, events)

    def _finish(
        self, state: State, seat: int, action: Action, marks: tuple[Tile, ...], events: list
    ) -> tuple[State, list[Event]]:
        state = replace(state, last=(seat, self.format(action)), marks=marks)
        if state.over is None:
            state = self._offer_metropolis(state, events)
        return state, events

    def _effect(
        self, state: State, seat: int, action: Action, events: list[Event]
    ) -> tuple[State, tuple[Tile, ...]]:
        """Carry out a legal action; also returns the tiles it touched, for the picture."""
        geo = geometry(state)
        who = seat_ref(seat)
        pos = state.positions[seat]
        match action:
            case Start(tile_name):
                tile = geo.tile_named(tile_name)
                assert tile is not None
                events.append(Event("start", f"{who} starts on {tile_name}."))
                state = replace(state, positions=_set(state.positions, seat, tile))
                return self._next_starter(state, events), (tile,)
            case Points(card):
                points = BY_SLUG[card].points
                events.append(Event("ap", f"{who} plays {name(card)} for {points} action points."))
                return replace(
                    state,
                    hands=_set(state.hands, seat, _without(state.hands[seat], card)),
                    blue=state.blue + (card,),
                    ap=state.ap + points,
                ), ()
            case Move(tile_name):
                tile = geo.tile_named(tile_name)
                assert tile is not None
                cost = entry_cost(state, tile)
                assert cost is not None
                events.append(Event("move", f"{who} travels to {tile_name} ({cost} AP)."))
                return replace(
                    state, positions=_set(state.positions, seat, tile), ap=state.ap - cost
                ), (tile,)
            case Time():
                assert pos is not None
                there = twin(pos)
                era = "future" if there[0] == FUTURE else "past"
                events.append(
                    Event("time", f"{who} travels to the {era}, to {geo.name(there)} (1 AP).")
                )
                return replace(
                    state, positions=_set(state.positions, seat, there), ap=state.ap - 1
                ), (there,)
            case Build():
                assert pos is not None
                cost = build_cost(pos[0], geo.terrain(pos))
                assert cost is not None
                events.append(
                    Event("build", f"{who} builds a city on {geo.name(pos)} ({cost} AP).")
                )
                state = replace(state, ap=state.ap - cost)
                return self._built(state, seat, pos, events, direct=True), (pos,)
            case Play(card, tiles, seats):
                state = replace(
                    state, hands=_set(state.hands, seat, _without(state.hands[seat], card))
                )
                targets = tuple(geo.tile_named(t) for t in tiles)
                return self._play(state, seat, card, targets, seats, events)  # type: ignore[arg-type]
            case Place(q, r, rotation):
                group = state.expedition
                assert group is not None
                state = replace(
                    state, placements=state.placements + ((group, q, r, rotation),), stage=FOUND
                )
                new_geo = board(state.placements)
                cells = tuple(
                    (PAST, c[0], c[1]) for c in new_geo.order if new_geo.cell_of[c][0] == group
                )
                assert pos is not None
                events.append(
                    Event(
                        "place",
                        f"{who} lays past tile group {group} next to {geo.name((PAST, *pos[1:]))}"
                        "; its future twin appears in the same place.",
                    )
                )
                return state, cells
            case Found(tile_name):
                state = replace(state, stage=TURN, expedition=None)
                if tile_name is None:
                    events.append(Event("found", f"{who} founds no city on the new tile group."))
                    return state, ()
                tile = geo.tile_named(tile_name)
                assert tile is not None
                events.append(Event("found", f"{who} founds a city on {tile_name} for free."))
                return self._built(state, seat, tile, events, direct=False), (tile,)
            case Recall(tile_name):
                tile = geo.tile_named(tile_name)
                assert tile is not None
                events.append(
                    Event(
                        "recall",
                        f"{who} is out of city tokens and destroys their city on {tile_name}.",
                    )
                )
                return replace(state, cities=tuple(c for c in state.cities if c.tile != tile)), (
                    tile,
                )
            case Discard(card):
                events.append(Event("discard", f"{who} discards {name(card)}."))
                state = replace(
                    state,
                    hands=_set(state.hands, seat, _without(state.hands[seat], card)),
                    blue=state.blue + (card,),
                )
                if len(state.hands[seat]) <= HAND_LIMIT:
                    state = self._next_turn(state, events)
                return state, ()
            case Pass():
                events.append(Event("pass", f"{who} does not react."))
                return self._answered(state, seat, events), ()
            case End():
                return self._end_turn(state, seat, events), ()
        raise AssertionError(f"unhandled action {action!r}")

    # -- cities -------------------------------------------------------------------------

    def _built(
        self, state: State, seat: int, tile: Tile, events: list[Event], direct: bool
    ) -> State:
        """``seat``'s new city on ``tile``. A direct build on future land earns a card at
        the end of the turn; a build in the past may be answered by Sands of Time."""
        state = self._place_city(state, tile, seat)
        if direct and tile[0] == FUTURE and geometry(state).terrain(tile) in FUTURE_LAND:
            state = replace(state, land_builds=state.land_builds + 1)
        if tile[0] == PAST:
            state = self._threaten(state, seat, tile, events)
        return state

    def _place_city(self, state: State, tile: Tile, owner: int, size: int = 1) -> State:
        others = tuple(c for c in state.cities if c.tile != tile)
        cities = tuple(sorted(others + (City(tile, owner, size),), key=lambda c: c.tile))
        return replace(state, cities=cities)

    def _threaten(self, state: State, seat: int, tile: Tile, events: list[Event]) -> State:
        """Sands of Time: the owner of the future city matching a new past city may answer."""
        future = cities_at(state).get(twin(tile))
        if future is None or future.owner == seat or future.owner in state.resigned:
            return state
        owner = future.owner
        events.append(
            Event(
                "window",
                f"{seat_ref(owner)} owns the future city on {geometry(state).name(twin(tile))}: "
                "they may answer with Sands of Time, or `pass`.",
            )
        )
        window = Window(kind="sands", by=seat, waiting=(owner,), tile=tile)
        return replace(state, windows=state.windows + (window,))

    # -- special actions ----------------------------------------------------------------

    def _play(
        self,
        state: State,
        seat: int,
        card: str,
        targets: tuple[Tile, ...],
        seats: tuple[int, ...],
        events: list[Event],
    ) -> tuple[State, tuple[Tile, ...]]:
        geo = geometry(state)
        who = seat_ref(seat)
        pos = state.positions[seat]
        assert pos is not None
        title = name(card)
        if card in ("defend", "sands"):
            return self._react(state, seat, card, events), ()
        if card in ("burn", "takeover"):
            target = pos if card == "burn" else targets[0]
            owner = cities_at(state)[target].owner
            waiting = in_turn_order(state, [s for s in active(state) if s != seat], seat)
            events.append(
                Event(
                    "window",
                    f"{who} plays {title} on {seat_ref(owner)}'s city on {geo.name(target)}. "
                    "Every other player may answer with Defend City, or `pass`.",
                )
            )
            window = Window(kind="defend", by=seat, waiting=waiting, card=card, tile=target)
            return replace(state, windows=state.windows + (window,)), (target,)
        state = replace(state, red=state.red + (card,))
        if card == "expedition":
            group, rest = state.past_deck[0], state.past_deck[1:]
            events.append(
                Event(
                    "expedition",
                    f"{who} plays Expedition and draws past tile group {group}: "
                    "lay it next to their place in the past (`place`).",
                )
            )
            return replace(state, past_deck=rest, expedition=group, stage=PLACE), ()
        if card in ("remote", "atlantis"):
            tile = targets[0] if card == "remote" else pos
            events.append(Event("play", f"{who} plays {title}: a city on {geo.name(tile)}."))
            return self._built(state, seat, tile, events, direct=True), (tile,)
        if card == "army":
            events.append(
                Event("play", f"{who} plays {title}: a shield on {geo.name(targets[0])}.")
            )
            return replace(state, shields=state.shields + ((targets[0], seat),)), targets
        if card == "metropolis":
            events.append(
                Event(
                    "play",
                    f"{who} plays {title}: their city on {geo.name(targets[0])} "
                    "becomes a Metropolis (2 cities).",
                )
            )
            state = self._place_city(state, targets[0], seat, size=2)
            if state.windows and seat in state.windows[0].waiting:  # played as a reaction
                state = self._answered(state, seat, events)
            return state, targets
        if card in ("railway", "wall"):
            placed = state.railways if card == "railway" else state.walls
            limit = RAILWAYS if card == "railway" else WALLS
            verb = "moves" if len(placed) == limit else "places"
            kept = placed[1:] if len(placed) == limit else placed
            names = ", ".join(geo.name(t) for t in targets)
            events.append(Event("play", f"{who} plays {title} and {verb} it onto {names}."))
            field = "railways" if card == "railway" else "walls"
            return replace(state, **{field: kept + (targets,)}), targets
        if card == "embassy":
            tile = targets[0]
            moved = " and ".join(seat_ref(s) for s in seats)
            events.append(Event("play", f"{who} plays {title}: {moved} move to {geo.name(tile)}."))
            positions = state.positions
            for s in seats:
                positions = _set(positions, s, tile)
            return replace(state, positions=positions), (tile,)
        if card == "enemy":
            tile, third = targets[0], seats[0]
            owner = cities_at(state)[tile].owner
            events.append(
                Event(
                    "play",
                    f"{who} plays {title}: {seat_ref(owner)}'s city on {geo.name(tile)} "
                    f"becomes {seat_ref(third)}'s.",
                )
            )
            return self._place_city(state, tile, third), (tile,)
        raise AssertionError(f"no special action for {card}")

    # -- reaction windows ---------------------------------------------------------------

    def _react(self, state: State, seat: int, card: str, events: list[Event]) -> State:
        window = state.windows[0]
        who = seat_ref(seat)
        if card == "defend":
            events.append(Event("react", f"{who} answers with Defend City."))
            window = replace(window, defenders=window.defenders + (seat,))
            # the card stays in hand until the window resolves: only the first defender uses it
            state = replace(
                state,
                hands=_set(state.hands, seat, sort_hand(state.hands[seat] + (card,))),
                windows=(window,) + state.windows[1:],
            )
            return self._answered(state, seat, events)
        tile = window.tile
        assert tile is not None
        events.append(
            Event(
                "react",
                f"{who} plays Sands of Time: {seat_ref(window.by)}'s new city on "
                f"{geometry(state).name(tile)} is removed.",
            )
        )
        state = replace(
            state,
            red=state.red + (card,),
            cities=tuple(c for c in state.cities if c.tile != tile),
        )
        return self._answered(state, seat, events)

    def _answered(self, state: State, seat: int, events: list[Event]) -> State:
        window = state.windows[0]
        window = replace(window, waiting=tuple(s for s in window.waiting if s != seat))
        if window.waiting:
            return replace(state, windows=(window,) + state.windows[1:])
        state = replace(state, windows=state.windows[1:])
        if window.kind == "defend":
            state = self._resolve_attack(state, window, events)
        return state

    def _resolve_attack(self, state: State, window: Window, events: list[Event]) -> State:
        """Burn City or Hostile Takeover once everyone answered: the first defender in turn
        order negates it (the attack card goes to blue, Defend City to red)."""
        attacker, card, tile = window.by, window.card, window.tile
        assert tile is not None
        geo = geometry(state)
        if window.defenders:
            winner = in_turn_order(state, list(window.defenders), attacker)[0]
            events.append(
                Event(
                    "defend",
                    f"{seat_ref(winner)}'s Defend City negates {name(card)}: the city on "
                    f"{geo.name(tile)} stands.",
                )
            )
            return replace(
                state,
                hands=_set(state.hands, winner, _without(state.hands[winner], "defend")),
                red=state.red + ("defend",),
                blue=state.blue + (card,),
            )
        state = replace(state, red=state.red + (card,))
        owner = cities_at(state)[tile].owner
        if card == "burn":
            events.append(
                Event(
                    "burn", f"Nobody defends: {seat_ref(owner)}'s city on {geo.name(tile)} burns."
                )
            )
            return replace(state, cities=tuple(c for c in state.cities if c.tile != tile))
        events.append(
            Event(
                "takeover",
                f"Nobody defends: {seat_ref(attacker)} takes over {seat_ref(owner)}'s city on "
                f"{geo.name(tile)}.",
            )
        )
        return self._built(state, attacker, tile, events, direct=False)

    def _offer_metropolis(self, state: State, events: list[Event]) -> State:
        """Open a window for every future city that has just become able to grow into a
        Metropolis, asking its owner (the seat to play may do it on its own turn)."""
        if state.windows:
            return state
        ready = metropolis_chances(state)
        new = sorted(
            (s, t)
            for s, t in ready - state.offered
            if not (s == state.turn and state.stage == TURN)
        )
        state = replace(state, offered=ready)
        if not new:
            return state
        geo = geometry(state)
        seats = in_turn_order(state, {s for s, _ in new}, state.turn)
        where = ", ".join(f"{seat_ref(s)} on {geo.name(t)}" for s, t in new)
        events.append(
            Event(
                "window",
                f"A future city now has three neighbours ({where}): its owner may answer with "
                "Metropolis, or `pass`.",
            )
        )
        window = Window(kind="metropolis", by=state.turn, waiting=seats, offers=tuple(new))
        return replace(state, windows=(window,))

    # -- turns and rounds ---------------------------------------------------------------

    def _next_starter(self, state: State, events: list[Event]) -> State:
        """Starting tiles are chosen in player order; then round 1 begins."""
        for seat in active(state):
            if state.positions[seat] is None:
                return replace(state, turn=seat)
        return self._begin_round(state, events)

    def _draw(self, state: State, seat: int, count: int, events: list[Event]) -> State:
        """``seat`` draws ``count`` cards, reshuffling the blue pile into an empty draw pile."""
        drawn: list[str] = []
        deck, blue, rng = state.deck, state.blue, state.rng
        for _ in range(count):
            if not deck and blue:
                deck, rng = rng.shuffled(blue)
                events.append(
                    Event(
                        "reshuffle",
                        f"The draw pile is empty: the blue discard pile ({_cards(len(blue))}) "
                        "is shuffled into a new one.",
                    )
                )
                blue = ()
            if not deck:
                break
            drawn.append(deck[0])
            deck = deck[1:]
        if len(drawn) < count:
            events.append(Event("empty", "Both the draw pile and the blue discard pile are empty."))
        hand = sort_hand(state.hands[seat] + tuple(drawn))
        if drawn:
            events.append(Event("draw", f"{seat_ref(seat)} draws {_cards(len(drawn))}."))
            listing = ", ".join(name(c) for c in drawn)
            events.append(Event("drew", f"You draw {listing}.", seat=seat))
        return replace(state, deck=deck, blue=blue, rng=rng, hands=_set(state.hands, seat, hand))

    def _begin_round(self, state: State, events: list[Event]) -> State:
        state = replace(state, round=state.round + 1)
        events.append(Event("round", f"Round {state.round} begins: everyone draws {DRAW} cards."))
        for seat in active(state):
            state = self._draw(state, seat, DRAW, events)
        # the first seat still playing opens the round (the holder may have resigned)
        return replace(state, turn=active(state)[0], stage=TURN, ap=0, land_builds=0)

    def _end_turn(self, state: State, seat: int, events: list[Event]) -> State:
        text = f"{seat_ref(seat)} ends their turn"
        if state.ap:
            text += f" ({state.ap} unused AP lost)"
        events.append(Event("end-turn", text + "."))
        if state.land_builds:
            state = self._draw(state, seat, state.land_builds, events)
        state = replace(state, ap=0, land_builds=0)
        if len(state.hands[seat]) > HAND_LIMIT:
            extra = len(state.hands[seat]) - HAND_LIMIT
            events.append(
                Event("discard-due", f"{seat_ref(seat)} must discard {_cards(extra)} (down to 2).")
            )
            return replace(state, stage=DISCARD)
        return self._next_turn(state, events)

    def _next_turn(self, state: State, events: list[Event]) -> State:
        order = [(state.first + i) % state.players for i in range(state.players)]
        later = order[order.index(state.turn) + 1 :]
        for seat in later:
            if seat not in state.resigned:
                return replace(state, turn=seat, stage=TURN, ap=0, land_builds=0)
        return self._end_round(state, events)

    def _end_round(self, state: State, events: list[Event]) -> State:
        state = self._timeshift(state, events)
        leaders = [s for s in active(state) if future_cities(state, s) >= GOAL]
        if leaders:
            names = ", ".join(seat_ref(s) for s in leaders)
            events.append(Event("over", f"{names} reached {GOAL} future cities: the game ends."))
            return replace(state, over="goal")
        if state.round >= ROUND_CAP:
            events.append(
                Event(
                    "over",
                    f"{ROUND_CAP} rounds have been played: the game stops here and is scored "
                    "(Bridgekeeper's round limit).",
                )
            )
            return replace(state, over="cap")
        n = state.players
        first = next(
            s for s in ((state.first - i) % n for i in range(1, n + 1)) if s not in state.resigned
        )
        events.append(Event("timeshift-card", f"The Time-Shift card passes to {seat_ref(first)}."))
        return self._begin_round(replace(state, first=first), events)

    def _timeshift(self, state: State, events: list[Event]) -> State:
        """Past cities copy onto their future twins, except onto shielded tiles; an empty
        past tile erases nothing; an owner with no token left is skipped (RULINGS §4.2)."""
        geo = geometry(state)
        guarded = shielded(state)
        copied, kept, short = [], [], []
        past = cities_at(state)
        for city in [past[t] for t in geo.tiles(PAST) if t in past]:
            there = twin(city.tile)
            future = cities_at(state).get(there)
            if future is not None and future.owner == city.owner:
                continue
            if there in guarded:
                kept.append(geo.name(there))
                continue
            if supply(state, city.owner) < 1:
                short.append(geo.name(there))
                continue
            state = self._place_city(state, there, city.owner)
            copied.append(geo.name(there))
        text = f"Timeshift: {len(copied)} past " + (
            "city copies" if len(copied) == 1 else "cities copy"
        )
        text += " forward" + (f" ({', '.join(copied)})" if copied else "")
        if kept:
            text += f"; shields keep {', '.join(kept)}"
        if short:
            text += f"; no token left for {', '.join(short)}"
        events.append(Event("timeshift", text + "."))
        return state

    def _resign(self, state: State, seat: int, events: list[Event]) -> State:
        events.append(Event("resign", f"{seat_ref(seat)} resigned."))
        state = replace(
            state,
            resigned=state.resigned | {seat},
            red=state.red + state.hands[seat],
            hands=_set(state.hands, seat, ()),
        )
        if len(active(state)) < 2:
            events.append(Event("over", "Only one player is left: the game ends."))
            return replace(state, over="resign", windows=())
        windows = state.windows
        state = replace(state, windows=())
        for window in windows:
            offers = tuple(o for o in window.offers if o[0] != seat)
            state = replace(state, windows=state.windows + (replace(window, offers=offers),))
        if state.windows and seat in state.windows[0].waiting:
            state = self._answered(state, seat, events)
        for i, window in enumerate(state.windows):
            if seat in window.waiting:  # a later window: it simply asks one seat fewer
                waiting = tuple(s for s in window.waiting if s != seat)
                state = replace(
                    state, windows=_set(state.windows, i, replace(window, waiting=waiting))
                )
        state = replace(state, windows=tuple(w for w in state.windows if w.waiting))
        if state.turn != seat:
            return state
        if state.stage == START:
            return self._next_starter(state, events)
        return self._next_turn(replace(state, expedition=None), events)

    # -- refusals -----------------------------------------------------------------------

    def _refusal(self, state: State, seat: int, action: Action) -> str:
        """Why a well-formed action is not among ``seat``'s legal moves now."""
        return refusal(state, seat, action)

    # -- notation -----------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    # -- looking ------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        places = self.result(state).places if state.over is not None else None
        return make_view(state, seat, self.to_play(state), places)

    def is_over(self, state: State) -> bool:
        return state.over is not None

    def result(self, state: State) -> Result:
        """Most future cities wins (a Metropolis is 2); ties: most future cities on water,
        then most cities in all [P], then shared. A seat that resigned ranks last."""

        def key(s: int) -> tuple[int, int, int, int]:
            out = int(s not in state.resigned)
            return (out, future_cities(state, s), water_cities(state, s), all_cities(state, s))

        keys = [key(s) for s in range(state.players)]
        places = tuple(1 + sum(k > keys[s] for k in keys) for s in range(state.players))
        scores = tuple(future_cities(state, s) for s in range(state.players))
        detail = "Score: future cities (a Metropolis counts 2)"
        winners = [s for s in range(state.players) if places[s] == 1]
        best = [s for s in range(state.players) if scores[s] == max(scores)]
        if len(best) > 1 and len(winners) < len(best):
            detail += "; tied on future cities, broken by future cities on water, then all cities"
        return Result(scores, places, detail + ".")

    def state_to_dict(self, state: State) -> dict[str, Any]:
        return to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        return from_dict(data)
