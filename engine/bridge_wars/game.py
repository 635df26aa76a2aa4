"""Bridge Wars as a :class:`engine.core.Game`: turns, the end of the game, notation, views.

The rulebook's text plus RULINGS §2 is the spec. A game starts with setup: from a
seat drawn at random, each player in seat order takes a colour and claims a corner,
whose 15 rods go in with the player's 2 x 2 starter on them. The seat that chose first
plays first, then play goes left (seat order). On a turn a player drops one block onto
the rods (see :mod:`engine.bridge_wars.rules`). A block that reaches the top of the
rods, or a player's last block, gives every other player one more turn; a player who
cannot place a block ends the game at once. Each rod scores for the colour of its
highest block: 1 per acrylic rod, 5 for the brass one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.bridge_wars.blocks import COUNTS, NAMES, ORIENTATIONS, PLAYABLE
from engine.bridge_wars.board import (
    CORNER_NAMES,
    CORNERS,
    HOLES,
    name,
    names,
    parse_hole,
)
from engine.bridge_wars.rules import (
    COLOURS,
    Action,
    Choose,
    Place,
    Placed,
    Resign,
    State,
    active,
    can_place,
    choices,
    choose_refusal,
    holds_brass,
    in_setup,
    next_active,
    place_refusal,
    placements,
    put,
    rods,
    scores,
    starter,
    top_layer_rods,
)
from engine.core import (
    TURN,
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

DEFAULT_HEIGHT = 12
MIN_HEIGHT, MAX_HEIGHT = 4, 16
_HOWTO = (
    "Write a move as block, orientation and reference hole, e.g. `I3 h f6` or `L4 ne c5`; "
    "at setup, colour and corner, e.g. `red ne`."
)
_ENDINGS = {
    "top": "a block reached the top of the rods",
    "last": "a player put in their last block",
    "stuck": "a player could not put a block into play",
    "resign": "too few players are left",
}


@dataclass(frozen=True)
class View:
    """Everything a player sees; Bridge Wars has no hidden information."""

    players: int
    seat: int | None
    height: int
    colours: tuple[int, ...]  # per seat, -1 until chosen
    corners: tuple[str, ...]  # per seat, "" until chosen
    rods: tuple[bool, ...]  # per hole
    placed: tuple[Placed, ...]  # bottom-up in the order played
    tops: tuple[int, ...]  # per hole: level of its highest block, 0 for none
    owner: tuple[int, ...]  # per hole: colour of its highest block, -1 for none
    stock: tuple[tuple[int, ...], ...]  # per seat, counted like blocks.NAMES
    scores: tuple[int, ...]
    turn: int
    setup: bool
    last: Placed | None
    final: tuple[int, ...] | None  # seats still owed their last turn, once the end is near
    ending: str  # a sentence on why the game ends or ended, or ""
    resigned: frozenset[int]
    over: bool
    places: tuple[int, ...] | None


def _height(options: Mapping[str, Any] | None) -> int:
    options = dict(options or {})
    unknown = sorted(set(options) - {"height"})
    if unknown:
        raise BadOptions(f"Bridge Wars has no option {', '.join(unknown)} (it has: height).")
    value = options.get("height", DEFAULT_HEIGHT)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOptions(f"height is a whole number of layers, not {value!r}.")
    if not MIN_HEIGHT <= value <= MAX_HEIGHT:
        raise BadOptions(
            f"height must be {MIN_HEIGHT} to {MAX_HEIGHT} layers (default {DEFAULT_HEIGHT}), "
            f"not {value}."
        )
    return value


def _colour(token: str) -> int | None:
    for i, colour in enumerate(COLOURS):
        if token in (colour, colour[0]):
            return i
    return None


def _corner(token: str) -> str | None:
    token = token.replace("-", "")
    for corner in CORNERS:
        if token in (corner, CORNER_NAMES[corner].replace("-", "")):
            return corner
    return None


class BridgeWars(Game[State, Action]):
    info = GameInfo(
        key="bridge-wars",
        name="Bridge Wars",
        min_players=2,
        max_players=4,
        summary="Drop blocks down rods, bridge over rivals, own the tops of the most rods.",
        help=(
            "**Bridge Wars** — 2 to 4 players. An 11×11 board: a diamond of 60 rods with the "
            "brass rod in the middle (f6), and a 15-hole corner for each player.\n"
            "**Setup:** from a seat drawn at random, in seat order, each player takes a colour "
            "and a corner (`red ne`); the corner's rods go in with your 2×2 starter on them. "
            "Whoever chose first plays first.\n"
            "**Turn:** put one block into play; it drops down its rods as far as it goes.\n"
            "• It must rest on your own colour, and on nothing else — but it may *bridge* "
            "over anything, leaving a gap.\n"
            "• Every hole of it on a rod, and no higher than the rods (12 layers).\n"
            "**End:** a block reaching the top, or someone's last block, gives everyone else "
            "one more turn; a player who cannot place ends the game at once.\n"
            "**Score:** every rod counts for the colour on top: 1 point, the brass rod 5.\n"
            "**Moves:** block, orientation, reference hole (the block's lowest hole, "
            "leftmost if tied): `I3 h f6`, `I4 v c4`, `L4 ne e3`, `T4 s g7`, `S4 zh d5`. "
            "Bars `h`/`v`; L3 arms `ne nw se sw`; L4 long arm then foot (`ne`, `en`, ...); "
            "T4 nose `n e s w`; S4 `sh sv zh zv`.\n"
            "*Bridgekeeper's reconstruction [P]:* the block set (O4 starter, I2×3, I3×3, "
            "I4×3, I5×2, L3×2, L4×2, T4×2, S4×2), one-layer blocks, rods 12 layers high "
            "(option `height`, 4–16), the starter in the outermost 2×2, ties to the brass "
            "rod, then most rods held at the top layer. Full rules: docs/rules/bridge-wars.md."
        ),
        options={"height": "rod height in layers, 4 to 16 (default 12) [P]"},
    )

    # -- making and moving ----------------------------------------------------------------

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        if not self.info.min_players <= players <= self.info.max_players:
            raise BadOptions(f"Bridge Wars is for 2 to 4 players, not {players}.")
        height = _height(options)
        first, rng = Rng.from_seed(seed).below(players)
        return State(
            players=players,
            height=height,
            colours=(-1,) * players,
            corners=("",) * players,
            placed=(),
            tops=(0,) * HOLES,
            owner=(-1,) * HOLES,
            stock=(COUNTS,) * players,
            turn=first,
            first=first,
            final=None,
            ending="",
            resigned=frozenset(),
            rng=rng,
        )

    def legal(self, state: State, seat: int) -> list[Action]:
        if state.turn != seat:
            return []
        if in_setup(state):
            return list(choices(state))
        return list(placements(state, seat))

    # -- until this game follows engine/README.md's kit (issue #18) ----------------------
    rules = ()

    def awaited(self, state: State) -> dict[int, Stage]:
        return dict.fromkeys(self.to_play(state), TURN)

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
        if state.turn < 0:
            raise IllegalMove("The game is over.")
        if not 0 <= seat < state.players:
            raise IllegalMove("You are not playing in this game.")
        if isinstance(action, Resign):
            return self._resign(state, seat)
        if not isinstance(action, Choose | Place):
            raise IllegalMove("That is not a Bridge Wars move.")
        if seat != state.turn:
            raise IllegalMove(f"It is not your turn: it is {seat_ref(state.turn)}'s.")
        if in_setup(state):
            if not isinstance(action, Choose):
                raise IllegalMove("First choose your colour and corner, e.g. `red ne`.")
            reason = choose_refusal(state, action)
            if reason:
                raise IllegalMove(reason)
            return self._choose(state, seat, action, [])
        if not isinstance(action, Place):
            raise IllegalMove("Colours and corners are chosen: now put a block into play.")
        landing = place_refusal(state, seat, action)
        if isinstance(landing, str):
            raise IllegalMove(landing)
        placed, block = put(state, seat, action)
        text = f"{seat_ref(seat)} put {self.format(action)} into play at level {block.level}"
        if landing.bridged:
            under = {state.owner[c] for c in landing.bridged if state.owner[c] >= 0}
            over = " and ".join(COLOURS[c] for c in sorted(under)) or "empty rods"
            text += f", bridging over {over} at {names(landing.bridged)}"
        events = [Event("place", text + ".")]
        return self._after_place(placed, seat, block, events)

    def _choose(
        self, state: State, seat: int, action: Choose, events: list[Event]
    ) -> tuple[State, list[Event]]:
        colours = list(state.colours)
        corners = list(state.corners)
        colours[seat], corners[seat] = action.colour, action.corner
        chosen = replace(state, colours=tuple(colours), corners=tuple(corners))
        chosen, block = put(chosen, seat, starter(action.corner))
        events.append(
            Event(
                "choose",
                f"{seat_ref(seat)} takes {COLOURS[action.colour]} and the "
                f"{CORNER_NAMES[action.corner]} corner; the starter goes on "
                f"{names(block.cells)}.",
            )
        )
        nxt = self._next_chooser(chosen, seat)
        if nxt is not None:
            chosen = replace(chosen, turn=nxt)
            forced = choices(chosen)
            if len(forced) == 1:  # the last player's colour and corner are all that is left
                return self._choose(chosen, nxt, forced[0], events)
            return chosen, events
        return self._start(chosen, events)

    def _next_chooser(self, state: State, seat: int) -> int | None:
        """The next seat after ``seat``, in seat order, still to choose; ``None`` if none."""
        for step in range(1, state.players):
            candidate = (seat + step) % state.players
            if state.colours[candidate] < 0 and candidate not in state.resigned:
                return candidate
        return None

    def _start(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Setup is over: the first to choose (still playing) plays first."""
        first = next_active(state, state.first, inclusive=True)
        assert first is not None
        events.append(Event("start", f"Setup done: {seat_ref(first)} plays first."))
        return self._hand_to(replace(state, turn=first), first, events)

    def _after_place(
        self, state: State, seat: int, block: Placed, events: list[Event]
    ) -> tuple[State, list[Event]]:
        """Pass the turn on, starting or running down the last round."""
        final = state.final
        ending = state.ending
        if final is not None:
            final = tuple(s for s in final if s != seat)
        else:
            trigger = ""
            if block.level == state.height:
                trigger, ending = f"reached the top of the rods ({block.level})", "top"
            elif not any(state.stock[seat]):
                trigger, ending = "put in their last block", "last"
            if trigger:
                final = self._round_after(state, seat)
                events.append(
                    Event(
                        "last-round",
                        f"{seat_ref(seat)} {trigger}: everyone else gets one more turn.",
                    )
                )
        state = replace(state, final=final, ending=ending)
        if final is not None:
            if not final:
                return self._end(state, ending, events)
            return self._hand_to(state, final[0], events)
        nxt = next_active(state, seat)
        assert nxt is not None
        return self._hand_to(state, nxt, events)

    def _round_after(self, state: State, seat: int) -> tuple[int, ...]:
        """Every other seat still playing, in turn order from ``seat``'s left."""
        return tuple(
            (seat + step) % state.players
            for step in range(1, state.players)
            if (seat + step) % state.players not in state.resigned
        )

    def _hand_to(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        """Give ``seat`` the turn; if it cannot put a block into play, the game ends now."""
        state = replace(state, turn=seat)
        if can_place(state, seat):
            return state, events
        events.append(
            Event("stuck", f"{seat_ref(seat)} cannot put any block into play: the game ends.")
        )
        return self._end(state, "stuck", events)

    def _end(self, state: State, ending: str, events: list[Event]) -> tuple[State, list[Event]]:
        over = replace(state, turn=-1, ending=ending)
        result = self.result(over)
        winners = " and ".join(seat_ref(s) for s in result.winners)
        verb = "wins" if len(result.winners) == 1 else "tie"
        return over, [*events, Event("end", f"Game over: {winners} {verb}.")]

    def _resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        if seat in state.resigned:
            raise IllegalMove("You have already resigned.")
        final = None if state.final is None else tuple(s for s in state.final if s != seat)
        resigned = replace(state, resigned=state.resigned | {seat}, final=final)
        events = [Event("resign", f"{seat_ref(seat)} resigned.")]
        if len(active(resigned)) < 2:
            return self._end(resigned, "resign", events)
        if state.turn != seat:
            return resigned, events
        if in_setup(state):
            nxt = self._next_chooser(resigned, seat)
            if nxt is not None:
                return replace(resigned, turn=nxt), events
            return self._start(resigned, events)
        if final is not None:
            if not final:
                return self._end(resigned, resigned.ending, events)
            return self._hand_to(resigned, final[0], events)
        nxt = next_active(resigned, seat)
        assert nxt is not None
        return self._hand_to(resigned, nxt, events)

    # -- notation -------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        tokens = text.lower().split()
        if tokens == ["resign"]:
            return Resign()
        shown = text.strip()[:40]
        if len(tokens) == 2 and _colour(tokens[0]) is not None:
            corner = _corner(tokens[1])
            if corner is None:
                raise IllegalMove(
                    f"'{tokens[1]}' is not a corner: choose ne, nw, se or sw, e.g. `red ne`."
                )
            colour = _colour(tokens[0])
            assert colour is not None
            return Choose(colour, corner)
        if len(tokens) != 3:
            raise IllegalMove(f"I can't read '{shown}' as a Bridge Wars move. {_HOWTO}")
        block = tokens[0].upper()
        if block not in NAMES:
            raise IllegalMove(
                f"'{tokens[0]}' is not a block: blocks are {', '.join(PLAYABLE)}. {_HOWTO}"
            )
        if tokens[1] not in ORIENTATIONS[block]:
            raise IllegalMove(
                f"'{tokens[1]}' is not an orientation of {block}: use "
                f"{', '.join(ORIENTATIONS[block])}."
            )
        anchor = parse_hole(tokens[2])
        if anchor is None:
            raise IllegalMove(f"'{tokens[2]}' is not a hole: columns a–k, rows 1–11, e.g. `f6`.")
        return Place(block, tokens[1], anchor)

    def format(self, action: Action) -> str:
        if isinstance(action, Resign):
            return "resign"
        if isinstance(action, Choose):
            return f"{COLOURS[action.colour]} {action.corner}"
        return f"{action.block} {action.orient} {name(action.anchor)}"

    # -- looking at a game ----------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        over = self.is_over(state)
        mask = rods(state)
        ending = _ENDINGS.get(state.ending, "")
        return View(
            players=state.players,
            seat=seat,
            height=state.height,
            colours=state.colours,
            corners=state.corners,
            rods=tuple(bool(mask >> c & 1) for c in range(HOLES)),
            placed=state.placed,
            tops=state.tops,
            owner=state.owner,
            stock=state.stock,
            scores=scores(state),
            turn=state.turn,
            setup=in_setup(state),
            last=state.placed[-1] if state.placed else None,
            final=state.final,
            ending=ending,
            resigned=state.resigned,
            over=over,
            places=self.result(state).places if over else None,
        )

    def to_play(self, state: State) -> tuple[int, ...]:
        return () if state.turn < 0 else (state.turn,)

    def is_over(self, state: State) -> bool:
        return state.turn < 0

    def result(self, state: State) -> Result:
        """Most points wins; [P] ties go to the brass rod's holder, then to most rods held
        at the top layer, then are shared. A resigned seat finishes behind the others."""
        points = scores(state)
        keys = [
            (
                seat not in state.resigned,
                points[seat],
                holds_brass(state, seat),
                top_layer_rods(state, seat),
            )
            for seat in range(state.players)
        ]
        places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
        broken = any(
            keys[a][:2] == keys[b][:2] and keys[a] != keys[b]
            for a in range(state.players)
            for b in range(a)
        )
        detail = (
            "Ties on points broken by the brass rod, then by rods held at the top layer."
            if broken
            else ""
        )
        return Result(scores=points, places=places, detail=detail)

    # -- storage --------------------------------------------------------------------------

    def state_to_dict(self, state: State) -> dict[str, Any]:
        """Blocks in play are stored as their moves in order; levels follow from them."""
        return {
            "players": state.players,
            "height": state.height,
            "colours": list(state.colours),
            "corners": list(state.corners),
            "placed": [[b.seat, f"{b.block} {b.orient} {name(b.anchor)}"] for b in state.placed],
            "stock": [list(s) for s in state.stock],
            "turn": state.turn,
            "first": state.first,
            "final": None if state.final is None else list(state.final),
            "ending": state.ending,
            "resigned": sorted(state.resigned),
            "rng": state.rng.state,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        state = State(
            players=data["players"],
            height=data["height"],
            colours=tuple(data["colours"]),
            corners=tuple(data["corners"]),
            placed=(),
            tops=(0,) * HOLES,
            owner=(-1,) * HOLES,
            stock=tuple(tuple(s) for s in data["stock"]),
            turn=data["turn"],
            first=data["first"],
            final=None if data["final"] is None else tuple(data["final"]),
            ending=data["ending"],
            resigned=frozenset(data["resigned"]),
            rng=Rng(data["rng"]),
        )
        stock = state.stock
        for seat, text in data["placed"]:
            block, orient, where = text.split()
            anchor = parse_hole(where)
            assert anchor is not None
            state, _ = put(state, seat, Place(block, orient, anchor))
        return replace(state, stock=stock)
