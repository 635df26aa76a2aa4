"""Bridges and Boats (Thomas Gale, 2003–2007): the rules as the Game contract.

The attacker (seat 0) buys dominoes to build one bridge and boats and sends coins
across the river as soldiers; the defender (seat 1) buys dominoes for planes that bomb
the bridge and cannons that sink boats, and keeps coins as victory points. The game
ends the moment the last domino leaves the pool. The rulebook text plus RULINGS §5 is
the spec; [P] rulings are Bridgekeeper's reconstruction and say so in the help.

Each step of a turn is one or more small actions (see ``actions``); their order is the
rulebook's step order, and a refusal names the step that comes first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.bridges_and_boats import bombing
from engine.bridges_and_boats.actions import (
    ACTIONS,
    Action,
    Advance,
    Board,
    Bomb,
    Build,
    Buy,
    End,
    Enter,
    Fire,
    Fly,
    Keep,
    Launch,
    Reroll,
    Resign,
    format_action,
    parse,
)
from engine.bridges_and_boats.board import SECTIONS, SPACES, advance, movable, next_gap
from engine.bridges_and_boats.dominoes import DOUBLE_SIX, PRICE, Domino, sortie_cost
from engine.bridges_and_boats.state import (
    ADVANCE,
    ATTACKER,
    BOARD,
    BUILD,
    BUY,
    DECLARE,
    DEFENDER,
    ENTER,
    FIRE,
    INCOME,
    LAUNCH,
    ROLES,
    RUN,
    STAGE_NAMES,
    TURN_CAP,
    Boat,
    State,
    from_dict,
    to_dict,
)
from engine.bridges_and_boats.view import View, fire_due, make_view
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

#: who builds what; the other actions of each side are listed below
_ROLE_OF_BUILD = {"bridge": ATTACKER, "boat": ATTACKER, "plane": DEFENDER, "cannon": DEFENDER}
_ATTACKER_ONLY = (Advance, Enter, Board, Launch)
_DEFENDER_ONLY = (Fire, Fly, Bomb)

HELP = (
    "**Bridges and Boats** — 2 players: attacker (seat 1, moves first) against defender.\n"
    "Each turn, in order: take 3 coins; `buy` dominoes (2 coins, secret to you); build with "
    "them; deploy; `end`.\n"
    "• Attacker: `bridge d2` builds the next bridge section (face down, from your bank "
    "outwards; 6 sections, 12 spaces); `boat d2` a face-down boat. Then `advance N` moves N "
    "soldiers one space, front first (off space 12 = crossed); `enter` turns a coin into a "
    "soldier on space 1 (one a turn); `board b1` a coin into a soldier in boat b1 (2 a boat; "
    "the boat turns face up); `launch b1` sends a loaded boat to the far bank.\n"
    "• Defender: `plane d2` (face up) or `cannon d2` (face down). Then `fire` (cannons at "
    "arrived boats: a die matching an end sinks it), `fly 3-5` for each plane in today's run "
    "(1 coin; ghost 0-0 free, ace 0-1 2 coins), `bomb`. A plane hits if 2d6 = its pips, "
    "deadly if the dice are its ends (kills soldiers next door too); 2d6 again picks the "
    "section (2→1, 3-4→2, 5-6→3, 7-8→4, 9-10→5, 11-12→6). Ace always hits; ghost gives one "
    "`reroll <die>` (or `keep`).\n"
    "Boats not sunk unload at the start of the attacker's next turn.\n"
    "**End:** the moment the last domino is bought. Attacker wins if soldiers crossed > the "
    "defender's coins; equal is a tie.\n"
    "*Bridgekeeper's reconstruction [P]:* the order within step 4 (advance, enter, board, "
    "launch; defender: fire, then planes); boats unload before income; a hit on an empty "
    "section does nothing; the ghost's re-roll is offered only when it could change the "
    "roll; the game stops after 100 turns. Full rules: "
    "docs/rules/bridges-and-boats.md."
)


def _soldiers(n: int) -> str:
    return f"{n} soldier" + ("" if n == 1 else "s")


def _coins(n: int) -> str:
    return f"{n} coin" + ("" if n == 1 else "s")


def _boat(state: State, number: int) -> Boat | None:
    return next((b for b in state.boats if b.number == number), None)


def _order_refusal(state: State, stage: int) -> str | None:
    """The rulebook's step order: nothing goes back to an earlier (sub-)step."""
    if state.stage <= stage:
        return None
    names = STAGE_NAMES[state.turn]
    return (
        f"Step order: {names[stage]} comes before {names[state.stage]}, "
        "and you have already moved on to that this turn."
    )


def _slot_refusal(state: State, seat: int, slot: int) -> str | None:
    hand = state.hands[seat]
    if not hand:
        return "Your reserve is empty: `buy` a domino first (step 2)."
    if not 0 <= slot < len(hand):
        return f"You have no domino d{slot + 1}: your reserve holds d1 to d{len(hand)}."
    return None


def _declared_cost(state: State) -> int:
    return sum(sortie_cost(p) for p in state.declared)


def _refusal(state: State, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take ``action`` now, or ``None`` if it may. The game is running
    and it is ``seat``'s turn."""
    run = state.run
    if run is not None:
        if isinstance(action, Keep):
            return None
        if isinstance(action, Reroll):
            if action.value in run.dice:
                return None
            a, b = run.dice
            return f"No die shows {action.value}: the dice show {a} and {b}."
        return (
            "The bombing run waits for your dice: re-roll one die with the ghost pilot "
            "(`reroll <number>`) or `keep` them."
        )
    if isinstance(action, Reroll | Keep):
        return "No roll is waiting for the ghost pilot's re-roll."
    if isinstance(action, Build):
        role = _ROLE_OF_BUILD.get(action.kind)
        if role is None:
            return "You can build a bridge section, a boat, a plane or a cannon."
        if role != seat:
            return (
                "Only the attacker builds bridges and boats."
                if role == ATTACKER
                else "Only the defender builds planes and cannons."
            )
    if isinstance(action, _ATTACKER_ONLY) and seat != ATTACKER:
        return "Only the attacker moves soldiers and boats; you bomb and fire."
    if isinstance(action, _DEFENDER_ONLY) and seat != DEFENDER:
        return "Only the defender fires cannons and flies planes."
    match action:
        case Buy():
            return _order_refusal(state, BUY) or _buy_refusal(state, seat)
        case Build(kind, slot):
            refusal = _order_refusal(state, BUILD) or _slot_refusal(state, seat, slot)
            if refusal is None and kind == "bridge" and next_gap(state.bridge) is None:
                return "Your bridge is complete: all six sections stand."
            return refusal
        case Advance(count):
            return _advance_refusal(state, count)
        case Enter():
            return _enter_refusal(state)
        case Board(number):
            return _board_refusal(state, number)
        case Launch(number):
            return _launch_refusal(state, number)
        case Fire():
            return _fire_refusal(state)
        case Fly(plane):
            return _fly_refusal(state, plane)
        case Bomb():
            return _bomb_refusal(state)
        case End():
            if fire_due(state):
                return "Your cannons fire by themselves before the turn can end: play `fire`."
            return None
    return "That is not a Bridges and Boats move."


def _buy_refusal(state: State, seat: int) -> str | None:
    if state.coins[seat] < PRICE:
        return f"A domino costs {_coins(PRICE)} and you have {_coins(state.coins[seat])}."
    return None


def _advance_refusal(state: State, count: int) -> str | None:
    if "advance" in state.done:
        return "You have already advanced this turn: a soldier moves one space a turn."
    refusal = _order_refusal(state, ADVANCE)
    if refusal:
        return refusal
    can = movable(state.bridge, state.spaces)
    if can == 0:
        return (
            "No soldier on the bridge can move: each needs a free space ahead "
            "on a section that stands."
        )
    if not 1 <= count <= can:
        return f"Advance 1 to {can} soldiers (front first): that many can move now."
    return None


def _enter_refusal(state: State) -> str | None:
    if "enter" in state.done:
        return "One soldier enters the bridge a turn: stepping onto space 1 is his move."
    refusal = _order_refusal(state, ENTER)
    if refusal:
        return refusal
    if state.bridge[0] is None:
        return "Section 1 of the bridge does not stand, so no soldier can step onto it."
    if state.spaces[0]:
        return "Space 1 is taken: only one soldier fits on a space."
    if state.coins[ATTACKER] < 1:
        return "A soldier is a coin, and you have none."
    return None


def _board_refusal(state: State, number: int) -> str | None:
    refusal = _order_refusal(state, BOARD)
    if refusal:
        return refusal
    boat = _boat(state, number)
    if boat is None or boat.launched:
        return f"There is no boat b{number} on your bank."
    if boat.soldiers >= 2:
        return f"Boat b{number} is full: a boat holds two soldiers."
    if state.coins[ATTACKER] < 1:
        return "A soldier is a coin, and you have none."
    return None


def _launch_refusal(state: State, number: int) -> str | None:
    refusal = _order_refusal(state, LAUNCH)
    if refusal:
        return refusal
    boat = _boat(state, number)
    if boat is None or boat.launched:
        return f"There is no boat b{number} on your bank."
    if boat.soldiers == 0:
        return f"Boat b{number} is empty, and boats may not go forth empty: `board b{number}`."
    return None


def _fire_refusal(state: State) -> str | None:
    if "fire" in state.done:
        return "Your cannons have already fired this turn."
    refusal = _order_refusal(state, FIRE)
    if refusal:
        return refusal
    if not state.cannons:
        return "You have no cannon: build one with `cannon d1`."
    if not any(b.launched for b in state.boats):
        return "No boat has reached your bank, so the cannons have nothing to fire at."
    return None


def _run_refusal(state: State) -> str | None:
    """What stops any bombing-run action: the run has flown, or the cannons fire first."""
    if "bomb" in state.done:
        return "Today's bombing run has flown: each plane flies once a turn."
    if fire_due(state):
        return "Cannons fire first in step 4: play `fire`, then declare the bombing run."
    return _order_refusal(state, DECLARE)


def _fly_refusal(state: State, plane: Domino) -> str | None:
    refusal = _run_refusal(state)
    if refusal:
        return refusal
    if plane not in state.planes:
        return f"You have no plane {plane} at your air base."
    if plane in state.declared:
        return f"Plane {plane} is already in today's run."
    cost = sortie_cost(plane)
    left = state.coins[DEFENDER] - _declared_cost(state)
    if cost > left:
        return (
            f"Plane {plane} costs {_coins(cost)} to send, and after the planes declared "
            f"so far you have {_coins(left)} left."
        )
    return None


def _bomb_refusal(state: State) -> str | None:
    refusal = _run_refusal(state)
    if refusal:
        return refusal
    if not state.declared:
        return "Declare the planes first (`fly 3-5` for each), then `bomb`."
    if all(p.is_ghost for p in state.declared):
        return "The ghost pilot never bombs: declare at least one other plane."
    return None


def _take(hand: tuple[Domino, ...], slot: int) -> tuple[Domino, tuple[Domino, ...]]:
    return hand[slot], hand[:slot] + hand[slot + 1 :]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


class BridgesAndBoats(Game[State, Action]):
    info = GameInfo(
        key="bridges-and-boats",
        name="Bridges and Boats",
        min_players=2,
        max_players=2,
        summary=(
            "Attacker against defender: build a bridge and boats from secret dominoes to get "
            "soldiers across a river, or bomb and sink them and hoard coins."
        ),
        help=HELP,
        hidden_information=True,
    )

    # -- setting up ---------------------------------------------------------------------

    def seat_label(self, state: State, seat: int) -> str:
        return "attacker" if seat == ATTACKER else "defender"

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        if players != 2:
            raise BadOptions(f"Bridges and Boats is for exactly 2 players, not {players}.")
        if options:
            raise BadOptions(
                f"Bridges and Boats has no options (got {', '.join(sorted(options))})."
            )
        pool, rng = Rng.from_seed(seed).shuffled(DOUBLE_SIX)
        return State(
            pool=pool,
            hands=((), ()),
            coins=(INCOME, 0),  # the attacker's first income, taken as the game starts
            bridge=(None,) * SECTIONS,
            bombed=frozenset(),
            spaces=(False,) * SPACES,
            crossed=0,
            boats=(),
            boats_built=0,
            planes=(),
            cannons=(),
            discard=(),
            turn=ATTACKER,
            stage=BUY,
            done=frozenset(),
            declared=(),
            run=None,
            dice=(),
            turns=0,
            over=None,
            resigned=None,
            last=None,
            rng=rng,
        )

    # -- what may be played -------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        if state.over is not None or seat != state.turn:
            return []
        if state.run is not None:
            return [*(Reroll(v) for v in sorted(set(state.run.dice))), Keep()]
        return [a for a in self._candidates(state, seat) if _refusal(state, seat, a) is None]

    def _candidates(self, state: State, seat: int) -> list[Action]:
        """Every action of the seat's role that could be legal, in the turn's order."""
        slots = range(len(state.hands[seat]))
        moves: list[Action] = [Buy()]
        if seat == ATTACKER:
            moves += [Build(kind, s) for kind in ("bridge", "boat") for s in slots]
            moves += [Advance(n) for n in range(1, movable(state.bridge, state.spaces) + 1)]
            moves.append(Enter())
            moves += [Board(b.number) for b in state.boats if not b.launched]
            moves += [Launch(b.number) for b in state.boats if not b.launched]
        else:
            moves += [Build(kind, s) for kind in ("plane", "cannon") for s in slots]
            moves.append(Fire())
            moves += [Fly(p) for p in state.planes]
            moves.append(Bomb())
        moves.append(End())
        return moves

    # -- playing ------------------------------------------------------------------------

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
        if state.over is not None:
            raise IllegalMove("The game is over.")
        if seat not in (ATTACKER, DEFENDER):
            raise IllegalMove("You are not playing in this game.")
        if not isinstance(action, ACTIONS):
            raise IllegalMove("That is not a Bridges and Boats move.")
        if isinstance(action, Resign):
            events = [
                Event("resign", f"{seat_ref(seat)} resigned; the {ROLES[1 - seat]} wins."),
            ]
            over = replace(state, over="resign", resigned=seat, run=None, last=(seat, "resign"))
            return over, events
        if seat != state.turn:
            raise IllegalMove(f"It is not your turn: it is {seat_ref(state.turn)}'s.")
        refusal = _refusal(state, seat, action)
        if refusal:
            raise IllegalMove(refusal)
        events: list[Event] = []
        state = self._effect(state, seat, action, events)
        return replace(state, last=(seat, self.format(action))), events

    def _effect(self, state: State, seat: int, action: Action, events: list[Event]) -> State:
        """Carry out a legal action."""
        match action:
            case Buy():
                return self._buy(state, seat, events)
            case Build():
                return self._build(state, seat, action, events)
            case Advance(count):
                return self._advance(state, count, events)
            case Enter():
                events.append(Event("enter", f"{seat_ref(seat)} sends a soldier onto space 1."))
                return replace(
                    state,
                    coins=_set(state.coins, ATTACKER, state.coins[ATTACKER] - 1),
                    spaces=_set(state.spaces, 0, True),
                    stage=ENTER,
                    done=state.done | {"enter"},
                )
            case Board(number):
                return self._board(state, number, events)
            case Launch(number):
                return self._launch(state, number, events)
            case Fire():
                events.append(Event("fire", f"{seat_ref(seat)}'s cannons fire at the boats."))
                fired = bombing.fire(state, events)
                return replace(fired, stage=DECLARE, done=fired.done | {"fire"})
            case Fly(plane):
                events.append(Event("fly", f"{seat_ref(seat)} puts plane {plane} in today's run."))
                return replace(state, declared=state.declared + (plane,), stage=DECLARE)
            case Bomb():
                return self._bomb(state, events)
            case Reroll(value):
                return bombing.reroll(state, value, events)
            case Keep():
                run = state.run
                assert run is not None
                return bombing.settle(state, run, events)
            case End():
                return self._end_turn(state, events)
        raise AssertionError(f"unhandled action {action!r}")

    def _buy(self, state: State, seat: int, events: list[Event]) -> State:
        domino, pool = state.pool[0], state.pool[1:]
        hand = state.hands[seat] + (domino,)
        slot = f"d{len(hand)}"
        text = f"{seat_ref(seat)} bought a domino ({slot}); {len(pool)} left in the pool."
        events.append(Event("buy", text))
        events.append(Event("bought", f"You bought {domino} ({slot}).", seat=seat))
        state = replace(
            state,
            pool=pool,
            hands=_set(state.hands, seat, hand),
            coins=_set(state.coins, seat, state.coins[seat] - PRICE),
            stage=BUY,
        )
        if pool:
            return state
        events.append(Event("over", "That was the last domino of the pool: the game ends at once."))
        return replace(state, over="pool")

    def _build(self, state: State, seat: int, action: Build, events: list[Event]) -> State:
        domino, hand = _take(state.hands[seat], action.slot)
        state = replace(state, hands=_set(state.hands, seat, hand), stage=BUILD)
        who = seat_ref(seat)
        if action.kind == "bridge":
            section = next_gap(state.bridge)
            assert section is not None
            verb = "repaired" if section in state.bombed else "built"
            events.append(Event("bridge", f"{who} {verb} bridge section {section + 1}, face down."))
            return replace(
                state,
                bridge=_set(state.bridge, section, domino),
                bombed=state.bombed - {section},
            )
        if action.kind == "boat":
            number = state.boats_built + 1
            events.append(Event("boat", f"{who} built boat b{number}, face down on their bank."))
            return replace(state, boats=state.boats + (Boat(number, domino),), boats_built=number)
        if action.kind == "plane":
            kind = ""
            if domino.is_ghost:
                kind = ": the ghost pilot, who never bombs but lends one re-roll"
            elif domino.is_ace:
                kind = ": the ace, who always hits"
            events.append(Event("plane", f"{who} built plane {domino}{kind}."))
            return replace(state, planes=state.planes + (domino,))
        cannons = state.cannons + (domino,)
        events.append(Event("cannon", f"{who} built cannon {len(cannons)}, face down."))
        return replace(state, cannons=cannons)

    def _advance(self, state: State, count: int, events: list[Event]) -> State:
        spaces, moved, crossed = advance(state.bridge, state.spaces, count)
        text = f"{seat_ref(ATTACKER)} advances {_soldiers(moved)} one space"
        if crossed:
            text += f"; {_soldiers(crossed)} crossed the river ({state.crossed + crossed} in all)"
        events.append(Event("advance", text + "."))
        return replace(
            state,
            spaces=spaces,
            crossed=state.crossed + crossed,
            stage=ADVANCE,
            done=state.done | {"advance"},
        )

    def _board(self, state: State, number: int, events: list[Event]) -> State:
        boat = _boat(state, number)
        assert boat is not None
        loaded = replace(boat, soldiers=boat.soldiers + 1)
        if boat.soldiers == 0:
            text = f"A soldier boards boat b{number}, which turns face up: {boat.domino}."
        else:
            text = f"A second soldier boards boat b{number} ({boat.domino}); it is full."
        events.append(Event("board", text))
        return replace(
            state,
            boats=tuple(loaded if b == boat else b for b in state.boats),
            coins=_set(state.coins, ATTACKER, state.coins[ATTACKER] - 1),
            stage=BOARD,
        )

    def _launch(self, state: State, number: int, events: list[Event]) -> State:
        boat = _boat(state, number)
        assert boat is not None
        events.append(
            Event(
                "launch",
                f"Boat b{number} ({boat.domino}) launches with {_soldiers(boat.soldiers)} and "
                f"reaches {seat_ref(DEFENDER)}'s bank; it unloads next turn if no cannon sinks it.",
            )
        )
        launched = replace(boat, launched=True)
        return replace(
            state,
            boats=tuple(launched if b == boat else b for b in state.boats),
            stage=LAUNCH,
        )

    def _bomb(self, state: State, events: list[Event]) -> State:
        cost = _declared_cost(state)
        planes = ", ".join(str(p) for p in state.declared)
        text = f"{seat_ref(DEFENDER)} sends {planes} on the bombing run ({_coins(cost)})."
        events.append(Event("bomb", text))
        state = replace(
            state,
            coins=_set(state.coins, DEFENDER, state.coins[DEFENDER] - cost),
            stage=RUN,
            done=state.done | {"bomb"},
            dice=state.dice if "fire" in state.done else (),
        )
        return bombing.start_run(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> State:
        """Step 5, then the next turn's automatic start: unloading and income."""
        turns = state.turns + 1
        if turns >= TURN_CAP:
            events.append(
                Event(
                    "over",
                    f"{TURN_CAP} turns have been played: the game stops here and is scored "
                    "(Bridgekeeper's turn limit).",
                )
            )
            return replace(state, turns=turns, over="cap")
        nxt = 1 - state.turn
        state = replace(state, turn=nxt, stage=BUY, done=frozenset(), declared=(), turns=turns)
        if nxt == ATTACKER:
            state = self._unload(state, events)
        coins = state.coins[nxt] + INCOME
        events.append(
            Event("income", f"{seat_ref(nxt)} takes {INCOME} coins of income ({coins} in all).")
        )
        return replace(state, coins=_set(state.coins, nxt, coins))

    def _unload(self, state: State, events: list[Event]) -> State:
        """RULINGS §5.3: boats that survived the cannons unload before the attacker's income."""
        landed = [b for b in state.boats if b.launched]
        if not landed:
            return state
        soldiers = sum(b.soldiers for b in landed)
        crossed = state.crossed + soldiers
        names = ", ".join(f"b{b.number}" for b in landed)
        boats = f"Boat {names} unloads" if len(landed) == 1 else f"Boats {names} unload"
        events.append(
            Event(
                "unload",
                f"{boats} {_soldiers(soldiers)} on the far bank ({crossed} crossed in all).",
            )
        )
        return replace(
            state,
            boats=tuple(b for b in state.boats if not b.launched),
            discard=state.discard + tuple(b.domino for b in landed),
            crossed=crossed,
        )

    # -- notation -----------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    # -- looking ------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        places = self.result(state).places if state.over is not None else None
        return make_view(state, seat, places)

    def to_play(self, state: State) -> tuple[int, ...]:
        return () if state.over is not None else (state.turn,)

    def is_over(self, state: State) -> bool:
        return state.over is not None

    def result(self, state: State) -> Result:
        """The attacker wins if more soldiers crossed than the defender holds coins; equal
        is a tie. A seat that resigned loses."""
        crossed, coins = state.crossed, state.coins[DEFENDER]
        scores = (crossed, coins)
        tally = f"{_soldiers(crossed)} crossed against {_coins(coins)} held by the defender"
        if state.resigned is not None:
            places = (2, 1) if state.resigned == ATTACKER else (1, 2)
            return Result(scores, places, f"The {ROLES[state.resigned]} resigned.")
        if crossed > coins:
            return Result(scores, (1, 2), f"{tally}: the attacker wins.")
        if crossed < coins:
            return Result(scores, (2, 1), f"{tally}: the defender wins.")
        return Result(scores, (1, 1), f"{tally}: a tie.")

    def state_to_dict(self, state: State) -> dict[str, Any]:
        return to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        return from_dict(data)
