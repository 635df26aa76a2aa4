"""League formats: the organiser's choices, checked, and the one way to get a round.

``round-robin`` and ``double-round-robin`` fix the whole schedule at the start;
``swiss`` and ``rotating`` pair each round from the results so far, so they can take
late joiners. Every format hands out rounds through :func:`next_round`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.domain.leagues.pairing import round_robin, round_robin_round, swiss_round
from bot.domain.leagues.results import Result
from bot.domain.leagues.rounds import Round
from bot.domain.leagues.standings import (
    AVERAGE_PLACE,
    BUCHHOLZ,
    BUCHHOLZ_CUT1,
    GAME_SCORE,
    HEAD_TO_HEAD,
)
from bot.domain.leagues.tables import rotating_round, table_sizes

ROUND_ROBIN = "round-robin"
DOUBLE_ROUND_ROBIN = "double-round-robin"
SWISS = "swiss"
ROTATING = "rotating"
FORMATS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, ROTATING)


class BadLeague(ValueError):
    """League settings that cannot be played, with a sentence saying why."""


@dataclass(frozen=True)
class Format:
    """How a league is played.

    ``smallest``/``largest`` are the game's player counts; ``table_size`` is 2 for
    the two-player formats and the organiser's choice (3–6) for rotating tables;
    ``rounds`` is the organiser's choice for Swiss and rotating tables (None: the
    default in :meth:`round_count`) and fixed by the player count for round robins.
    """

    name: str
    smallest: int
    largest: int
    table_size: int = 2
    rounds: int | None = None

    def __post_init__(self) -> None:
        if self.name not in FORMATS:
            raise BadLeague(f"There is no league format {self.name!r}; try {', '.join(FORMATS)}.")
        if self.name == ROTATING:
            if not 3 <= self.table_size <= 6:
                raise BadLeague("Rotating tables seat 3 to 6 players.")
            if not self.smallest <= self.table_size <= self.largest:
                raise BadLeague(
                    f"This game seats {self.smallest}–{self.largest}, not {self.table_size}."
                )
        else:
            if self.table_size != 2 or not self.smallest <= 2 <= self.largest:
                raise BadLeague(f"A {self.name} league needs a two-player game.")
            if self.rounds is not None and self.name != SWISS:
                raise BadLeague("A round robin's length is set by its number of players.")
        if self.rounds is not None and self.rounds < 1:
            raise BadLeague("A league needs at least one round.")

    @property
    def late_joiners(self) -> bool:
        """Whether players may join after the start (from the next round)."""
        return self.name in (SWISS, ROTATING)

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The published tie-breaks, in the order they apply, after points."""
        if self.name == ROTATING:
            return (AVERAGE_PLACE, GAME_SCORE)
        if self.name == SWISS:
            return (HEAD_TO_HEAD, BUCHHOLZ, BUCHHOLZ_CUT1, AVERAGE_PLACE, GAME_SCORE)
        return (HEAD_TO_HEAD, AVERAGE_PLACE, GAME_SCORE)

    def round_count(self, players: int) -> int:
        """How many rounds a league starting with ``players`` plays.

        Swiss defaults to ceil(log2(players)), enough to leave one unbeaten player;
        rotating tables to ceil((players-1)/(table_size-1)), the fewest rounds in
        which a player could meet everyone else once.
        """
        if self.name == ROTATING:
            try:
                table_sizes(players, self.table_size, self.smallest_table, self.largest_table)
            except ValueError as error:
                raise BadLeague(str(error)) from None
            return self.rounds or math.ceil((players - 1) / (self.table_size - 1))
        if players < 2:
            raise BadLeague("A league needs at least two players.")
        if self.name == SWISS:
            return self.rounds or math.ceil(math.log2(players))
        games = players - 1 if players % 2 == 0 else players
        return games * (2 if self.name == DOUBLE_ROUND_ROBIN else 1)

    @property
    def smallest_table(self) -> int:
        """Rotating tables may seat one fewer where the count does not divide..."""
        return max(self.smallest, self.table_size - 1)

    @property
    def largest_table(self) -> int:
        """...or one more, within what the game allows."""
        return min(self.largest, self.table_size + 1)


def schedule(fmt: Format, players: Sequence[int], seed: int) -> tuple[Round, ...]:
    """A round robin's whole schedule, for ``/league schedule`` before it is played."""
    if fmt.name not in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        raise BadLeague("Only a round robin is scheduled in advance.")
    return round_robin(players, seed, fmt.name == DOUBLE_ROUND_ROBIN)


def next_round(
    fmt: Format,
    history: Sequence[Result],
    players: Sequence[int],
    dropped: Collection[int],
    number: int,
    seed: int,
) -> Round:
    """Round ``number`` (from 1), given every result so far.

    ``players`` is everyone who has ever entered, in seeding order (sign-up order,
    or by rating); ``dropped`` those who have left since the start. Dropped-out
    players are never paired again; a round robin turns their scheduled games into
    forfeits. ``seed`` is the league's, the same for every round.
    """
    gone = set(dropped)
    active = [p for p in players if p not in gone]
    if fmt.name == SWISS:
        return swiss_round(history, active, number)
    if fmt.name == ROTATING:
        try:
            return rotating_round(
                history,
                active,
                number,
                seed,
                fmt.table_size,
                fmt.smallest_table,
                fmt.largest_table,
            )
        except ValueError as error:
            raise BadLeague(str(error)) from None
    return round_robin_round(players, gone, number, seed, fmt.name == DOUBLE_ROUND_ROBIN)
