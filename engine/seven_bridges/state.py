"""Seven Bridges' state: who holds which position, which dice are out, the start, and its
JSON form.

A *position* is a place at the table in drafting order: the seats, plus Euler (position
1) in a solo game. A round gives every position one roll, a *turn*; pick k of a turn
belongs to position roller + k (RULINGS §1.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import BadOptions, Rng, seat_ref, too_few_left
from engine.options import Suggestion, Switch, Text, quoted
from engine.seven_bridges import euler
from engine.seven_bridges.board import CITY, QUADRANTS, format_square, parse_square
from engine.seven_bridges.bonuses import NOT_TAKEN, USED, Bonuses
from engine.seven_bridges.dice import DICE, HORSE, KINDS, die_token
from engine.seven_bridges.legend import crossed, visited
from engine.seven_bridges.lines import FOOTPATHS, PRINTED, SQUARE_ARM, arm_name, bits

ROUNDS = 5
PICKS = 6  # picks per turn: every die is drafted
ROLL_START = "roll"  # the start option's word for a square rolled with the dice

# What an awaited seat is asked for: the names of the stages, which rules name too
# (``flow.awaited`` gives each its prompt).
ITEM = "item"  # advanced rule: the item a bridge just crossed scores
BONUS = "bonus"  # a landmark's bonus
ROLL = "roll"  # the roller rolls the turn's dice
PICK = "pick"  # draft a die and draw it, or use a reserved re-roll/distribute
DRAW = "draw"  # draw the die just downgraded (Continuity)
STUCK = "stuck"  # nothing fits: downgrade or discard a die, or use a re-roll/distribute


@dataclass(frozen=True)
class Player:
    drawn: int  # bit set of arms
    bonuses: Bonuses
    pending: int = 0  # landmark visits whose bonus is still to be chosen
    pending_items: int = 0  # advanced rule: bridge crossings whose item is still to be chosen
    chosen: tuple[str, ...] = ()  # advanced rule: the items chosen so far
    wasted: int = 0  # dice drafted that could not be drawn


@dataclass(frozen=True)
class State:
    players: int  # human seats; 1 means solo against Euler
    advanced: bool
    start: int  # the starting square
    first: int  # the position holding the first-player marker in round 1
    seats: tuple[Player, ...]
    setup: bool  # bonuses for a landmark in the starting square are being chosen
    rolling: bool  # the turn waits for its roller to roll the dice
    round: int  # 0..4; ROUNDS once the game is over
    turn: int  # 0..positions-1: whose roll it is within the round
    slot: int  # the next pick of the turn, 0..5
    dice: tuple[int, ...]  # the face value each die shows, 0 once drafted
    hands: tuple[tuple[int, ...], ...]  # after a Distribute: die numbers per position
    committed: int  # a die downgraded by the seat to pick, which must now be drawn; or -1
    rerolled: frozenset[int]  # positions that used a re-roll/distribute bonus this turn
    last_seat: int  # -1 before any move
    last_move: str
    last_arms: int  # the arms the last move drew, for highlighting
    rng: Rng
    resigned: frozenset[int] = frozenset()  # seats that resigned: they draw no more


def ended(state: State) -> bool:
    """Five rounds are over, or resignations left too few to play on (alone: nobody)."""
    return state.round >= ROUNDS or too_few_left(state)


def positions(state: State) -> int:
    """Drafting positions: the seats, plus Euler in a solo game."""
    return max(state.players, 2)


def is_euler(state: State, position: int) -> bool:
    return state.players == 1 and position == euler.POSITION


def automatic(state: State, position: int) -> bool:
    """Whether nobody is asked for ``position``'s roll: Euler's, or a player's who resigned
    (the bot rolls for both at once)."""
    return is_euler(state, position) or position in state.resigned


def roller(state: State) -> int:
    return (state.first + state.round + state.turn) % positions(state)


def owner(state: State, slot: int) -> int:
    """The position that makes pick ``slot`` of the current turn."""
    return (roller(state) + slot) % positions(state)


def awaited_seats(state: State) -> tuple[int, ...]:
    """Whose input the game waits for: every seat with a landmark bonus or an item to
    choose, or else whoever has the next pick (the roller, before the roll)."""
    if ended(state):
        return ()
    waiting = tuple(s for s, p in enumerate(state.seats) if p.pending or p.pending_items)
    return waiting or (owner(state, state.slot),)


def available(state: State, position: int) -> tuple[int, ...]:
    """The dice ``position`` may draft: its hand after a Distribute, else every die left."""
    dice = state.hands[position] if state.hands else range(DICE)
    return tuple(d for d in dice if state.dice[d])


def distinct(state: State, dice: tuple[int, ...]) -> list[int]:
    """One die per (type, face) among ``dice``, in face then type order: the dice a seat
    is offered, as two dice alike are one choice."""
    seen: dict[tuple[int, int], int] = {}
    for d in dice:
        seen.setdefault((state.dice[d], KINDS[d]), d)
    return [seen[key] for key in sorted(seen)]


def matching(state: State, dice: tuple[int, ...], kind: int, value: int) -> int | None:
    """The first of ``dice`` of type ``kind`` showing ``value``, if any."""
    return next((d for d in dice if (KINDS[d], state.dice[d]) == (kind, value)), None)


def matched(state: State, dice: tuple[int, ...], kind: int, value: int) -> int:
    """:func:`matching` in a rule's effect, whose refusal has already found the die."""
    die = matching(state, dice, kind, value)
    assert die is not None, "the rule's refusal let through a die that is not there"
    return die


def not_among(state: State, dice: tuple[int, ...], kind: int, value: int) -> str | None:
    """The refusal for naming a die that is not among a stuck seat's ``dice``, if it is not."""
    if matching(state, dice, kind, value) is not None:
        return None
    token = die_token(kind, value) if value in range(1, 7) else "?"
    return f"There is no {token} among your dice: {dice_text(state, dice)}."


def wasted(state: State, seat: int, die: int) -> State:
    """``die`` taken and drawn nowhere: its pick is made, and the seat's count of wasted
    dice goes up."""
    dice = list(state.dice)
    dice[die] = 0
    player = state.seats[seat]
    state = replace(state, dice=tuple(dice), slot=state.slot + 1)
    return with_seat(state, seat, replace(player, wasted=player.wasted + 1))


def horse_out(state: State, dice: tuple[int, ...]) -> bool:
    """Whether a horse shows among ``dice``: a stuck seat then discards, never downgrades."""
    return any(state.dice[d] == HORSE for d in dice)


def name_of(state: State, position: int) -> str:
    return "Euler" if is_euler(state, position) else seat_ref(position)


def dice_text(state: State, dice: tuple[int, ...]) -> str:
    return ", ".join(die_token(KINDS[d], state.dice[d]) for d in dice)


def with_seat(state: State, seat: int, player: Player) -> State:
    seats = list(state.seats)
    seats[seat] = player
    return replace(state, seats=tuple(seats))


# -- the start ---------------------------------------------------------------------------


def new(players: int, options: Mapping[str, Any], seed: int) -> State:
    """Everyone's map with the starting square drawn, before any bonus or roll; the
    options as :data:`START` and :data:`ADVANCED` read them."""
    advanced = options["advanced"]
    rng = Rng.from_seed(seed)
    if options["start"] == ROLL_START:
        start, rng = roll_start(rng)
    else:
        start = _square(options["start"])
    first = 0
    if players > 1:
        first, rng = rng.below(players)
    drawn = sum(1 << a for a in SQUARE_ARM[start] if a >= 0)
    seat = Player(
        drawn=drawn,
        bonuses=Bonuses(footpaths=USED if drawn & FOOTPATHS else NOT_TAKEN),
        pending=len(visited(drawn)),
        pending_items=len(crossed(drawn)) if advanced else 0,
    )
    return State(
        players=players,
        advanced=advanced,
        start=start,
        first=first,
        seats=(seat,) * players,
        setup=True,
        rolling=False,
        round=0,
        turn=0,
        slot=0,
        dice=(0,) * DICE,
        hands=(),
        committed=-1,
        rerolled=frozenset(),
        last_seat=-1,
        last_move="",
        last_arms=0,
        rng=rng,
    )


def _start_text(text: str) -> str:
    """A starting square in its rulebook name (``r2c9`` is ``ii-2-3``), or ``roll``."""
    if text.lower() == ROLL_START:
        return ROLL_START
    square = parse_square(text)
    if square is None:
        raise BadOptions(f"start {quoted(text)} is not a square (write e.g. ii-2-3, or roll).")
    if not CITY.arms[square]:
        raise BadOptions(
            f"start {format_square(square)} is {CITY.kinds[square]}: the game starts on a "
            f"square with streets or footpaths."
        )
    return format_square(square)


def _square(text: str) -> int:
    """A starting square as :func:`_start_text` or :func:`to_dict` wrote it, so always one."""
    square = parse_square(text)
    if square is None:
        raise ValueError(f"{text!r} is no square")
    return square


def _start_label(square: int) -> str:
    """What a starting square gives, beside its name: a landmark's bonus or the footpaths
    for everyone at once, and the rulebook's solo level (1 easy … 9 hard)."""
    drawn = sum(1 << a for a in SQUARE_ARM[square] if a >= 0)
    gives = [f"landmark {letter}" for letter in visited(drawn)]
    gives += ["footpaths"] if drawn & FOOTPATHS else []
    return " · ".join([format_square(square), *gives, f"solo level {CITY.solo_levels[square]}"])


def _rulebook_order(name: str) -> tuple[int, str]:
    quadrant, _, place = name.partition("-")
    return QUADRANTS.index(quadrant), place


#: every square a game may start on, labelled, in rulebook order (quadrant, row, column)
_STARTS = sorted(
    ((format_square(sq), _start_label(sq)) for sq in range(len(CITY.arms)) if CITY.arms[sq]),
    key=lambda start: _rulebook_order(start[0]),
)


def _start_suggestions(typed: str) -> list[Suggestion]:
    """The starting squares that fit what is typed: a square's name however written
    (``r2c9``), its first letters (``ii-2``), or words of its label (``landmark``,
    ``level 1``); ``roll`` for the dice."""
    text = typed.strip().lower()
    square = parse_square(text) if text else None
    if square is not None and CITY.arms[square]:
        return [s for s in _STARTS if s[0] == format_square(square)]
    first = [s for s in _STARTS if s[0].startswith(text)]
    rest = [s for s in _STARTS if text in s[1].partition(" · ")[2] and s not in first]
    roll = [(ROLL_START, "roll · rolled with the dice")] if ROLL_START.startswith(text) else []
    return roll + first + rest


#: the starting square, where everyone's map begins (rulebook: "choose any square that has
#: streets and/or footpaths"); rolled with the dice unless chosen (RULINGS §1.2)
START = Text(
    "start",
    "the starting square",
    example="ii-2-3",
    check=_start_text,
    suggest=_start_suggestions,
    default_text="rolled with the dice",
    default=ROLL_START,
)
#: the rulebook's advanced rule: each bridge crossed scores an item its player chooses
ADVANCED = Switch("advanced", "choose the item each bridge crossing scores")
OPTIONS = (START, ADVANCED)


def roll_start(rng: Rng) -> tuple[int, Rng]:
    """The starting square by dice: quadrant (re-roll 5 and 6), row, column; a square with
    no streets gives way to its first neighbour with some, looking N, E, S, W [P]."""
    while True:
        q, rng = rng.below(6)
        if q < 4:
            break
    r, rng = rng.below(6)
    c, rng = rng.below(6)
    square = (6 * (q // 2) + r) * 12 + 6 * (q % 2) + c
    if CITY.arms[square]:
        return square, rng
    for step in (-12, 1, 12, -1):
        other = square + step
        same_row = step in (-12, 12) or other // 12 == square // 12
        if 0 <= other < 144 and same_row and CITY.arms[other]:
            return other, rng
    raise AssertionError(f"{format_square(square)} has no neighbour with streets")


# -- JSON ----------------------------------------------------------------------------------


def to_dict(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "advanced": state.advanced,
        "start": format_square(state.start),
        "first": state.first,
        "seats": [
            {
                "drawn": sorted(arm_name(a) for a in bits(p.drawn)),
                "immediate": p.bonuses.immediate,
                "reserved": p.bonuses.reserved,
                "spent": p.bonuses.spent,
                "footpaths": p.bonuses.footpaths,
                "pending": p.pending,
                "pending_items": p.pending_items,
                "chosen": list(p.chosen),
                "wasted": p.wasted,
            }
            for p in state.seats
        ],
        "setup": state.setup,
        "rolling": state.rolling,
        "round": state.round,
        "turn": state.turn,
        "slot": state.slot,
        "dice": list(state.dice),
        "hands": [list(h) for h in state.hands],
        "committed": state.committed,
        "rerolled": sorted(state.rerolled),
        "last_seat": state.last_seat,
        "last_move": state.last_move,
        "last_arms": sorted(arm_name(a) for a in bits(state.last_arms)),
        "rng": state.rng.state,
        # written once someone resigns, so a game without resignations keeps its old form
        **({"resigned": sorted(state.resigned)} if state.resigned else {}),
    }


_ARM_BY_NAME = {arm_name(a): a for a in PRINTED}


def _arms(names: list[str]) -> int:
    return sum(1 << _ARM_BY_NAME[a] for a in names)


def from_dict(data: Mapping[str, Any]) -> State:
    return State(
        players=data["players"],
        advanced=data["advanced"],
        start=_square(data["start"]),
        first=data["first"],
        seats=tuple(
            Player(
                drawn=_arms(p["drawn"]),
                bonuses=Bonuses(
                    immediate=p["immediate"],
                    reserved=p["reserved"],
                    spent=p["spent"],
                    footpaths=p["footpaths"],
                ),
                pending=p["pending"],
                pending_items=p["pending_items"],
                chosen=tuple(p["chosen"]),
                wasted=p["wasted"],
            )
            for p in data["seats"]
        ),
        setup=data["setup"],
        rolling=data.get("rolling", False),  # games stored before `roll` were rolled
        round=data["round"],
        turn=data["turn"],
        slot=data["slot"],
        dice=tuple(data["dice"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        committed=data["committed"],
        rerolled=frozenset(data["rerolled"]),
        last_seat=data["last_seat"],
        last_move=data["last_move"],
        last_arms=_arms(data["last_arms"]),
        rng=Rng(data["rng"]),
        resigned=frozenset(data.get("resigned", ())),
    )
