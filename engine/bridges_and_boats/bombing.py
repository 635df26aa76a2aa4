"""A bombing run against the bridge, plane by plane, shared by ``bomb``, ``reroll``
and ``keep``.

Every die is told in a public event (dice are public) and kept in ``State.dice`` for
the picture. When the ghost pilot flies, its one re-roll is offered after any roll it
could change, and the run waits in ``State.run`` for ``reroll`` or ``keep`` (the
``reroll`` stage in ``flow``). With secret pilots a plane is named by its place, never its
ends, and the re-roll is offered after every roll to hit, so the offer itself tells
nothing of the pilot; with match bombing a hit strikes the section the plane named.
"""

from __future__ import annotations

from engine.bridges_and_boats.board import SECTION_OF_SUM, clear, soldiers, soldiers_on
from engine.bridges_and_boats.dice import DEADLY, HIT_WORDS, MISS, hit_outcome, rerolls, roll
from engine.bridges_and_boats.dominoes import GHOST, Domino
from engine.bridges_and_boats.planes import named
from engine.bridges_and_boats.state import DEFENDER, Roll, Run, State, spend
from engine.core import Event, evolve, seat_ref


def could_change(state: State, run: Run) -> bool:
    """Whether re-rolling one die could be worth asking about: a better hit result, or a
    strike on another section that stands. Secret pilots: every roll to hit may be."""
    if run.stage == "hit":
        if state.rules.secret_pilots:
            return True
        now = hit_outcome(run.plane, run.dice)
        return any(hit_outcome(run.plane, d) > now for d in rerolls(run.dice))
    now = SECTION_OF_SUM[sum(run.dice)]
    return any(
        SECTION_OF_SUM[sum(d)] != now and state.bridge[SECTION_OF_SUM[sum(d)]] is not None
        for d in rerolls(run.dice)
    )


def pilot(state: State, plane: Domino) -> str:
    """How an event names a plane: the ace by its title (once he is known)."""
    shown = named(state, plane)
    if plane.is_ace and shown == str(plane):
        return f"The ace {plane}"
    return f"Plane {shown}"


def start_run(state: State, events: list[Event]) -> State:
    """Fly the declared planes, in the order declared; the ghost only lends its re-roll."""
    flying = [i for i, p in enumerate(state.declared) if not p.is_ghost]
    queue = tuple(state.declared[i] for i in flying)
    aims = tuple(state.aims[i] for i in flying) if state.aims else ()
    run = Run(queue, GHOST in state.declared, GHOST, "hit", (0, 0), aims=aims)
    return _next_plane(evolve(state, aims=()), run, events)


def _next_plane(state: State, done: Run, events: list[Event]) -> State:
    """The next plane of the run ``done`` left, if any, rolls to hit (the ace: to aim)."""
    if not done.queue:
        return evolve(state, run=None)
    plane, rest = done.queue[0], done.queue[1:]
    aim, aims = (done.aims[0], done.aims[1:]) if done.aims else (-1, ())
    (a, b), state = roll(state, 2)
    run = Run(rest, done.reroll, plane, "hit", (a, b), aim=aim, aims=aims)
    if plane.is_ace:
        if aim >= 0:  # match bombing: he always hits the section he named
            events.append(Event("bomb", f"{pilot(state, plane)} always hits."))
            state = _strike(state, run, aim, " strikes:", events, None)
            return _next_plane(state, run, events)
        events.append(Event("bomb", f"{pilot(state, plane)} always hits; the dice say where."))
        run = evolve(run, stage="aim")
    return _offer_or_settle(state, run, events)


def _offer_or_settle(state: State, run: Run, events: list[Event]) -> State:
    """Stop for the defender's choice if the ghost's re-roll could change this roll."""
    if not (run.reroll and could_change(state, run)):
        return settle(state, run, events)
    a, b = run.dice
    choices = " or ".join(f"`reroll {v}`" for v in sorted({a, b}))
    offer = f"{seat_ref(DEFENDER)} may re-roll one die with the ghost pilot ({choices}) or `keep`."
    if run.stage == "hit":
        what = f"{pilot(state, run.plane)} rolls {a} and {b} = {a + b} to hit"
        need = f"{run.plane.pips} hits"
        if run.plane.low > 0:
            need += f", {run.plane.low} and {run.plane.high} is deadly"
        if named(state, run.plane) != str(run.plane):  # a secret pilot: his needs are his own
            events.append(Event("ghost", f"{what}. {offer}"))
            events.append(Event("ghost", f"Your plane {run.plane} needs: {need}.", seat=DEFENDER))
            return evolve(state, run=run)
        what += f" ({need})"
    else:
        where = SECTION_OF_SUM[a + b] + 1
        what = f"{pilot(state, run.plane)} aims: {a} and {b} = {a + b}, section {where}"
    events.append(Event("ghost", f"{what}. {offer}"))
    return evolve(state, run=run)


def reroll(state: State, value: int, events: list[Event]) -> State:
    """Use the ghost's re-roll on the waiting roll's die that shows ``value``."""
    run = state.run
    assert run is not None
    (new,), state = roll(state, 1)
    dice = list(run.dice)
    dice[dice.index(value)] = new
    events.append(Event("ghost", f"The ghost pilot re-rolls the {value}: it comes up {new}."))
    run = evolve(run, dice=(dice[0], dice[1]), reroll=False)
    return settle(evolve(state, run=None), run, events, rerolled=True)


def settle(state: State, run: Run, events: list[Event], rerolled: bool = False) -> State:
    """Apply the roll as it lies, then go on with the run."""
    state = evolve(state, run=None)
    a, b = run.dice
    who = named(state, run.plane)
    if run.stage == "hit":
        outcome = hit_outcome(run.plane, run.dice)
        thrown = Roll(who, "to hit", run.dice, HIT_WORDS[outcome], rerolled)
        state = evolve(state, dice=state.dice + (thrown,))
        word = ("misses", "hits", "makes a deadly strike")[outcome]
        events.append(
            Event("bomb", f"{pilot(state, run.plane)} rolls {a} and {b} = {a + b} and {word}.")
        )
        if outcome == MISS:
            return _next_plane(state, run, events)
        if run.aim >= 0:  # match bombing: the section named, no roll for where
            struck = evolve(run, deadly=outcome == DEADLY)
            state = _strike(state, struck, run.aim, " strikes:", events, None)
            return _next_plane(state, run, events)
        dice, state = roll(state, 2)
        aim = evolve(run, stage="aim", dice=(dice[0], dice[1]), deadly=outcome == DEADLY)
        return _offer_or_settle(state, aim, events)
    section = SECTION_OF_SUM[a + b]
    aimed = f" aims {a} and {b} = {a + b}:"
    thrown = Roll(who, "aim", run.dice, "", rerolled)
    state = _strike(state, run, section, aimed, events, thrown)
    return _next_plane(state, run, events)


def _strike(
    state: State, run: Run, section: int, aimed: str, events: list[Event], thrown: Roll | None
) -> State:
    """RULINGS §5.4: the section struck is destroyed with its soldiers; a deadly strike
    also kills the soldiers on both neighbouring sections. Nothing standing there, nothing
    happens. ``thrown`` is the roll for where (its outcome filled in here), if there was one."""
    aim = f"{pilot(state, run.plane)}{aimed} section {section + 1}"
    domino = state.bridge[section]
    if domino is None:
        events.append(Event("bomb", f"{aim}, where nothing stands. No damage."))
        return _record(state, thrown, f"sect. {section + 1}: empty")
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
    state = evolve(
        state,
        bridge=tuple(bridge),
        bombed=state.bombed | {section},
        spaces=clear(state.spaces, [section, *around]),
    )
    return spend(_record(state, thrown, outcome), (domino,))


def _record(state: State, thrown: Roll | None, outcome: str) -> State:
    """Keep the roll for where, with what it did, for the picture."""
    if thrown is None:
        return state
    return evolve(state, dice=state.dice + (evolve(thrown, outcome=outcome),))
