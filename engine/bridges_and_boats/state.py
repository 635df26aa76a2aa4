"""The whole game as one immutable value, hidden parts included, and its JSON form.

Only the service ever holds a state: players see it through ``view``, which leaves
out the pool's order, the reserves, face-down boats, bridge sections and cannons.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.bridges_and_boats.board import SECTIONS, SPACES, Bridge, Spaces
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.options import RULEBOOK, Rules
from engine.core import Rng, evolve

ATTACKER, DEFENDER = 0, 1
ROLES = ("attacker", "defender")
TURN_CAP = 100  # RULINGS §5.6 [P]: a safety stop for the bot

# Where a seat is in its turn. Steps 2 and 3 are shared; step 4 has sub-steps in the
# order RULINGS §5.2 (attacker) and §5.3/§5.5 (defender) give them.
BUY, BUILD = 0, 1
ADVANCE, ENTER, BOARD, LAUNCH = 2, 3, 4, 5
FIRE, DECLARE, RUN = 2, 3, 4
STAGE_NAMES: tuple[tuple[str, ...], tuple[str, ...]] = (
    (
        "buying dominoes (step 2)",
        "building (step 3)",
        "advancing soldiers on the bridge (step 4)",
        "sending a soldier onto the bridge (step 4)",
        "boarding boats (step 4)",
        "launching boats (step 4)",
    ),
    (
        "buying dominoes (step 2)",
        "building planes and cannons (step 3)",
        "cannon fire (step 4)",
        "declaring the bombing run (step 4)",
        "the bombing run (step 4)",
    ),
)


@dataclass(frozen=True)
class Boat:
    """A boat: on the attacker's bank until launched, then on the defender's."""

    number: int  # 1 for the first boat built, and so on; never reused
    domino: Domino
    soldiers: int = 0  # 0 means face down: nobody has boarded yet
    launched: bool = False


@dataclass(frozen=True)
class Roll:
    """One throw of the dice, kept so the picture can show the last run or cannon fire."""

    who: str  # "cannon 2", "plane 3-5"
    purpose: str  # "fire", "to hit", "aim"
    dice: tuple[int, ...]
    outcome: str
    rerolled: bool = False  # one die was re-rolled by the ghost pilot


@dataclass(frozen=True)
class Run:
    """A bombing run paused on a roll the defender may re-roll with the ghost pilot."""

    queue: tuple[Domino, ...]  # planes still to resolve after this one, in declared order
    reroll: bool  # the ghost's re-roll is still unused
    plane: Domino  # the plane whose roll waits
    stage: str  # "hit" (does it hit?) or "aim" (which section?)
    dice: tuple[int, int]
    deadly: bool = False  # for "aim": the strike is deadly
    aim: int = -1  # match bombing: the section this plane aims at (0 from the attacker's bank)
    aims: tuple[int, ...] = ()  # match bombing: the sections the queue's planes aim at


@dataclass(frozen=True)
class State:
    pool: tuple[Domino, ...]  # face down; the next bought is pool[0]
    hands: tuple[tuple[Domino, ...], ...]  # each seat's reserve, in the order bought
    coins: tuple[int, ...]
    bridge: Bridge
    bombed: frozenset[int]  # sections destroyed and not rebuilt yet (the rest of None: missing)
    spaces: Spaces
    crossed: int  # the attacker's victory pile
    boats: tuple[Boat, ...]
    boats_built: int
    planes: tuple[Domino, ...]
    cannons: tuple[Domino, ...]
    discard: tuple[Domino, ...]
    turn: int  # the seat whose turn it is
    stage: int  # the step of its turn it has reached (BUY, BUILD, ...), see STAGE_NAMES
    done: frozenset[str]  # once-a-turn actions already taken: advance, enter, fire, bomb
    declared: tuple[Domino, ...]  # planes declared for today's run
    run: Run | None
    dice: tuple[Roll, ...]  # the last cannon fire and bombing run
    turns: int  # turns completed
    over: str | None  # why the game ended: "pool", "cap" or "resign"
    resigned: frozenset[int]  # the side that resigned (its JSON form: the seat, or null)
    last: tuple[int, str] | None  # the last action: seat and notation
    rng: Rng
    rules: Rules = RULEBOOK  # the game's options (a game stored without them: the rulebook)
    shown: frozenset[Domino] = frozenset()  # secret pilots: planes turned face up by flying
    aims: tuple[int, ...] = ()  # match bombing: the section each declared plane aims at

    @property
    def players(self) -> int:
        """Always two: the attacker and the defender."""
        return 2


def new(seed: int, rules: Rules = RULEBOOK) -> State:
    """The pool shuffled face down, nothing built, and the attacker to move first."""
    pool, rng = Rng.from_seed(seed).shuffled(rules.set)
    return State(
        pool=pool,
        hands=((), ()),
        coins=(rules.attacker_income, 0),  # the attacker's first income, taken at the start
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
        resigned=frozenset(),
        last=None,
        rng=rng,
        rules=rules,
    )


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the one at ``index`` replaced: a state's tuples are never changed."""
    return values[:index] + (value,) + values[index + 1 :]


def pay(state: State, seat: int, amount: int) -> State:
    """``seat`` spends ``amount`` coins (a domino, a soldier, the planes' sorties)."""
    return evolve(state, coins=set_at(state.coins, seat, state.coins[seat] - amount))


def spend(state: State, dominoes: tuple[Domino, ...]) -> State:
    """Used boats and bombed sections go to the discard pile, or with ``recycle`` back into
    the pool, shuffled in face down (so nobody knows where they lie)."""
    if not state.rules.recycle:
        return evolve(state, discard=state.discard + dominoes)
    pool, rng = state.rng.shuffled(state.pool + dominoes)
    return evolve(state, pool=pool, rng=rng)


def find_boat(state: State, number: int) -> Boat | None:
    """The boat named ``b<number>``, wherever it is, or ``None`` if there is none."""
    return next((b for b in state.boats if b.number == number), None)


def _stored(text: str) -> Domino:
    """A domino as :func:`to_dict` wrote it, so always one."""
    domino = Domino.parse(text)
    if domino is None:
        raise ValueError(f"a stored state holds {text!r} where a domino belongs")
    return domino


def _dom(text: str | None) -> Domino | None:
    return None if text is None else _stored(text)


def _doms(texts: list[str]) -> tuple[Domino, ...]:
    return tuple(_stored(t) for t in texts)


def _strs(dominoes: tuple[Domino, ...]) -> list[str]:
    return [str(d) for d in dominoes]


def to_dict(state: State) -> dict[str, Any]:
    run = state.run
    data: dict[str, Any] = {
        "pool": _strs(state.pool),
        "hands": [_strs(h) for h in state.hands],
        "coins": list(state.coins),
        "bridge": [None if d is None else str(d) for d in state.bridge],
        "bombed": sorted(state.bombed),
        "spaces": [int(s) for s in state.spaces],
        "crossed": state.crossed,
        "boats": [[b.number, str(b.domino), b.soldiers, b.launched] for b in state.boats],
        "boats_built": state.boats_built,
        "planes": _strs(state.planes),
        "cannons": _strs(state.cannons),
        "discard": _strs(state.discard),
        "turn": state.turn,
        "stage": state.stage,
        "done": sorted(state.done),
        "declared": _strs(state.declared),
        "run": None
        if run is None
        else {
            "queue": _strs(run.queue),
            "reroll": run.reroll,
            "plane": str(run.plane),
            "stage": run.stage,
            "dice": list(run.dice),
            "deadly": run.deadly,
        },
        "dice": [[r.who, r.purpose, list(r.dice), r.outcome, r.rerolled] for r in state.dice],
        "turns": state.turns,
        "over": state.over,
        "resigned": next(iter(state.resigned), None),
        "last": None if state.last is None else list(state.last),
        "rng": state.rng.state,
    }
    # written only where an option made them: a rulebook game's JSON is as it always was
    if state.rules != RULEBOOK:
        data["rules"] = state.rules.to_dict()
    if state.shown:
        data["shown"] = _strs(tuple(sorted(state.shown)))
    if state.aims:
        data["aims"] = list(state.aims)
    if run is not None and run.aim >= 0:
        data["run"]["aim"], data["run"]["aims"] = run.aim, list(run.aims)
    return data


def from_dict(data: Mapping[str, Any]) -> State:
    run = data["run"]
    return State(
        pool=_doms(data["pool"]),
        hands=tuple(_doms(h) for h in data["hands"]),
        coins=tuple(data["coins"]),
        bridge=tuple(_dom(d) for d in data["bridge"]),
        bombed=frozenset(data["bombed"]),
        spaces=tuple(bool(s) for s in data["spaces"]),
        crossed=data["crossed"],
        boats=tuple(Boat(n, _stored(d), s, bool(la)) for n, d, s, la in data["boats"]),
        boats_built=data["boats_built"],
        planes=_doms(data["planes"]),
        cannons=_doms(data["cannons"]),
        discard=_doms(data["discard"]),
        turn=data["turn"],
        stage=data["stage"],
        done=frozenset(data["done"]),
        declared=_doms(data["declared"]),
        run=None
        if run is None
        else Run(
            queue=_doms(run["queue"]),
            reroll=run["reroll"],
            plane=_stored(run["plane"]),
            stage=run["stage"],
            dice=tuple(run["dice"]),
            deadly=run["deadly"],
            aim=run.get("aim", -1),
            aims=tuple(run.get("aims", ())),
        ),
        dice=tuple(Roll(w, p, tuple(d), o, bool(r)) for w, p, d, o, r in data["dice"]),
        turns=data["turns"],
        over=data["over"],
        resigned=frozenset(() if data["resigned"] is None else (data["resigned"],)),
        last=None if data["last"] is None else (data["last"][0], data["last"][1]),
        rng=Rng(data["rng"]),
        rules=Rules.from_dict(data.get("rules")),
        shown=frozenset(_doms(data.get("shown", []))),
        aims=tuple(data.get("aims", ())),
    )
