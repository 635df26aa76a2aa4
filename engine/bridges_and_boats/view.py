"""What a seat, or a spectator, may see of a game.

Face-down dominoes appear only as counts, except to the seat that owns them: its own
reserve, for the attacker the boats nobody has boarded yet, and for the defender its
planes while secret pilots keeps them face down (everyone else sees where they stand, by
their place at the air base, never their ends). Bridge sections and cannons are face down
for good and their ends never matter, so nobody's view holds them (with match bombing the
bridge lies face up, for everyone); the pool and the discard pile are counts for everyone.

``sample`` goes back: one state a seat's view could have come from, for the computer
players. The dominoes of a set are all different, so what a seat cannot see is exactly the
set it has not seen: those are shuffled and dealt into the hidden places at random — a fair
guess, and nothing of what the true state holds. The state gets the generator it is
given, so the dice to come are unknown too.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bridges_and_boats.board import SECTIONS
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.options import Rules
from engine.bridges_and_boats.planes import named
from engine.bridges_and_boats.scoring import result
from engine.bridges_and_boats.state import (
    ATTACKER,
    DEFENDER,
    STAGE_NAMES,
    TURN_CAP,
    Boat,
    Roll,
    Run,
    State,
)
from engine.bridges_and_boats.steps import fire_due
from engine.core import Rng, evolve


@dataclass(frozen=True)
class BoatView:
    number: int
    domino: Domino | None  # None: face down and not the viewer's
    soldiers: int
    launched: bool

    @property
    def face_up(self) -> bool:
        return self.soldiers > 0


@dataclass(frozen=True)
class Pending:
    """A roll waiting for the defender: re-roll one die with the ghost pilot, or keep.
    Planes are named by their place at the air base (``View.planes``, from 0)."""

    plane: int
    name: str  # how the plane is named in public: its ends, or p2 while its pilot is secret
    stage: str  # "hit" or "aim"
    dice: tuple[int, int]
    queue: tuple[int, ...] = ()  # planes still to fly after this one, in declared order
    reroll: bool = True  # the ghost pilot's re-roll is still unused
    deadly: bool = False  # for "aim": the strike is deadly
    aim: int = -1  # match bombing: the section this plane aims at
    aims: tuple[int, ...] = ()  # match bombing: the sections the queue's planes aim at


@dataclass(frozen=True)
class View:
    seat: int | None
    turn: int
    stage: str  # where the seat to play is in its turn, in words
    turns: int  # turns completed
    turn_cap: int
    pool: int
    discard: int
    coins: tuple[int, ...]
    hand: tuple[Domino, ...] | None  # the viewing seat's own reserve, in slot order
    hand_counts: tuple[int, ...]
    sections: tuple[str, ...]  # "built", "destroyed" or "missing", from the attacker's bank
    spaces: tuple[bool, ...]
    crossed: int
    boats: tuple[BoatView, ...]
    planes: tuple[Domino | None, ...]  # None: face down (secret pilots), not the viewer's
    planes_up: tuple[bool, ...]  # each plane lies face up (always, but for secret pilots)
    cannons: int
    declared: tuple[int, ...]  # the places of the planes declared for today's run
    aims: tuple[int, ...]  # match bombing: the section each declared plane aims at
    done: frozenset[str]  # once-a-turn steps this turn has taken: advance, enter, fire, bomb
    boats_built: int  # boats numbered so far (the next is b<boats_built + 1>)
    fire_due: bool  # the defender's cannons must fire before anything else in step 4
    pending: Pending | None
    dice: tuple[Roll, ...]
    last: tuple[int, str] | None
    over: bool
    reason: str | None
    scores: tuple[int, ...]  # soldiers crossed, coins the defender holds
    places: tuple[int, ...] | None
    rules: Rules  # the game's options, which everyone knows
    faces: tuple[Domino | None, ...]  # the bridge's dominoes where they lie face up (match bombing)


def section_status(state: State, section: int) -> str:
    """A section as everyone sees it: standing (face down), bombed out, or never built."""
    if state.bridge[section] is not None:
        return "built"
    return "destroyed" if section in state.bombed else "missing"


def view(state: State, seat: int | None) -> View:
    """What ``seat`` (or a spectator, ``None``) may see: the module docstring says what
    stays face down."""
    boats = tuple(
        BoatView(
            b.number,
            b.domino if b.soldiers or seat == ATTACKER else None,
            b.soldiers,
            b.launched,
        )
        for b in state.boats
    )
    up = tuple(not state.rules.secret_pilots or p in state.shown for p in state.planes)
    planes = tuple(
        p if face_up or seat == DEFENDER else None
        for p, face_up in zip(state.planes, up, strict=True)
    )
    run = state.run
    return View(
        seat=seat,
        turn=state.turn,
        stage=STAGE_NAMES[state.turn][state.stage],
        turns=state.turns,
        turn_cap=TURN_CAP,
        pool=len(state.pool),
        discard=len(state.discard),
        coins=state.coins,
        hand=None if seat is None else state.hands[seat],
        hand_counts=tuple(len(h) for h in state.hands),
        sections=tuple(section_status(state, s) for s in range(SECTIONS)),
        spaces=state.spaces,
        crossed=state.crossed,
        boats=boats,
        planes=planes,
        planes_up=up,
        cannons=len(state.cannons),
        declared=tuple(state.planes.index(p) for p in state.declared),
        aims=state.aims,
        done=state.done,
        boats_built=state.boats_built,
        fire_due=fire_due(state),
        pending=None if run is None else _pending(state, run),
        dice=state.dice,
        last=state.last,
        over=state.over is not None,
        reason=state.over,
        scores=(state.crossed, state.coins[DEFENDER]),
        places=None if state.over is None else result(state).places,
        rules=state.rules,
        faces=state.bridge if state.rules.match_bombing else (None,) * SECTIONS,
    )


def _pending(state: State, run: Run) -> Pending:
    place = state.planes.index
    return Pending(
        place(run.plane),
        named(state, run.plane),
        run.stage,
        run.dice,
        tuple(place(p) for p in run.queue),
        run.reroll,
        run.deadly,
        run.aim,
        run.aims,
    )


def sample(seen: View, rng: Rng) -> State:
    """A state ``seen`` could have come from: the dominoes it has not seen dealt at random
    into the pool, the rival's reserve, the bridge, the cannons, the discard pile, the
    face-down boats and the secret planes (the module docstring says why that is fair)."""
    hand = seen.hand or ()
    boats_seen = (b.domino for b in seen.boats if b.domino is not None)
    known = {*hand, *(p for p in seen.planes if p), *boats_seen, *(f for f in seen.faces if f)}
    unseen, rng = rng.shuffled([d for d in seen.rules.set if d not in known])
    deal = iter(unseen)

    def take(n: int) -> tuple[Domino, ...]:
        return tuple(next(deal) for _ in range(n))

    hands = tuple(
        hand if s == seen.seat else take(count) for s, count in enumerate(seen.hand_counts)
    )
    bridge = tuple(
        (seen.faces[s] or take(1)[0]) if seen.sections[s] == "built" else None
        for s in range(SECTIONS)
    )
    cannons, discard = take(seen.cannons), take(seen.discard)
    boats = tuple(
        Boat(b.number, b.domino if b.domino is not None else take(1)[0], b.soldiers, b.launched)
        for b in seen.boats
    )
    planes = tuple(p or take(1)[0] for p in seen.planes)
    secret = seen.rules.secret_pilots
    state = State(
        pool=take(seen.pool),
        hands=hands,
        coins=seen.coins,
        bridge=bridge,
        bombed=frozenset(s for s in range(SECTIONS) if seen.sections[s] == "destroyed"),
        spaces=seen.spaces,
        crossed=seen.crossed,
        boats=boats,
        boats_built=seen.boats_built,
        planes=planes,
        cannons=cannons,
        discard=discard,
        turn=seen.turn,
        stage=STAGE_NAMES[seen.turn].index(seen.stage),
        done=seen.done,
        declared=tuple(planes[i] for i in seen.declared),
        run=None,
        dice=seen.dice,
        turns=seen.turns,
        over=seen.reason,
        resigned=frozenset(),
        last=seen.last,
        rng=rng,
        rules=seen.rules,
        shown=frozenset(p for p, up in zip(planes, seen.planes_up, strict=True) if up and secret),
        aims=seen.aims,
    )
    pending = seen.pending
    if pending is None:
        return state
    run = Run(
        tuple(planes[i] for i in pending.queue),
        pending.reroll,
        planes[pending.plane],
        pending.stage,
        pending.dice,
        pending.deadly,
        pending.aim,
        pending.aims,
    )
    return evolve(state, run=run)
