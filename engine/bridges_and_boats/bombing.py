"""The defender's dice: cannons against boats, and bombing runs against the bridge.

Every die comes from the state's :class:`~engine.core.Rng` and is told in a public
event (dice are public) and kept in ``State.dice`` for the picture. A bombing run is
resolved plane by plane; when the ghost pilot flies, its one re-roll is offered after
any roll it could change, and the run waits in ``State.run`` for ``reroll`` or
``keep``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.board import SECTION_OF_SUM, clear, soldiers_on
from engine.bridges_and_boats.dominoes import GHOST, Domino
from engine.bridges_and_boats.state import DEFENDER, Roll, Run, State
from engine.core import Event, seat_ref

MISS, HIT, DEADLY = 0, 1, 2
HIT_WORDS = ("miss", "hit", "deadly")


def roll(state: State, count: int) -> tuple[tuple[int, ...], State]:
    """``count`` dice from the state's generator, and the state that has used them."""
    rng = state.rng
    dice = []
    for _ in range(count):
        value, rng = rng.below(6)
        dice.append(value + 1)
    return tuple(dice), replace(state, rng=rng)


def hit_outcome(plane: Domino, dice: tuple[int, int]) -> int:
    """RULINGS §5.5: the sum equal to the pips hits; the dice equal to the two ends is
    deadly (so a blank end is never deadly); the ace always hits and is never deadly."""
    if plane.is_ace:
        return HIT
    if sorted(dice) == [plane.low, plane.high]:
        return DEADLY
    return HIT if sum(dice) == plane.pips else MISS


def _rerolled(dice: tuple[int, int]) -> list[tuple[int, int]]:
    """Every result one die's re-roll could give."""
    first = [(v, dice[1]) for v in range(1, 7) if v != dice[0]]
    return first + [(dice[0], v) for v in range(1, 7) if v != dice[1]]


def could_change(state: State, run: Run) -> bool:
    """Whether re-rolling one die could be worth asking about: a better hit result, or a
    strike on another section that stands."""
    if run.stage == "hit":
        now = hit_outcome(run.plane, run.dice)
        return any(hit_outcome(run.plane, d) > now for d in _rerolled(run.dice))
    now = SECTION_OF_SUM[sum(run.dice)]
    return any(
        SECTION_OF_SUM[sum(d)] != now and state.bridge[SECTION_OF_SUM[sum(d)]] is not None
        for d in _rerolled(run.dice)
    )


def pilot(plane: Domino) -> str:
    if plane.is_ace:
        return f"The ace {plane}"
    return f"Plane {plane}"


def _soldiers(n: int) -> str:
    return f"{n} soldier" + ("" if n == 1 else "s")


# -- cannons ---------------------------------------------------------------------------


def fire(state: State, events: list[Event]) -> State:
    """RULINGS §5.3: each cannon rolls a die, and every arrived boat showing that number
    on either end sinks with its soldiers. Cannons with nothing left to aim at hold fire."""
    rolls: list[Roll] = []
    for number in range(1, len(state.cannons) + 1):
        afloat = [b for b in state.boats if b.launched]
        if not afloat:
            events.append(Event("fire", "No boat is left afloat: the other cannons hold fire."))
            break
        (value,), state = roll(state, 1)
        sunk = [b for b in afloat if b.domino.shows(value)]
        if not sunk:
            rolls.append(Roll(f"cannon {number}", "fire", (value,), "miss"))
            events.append(Event("fire", f"Cannon {number} rolls {value}: no boat shows a {value}."))
            continue
        names = ("boat " if len(sunk) == 1 else "boats ") + ", ".join(
            f"b{b.number} ({b.domino})" for b in sunk
        )
        dead = sum(b.soldiers for b in sunk)
        rolls.append(
            Roll(
                f"cannon {number}",
                "fire",
                (value,),
                "sinks " + ", ".join(f"b{b.number}" for b in sunk),
            )
        )
        events.append(
            Event(
                "fire",
                f"Cannon {number} rolls {value}: sinks {names}; {_soldiers(dead)} drown.",
            )
        )
        state = replace(
            state,
            boats=tuple(b for b in state.boats if b not in sunk),
            discard=state.discard + tuple(b.domino for b in sunk),
        )
    return replace(state, dice=tuple(rolls))


# -- bombing runs ----------------------------------------------------------------------


def start_run(state: State, events: list[Event]) -> State:
    """Fly the declared planes, in the order declared; the ghost only lends its re-roll."""
    queue = tuple(p for p in state.declared if not p.is_ghost)
    return _next_plane(state, queue, GHOST in state.declared, events)


def _next_plane(
    state: State, queue: tuple[Domino, ...], reroll: bool, events: list[Event]
) -> State:
    if not queue:
        return replace(state, run=None)
    plane, rest = queue[0], queue[1:]
    dice, state = roll(state, 2)
    if plane.is_ace:
        events.append(Event("bomb", f"The ace {plane} always hits; the dice say where."))
        return _offer_or_settle(state, Run(rest, reroll, plane, "aim", dice), events)
    return _offer_or_settle(state, Run(rest, reroll, plane, "hit", dice), events)


def _offer_or_settle(state: State, run: Run, events: list[Event]) -> State:
    """Stop for the defender's choice if the ghost's re-roll could change this roll."""
    if run.reroll and could_change(state, run):
        a, b = run.dice
        if run.stage == "hit":
            need = f"{run.plane.pips} hits"
            if run.plane.low > 0:
                need += f", {run.plane.low} and {run.plane.high} is deadly"
            what = f"{pilot(run.plane)} rolls {a} and {b} = {a + b} to hit ({need})."
        else:
            where = SECTION_OF_SUM[a + b] + 1
            what = f"{pilot(run.plane)} aims: {a} and {b} = {a + b}, section {where}."
        choices = " or ".join(f"`reroll {v}`" for v in sorted({a, b}))
        events.append(
            Event(
                "ghost",
                f"{what} {seat_ref(DEFENDER)} may re-roll one die with the ghost pilot "
                f"({choices}) or `keep`.",
            )
        )
        return replace(state, run=run)
    return settle(state, run, events)


def reroll(state: State, value: int, events: list[Event]) -> State:
    """Use the ghost's re-roll on the waiting roll's die that shows ``value``."""
    run = state.run
    assert run is not None
    (new,), state = roll(state, 1)
    dice = list(run.dice)
    dice[dice.index(value)] = new
    events.append(Event("ghost", f"The ghost pilot re-rolls the {value}: it comes up {new}."))
    run = replace(run, dice=(dice[0], dice[1]), reroll=False)
    return settle(replace(state, run=None), run, events, rerolled=True)


def settle(state: State, run: Run, events: list[Event], rerolled: bool = False) -> State:
    """Apply the roll as it lies, then go on with the run."""
    state = replace(state, run=None)
    a, b = run.dice
    if run.stage == "hit":
        outcome = hit_outcome(run.plane, run.dice)
        thrown = Roll(str(run.plane), "to hit", run.dice, HIT_WORDS[outcome], rerolled)
        state = replace(state, dice=state.dice + (thrown,))
        word = ("misses", "hits", "makes a deadly strike")[outcome]
        events.append(Event("bomb", f"{pilot(run.plane)} rolls {a} and {b} = {a + b} and {word}."))
        if outcome == MISS:
            return _next_plane(state, run.queue, run.reroll, events)
        dice, state = roll(state, 2)
        aim = Run(run.queue, run.reroll, run.plane, "aim", (dice[0], dice[1]), outcome == DEADLY)
        return _offer_or_settle(state, aim, events)
    state = _strike(state, run, events, rerolled)
    return _next_plane(state, run.queue, run.reroll, events)


def _strike(state: State, run: Run, events: list[Event], rerolled: bool) -> State:
    """RULINGS §5.4: the section the dice name is destroyed with its soldiers; a deadly
    strike also kills the soldiers on both neighbouring sections. Nothing standing there,
    nothing happens."""
    a, b = run.dice
    section = SECTION_OF_SUM[a + b]
    aim = f"{pilot(run.plane)} aims {a} and {b} = {a + b}: section {section + 1}"
    domino = state.bridge[section]
    if domino is None:
        events.append(Event("bomb", f"{aim}, where nothing stands. No damage."))
        outcome = f"sect. {section + 1}: empty"
        return replace(
            state, dice=state.dice + (Roll(str(run.plane), "aim", run.dice, outcome, rerolled),)
        )
    neighbours = [s for s in (section - 1, section + 1) if 0 <= s < len(state.bridge)]
    around = neighbours if run.deadly else []
    killed = soldiers_on(state.spaces, [section])
    killed_around = soldiers_on(state.spaces, around)
    text = f"{aim} is destroyed"
    if killed:
        text += f" and {_soldiers(killed)} on it killed"
    if run.deadly:
        text += f"; the deadly strike kills {_soldiers(killed_around)} on the sections beside it"
    events.append(Event("bomb", text + "."))
    bridge = list(state.bridge)
    bridge[section] = None
    outcome = f"sect. {section + 1} destroyed"
    if killed + killed_around:
        outcome += f", {killed + killed_around} killed"
    return replace(
        state,
        bridge=tuple(bridge),
        bombed=state.bombed | {section},
        spaces=clear(state.spaces, [section, *around]),
        discard=state.discard + (domino,),
        dice=state.dice + (Roll(str(run.plane), "aim", run.dice, outcome, rerolled),),
    )
