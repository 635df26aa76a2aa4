"""The designer's optional rules, each a game option, and the rules a game is played by.

The rulebook lists its remedies under OPTIONAL RULES and in the designer's notes: a
double-nine set, other costs and incomes, declaring a domino's use before buying it (or
looking first), planes and cannons interchangeable, secret pilots, bombing by matching a
face-up bridge section, recycling spent dominoes, faster movement on the bridge. Each is
an option declared here once (``OPTIONS``), read by every front end through its spec;
``Rules`` is what a game holds of them, the rulebook's game by default, so a game stored
before the options existed is played exactly as it was. ``variant balanced`` sets several
at once (docs/ai.md measured it), written out in full with each game it opens. Where the
text leaves a detail open, the rules page (docs/rules/bridges-and-boats.md) marks our
decision [P].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from engine.bridges_and_boats.dominoes import Domino, domino_set
from engine.options import BadOptions, Choice, Switch, Whole

#: how a domino bought is put to use: kept in the reserve (the rulebook), its use named
#: before it is bought, or looked at and put to use at once
RESERVE, DECLARE, LOOK = "reserve", "declare", "look"

DOMINOES = Choice(
    "dominoes",
    "the domino set",
    choices=(("double-6", "28 dominoes, the rulebook's"), ("double-9", "55, a longer game")),
    default="double-6",
    note="(the dice stay six-sided: an end above 6 never matches a die) [P]",
)
ATTACKER_INCOME = Whole("attacker_income", "the attacker's income", 1, 9, 3, unit="coins a turn")
DEFENDER_INCOME = Whole("defender_income", "the defender's income", 1, 9, 3, unit="coins a turn")
DOMINO_PRICE = Whole("domino_price", "what a domino costs", 1, 6, 2, unit="coins")
BUYING = Choice(
    "buying",
    "how a domino is bought",
    choices=(
        (RESERVE, "kept in the reserve, its use chosen later (the rulebook)"),
        (DECLARE, "its use named before buying it, sight unseen: `buy boat`"),
        (LOOK, "looked at, then put to use at once"),
    ),
    default=RESERVE,
)
INTERCHANGEABLE = Switch(
    "interchangeable",
    "planes and cannons interchangeable",
    note=(
        "(in step 3 the defender may turn a plane into a cannon or a cannon into a plane, "
        "one a turn) [P]"
    ),
)
SECRET_PILOTS = Switch(
    "secret_pilots",
    "planes face down, their skill known to the defender only",
    note=(
        "(each roll's outcome is still public; the ghost and the ace turn face up when "
        "they first fly) [P]"
    ),
)
MATCH_BOMBING = Switch(
    "match_bombing",
    "bridge face up; a plane bombs a section sharing a number",
    note="(it names its target when declared; no location roll) [P]",
)
RECYCLE = Switch(
    "recycle",
    "spent dominoes go back into the pool",
    note="(used boats and bombed sections are shuffled back in, face down) [P]",
)
BRIDGE_SPEED = Whole(
    "bridge_speed", "how far a soldier moves on the bridge", 1, 4, 1, unit="spaces a turn"
)

#: the balanced variant, as a game opened now takes it (written out with the game, so a
#: retune changes no game already stored): docs/ai.md's table measures it
BALANCED: tuple[tuple[str, str], ...] = (
    ("dominoes", "double-9"),
    ("attacker_income", "8"),
    ("defender_income", "3"),
    ("domino_price", "3"),
    ("buying", "look"),
    ("match_bombing", "on"),
    ("bridge_speed", "2"),
)
#: what ``variant balanced`` meant to the games stored before 2026-11-28's retune, which
#: hold the word alone: they replay by it
BALANCED_FIRST: tuple[tuple[str, str], ...] = (
    ("dominoes", "double-9"),
    ("attacker_income", "7"),
    ("defender_income", "2"),
    ("buying", "look"),
    ("match_bombing", "on"),
    ("bridge_speed", "2"),
)
VARIANT = Choice(
    "variant",
    "the rulebook's game or the balanced one",
    choices=(
        ("rulebook", "the game as written"),
        ("balanced", "either side can win: the attacker earns more, the game is longer"),
    ),
    default="rulebook",
    note=(
        "(as written, a defender who keeps its coins cannot lose; balanced sets "
        + ", ".join(f"{k} {v}" for k, v in BALANCED)
        + ": when it was chosen (2026-11-28), between our hard AI players the attacker won "
        "54 % and the defender 39 %, 7 % drawn, near the 40-60 % aimed at (docs/ai.md); any of "
        "them given as well wins over it. A game "
        "stores them all, so it keeps its rules if the variant is retuned) [P]"
    ),
    presets=(("balanced", BALANCED),),
    formerly=(("balanced", BALANCED_FIRST),),
)

OPTIONS = (
    VARIANT,
    DOMINOES,
    ATTACKER_INCOME,
    DEFENDER_INCOME,
    DOMINO_PRICE,
    BUYING,
    INTERCHANGEABLE,
    SECRET_PILOTS,
    MATCH_BOMBING,
    RECYCLE,
    BRIDGE_SPEED,
)

#: options no game can play together, and why
CLASHES: tuple[tuple[str, str, str], ...] = (
    (
        "secret_pilots",
        "match_bombing",
        "a plane names its target by a number it shares with the section, which would "
        "show the face-down pilot",
    ),
)


@dataclass(frozen=True)
class Rules:
    """The rules one game is played by: the rulebook's unless its options said otherwise."""

    dominoes: int = 6  # the set's highest end: double-six or double-nine
    attacker_income: int = 3
    defender_income: int = 3
    price: int = 2
    buying: str = RESERVE
    interchangeable: bool = False
    secret_pilots: bool = False
    match_bombing: bool = False
    recycle: bool = False
    speed: int = 1  # spaces a soldier moves on the bridge a turn

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Rules:
        """The rules from a game's options, read by their specs; a clash is refused,
        naming both options."""
        for one, other, why in CLASHES:
            if options[one] and options[other]:
                raise BadOptions(f"{one} and {other} cannot be played together: {why}.")
        return cls(
            dominoes=int(options["dominoes"].removeprefix("double-")),
            attacker_income=options["attacker_income"],
            defender_income=options["defender_income"],
            price=options["domino_price"],
            buying=options["buying"],
            interchangeable=options["interchangeable"],
            secret_pilots=options["secret_pilots"],
            match_bombing=options["match_bombing"],
            recycle=options["recycle"],
            speed=options["bridge_speed"],
        )

    def income(self, seat: int) -> int:
        """Coins ``seat`` takes at the start of its turn (the attacker is seat 0)."""
        return self.defender_income if seat else self.attacker_income

    @property
    def set(self) -> tuple[Domino, ...]:
        """Every domino of the set, in a fixed order (the pool is a shuffle of it)."""
        return domino_set(self.dominoes)

    def to_dict(self) -> dict[str, Any]:
        """Only what differs from the rulebook: a rulebook game's JSON has no rules at all."""
        return {k: v for k, v in asdict(self).items() if v != getattr(RULEBOOK, k)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        return cls(**(data or {}))


RULEBOOK = Rules()
