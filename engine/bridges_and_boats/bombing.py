"""A bombing run against the bridge, plane by plane, shared by ``bomb``, ``reroll``
and ``keep``.

Every die is told in a public event (dice are public) and kept in ``State.dice`` for
the picture. When the ghost pilot flies, its one re-roll is offered after any roll it
could change, and the run waits in ``State.run`` for ``reroll`` or ``keep`` (the
``reroll`` stage in ``flow``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.board import SECTION_OF_SUM, clear, soldiers, soldiers_on
from engine.bridges_and_boats.dice import DEADLY, HIT_WORDS, MISS, hit_outcome, rerolls, roll
from engine.bridges_and_boats.dominoes import GHOST, Domino
from engine.bridges_and_boats.state import DEFENDER, Roll, Run, State
from engine.core import Event, seat_ref


def could_change(state: State, run: Run) -> bool:
    """Whether re-rolling one die could be worth asking about: a better hit result, or a
    strike on another section that stands."""
    if run.stage == "hit":
        now = hit_outcome(run.plane, run.dice)
        return any(hit_outcome(run.plane, d) > now for d in rerolls(run.dice))
    now = SECTION_OF_SUM[sum(run.dice)]
    return any(
        SECTION_OF_SUM[sum(d)] != now and state.bridge[SECTION_OF_SUM[sum(d)]] is not None
        for d in rerolls(run.dice)
    )


def pilot(plane: Domino) -> str:
    """How an event names a plane: the ace by its title."""
    if plane.is_ace:
        return f"The ace {plane}"
    return f"Plane {plane}"


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
    (a, b), state = roll(state, 2)
    if plane.is_ace:
        events.append(Event("bomb", f"The ace {plane} always hits; the dice say where."))
        return _offer_or_settle(state, Run(rest, reroll, plane, "aim", (a, b)), events)
    return _offer_or_settle(state, Run(rest, reroll, plane, "hit", (a, b)), events)


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
        text += f" and {soldiers(killed)} on it killed"
    if run.deadly:
        text += f"; the deadly strike kills {soldiers(killed_around)} on the sections beside it"
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
