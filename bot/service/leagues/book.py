"""What every league feature shares: :class:`LeagueBook` (finding a league, who may run it,
its lease), and how a league's format and scoring are read from its row.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from fractions import Fraction

import engine
from bot.domain.leagues.formats import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    Format,
)
from bot.domain.leagues.results import Result, Scoring, bye, forfeit, played, show
from bot.domain.leagues.standings import (
    AVERAGE_PLACE,
    BUCHHOLZ,
    BUCHHOLZ_CUT1,
    GAME_SCORE,
    HEAD_TO_HEAD,
)
from bot.service.context import LEASE, Context
from bot.service.inputs import (
    SHOWN,
    Refused,
    check_text,
)
from bot.service.replies import Caller, Table, ordinal
from bot.store import Fence, LeagueRow, Match

log = logging.getLogger(__name__)


LEAGUE_NAME = 60  # characters: it heads every match thread's title, which Discord cuts at 100


#: where a match is played: (league, match id, title) -> a fresh channel or thread
OpenTable = Callable[[LeagueRow, int, str], Awaitable[Table]]


async def numbered_tables(league: LeagueRow, match_id: int, title: str) -> Table:
    """A place per match with no Discord about (the terminal, tests)."""
    return Table(channel_id=10_000_000 + match_id, guild_id=league.guild_id)


TIEBREAK_LABELS = {  # short: the standings image must read on a phone
    HEAD_TO_HEAD: "H2H",
    BUCHHOLZ: "Buch",
    BUCHHOLZ_CUT1: "Cut1",
    AVERAGE_PLACE: "Avg",
    GAME_SCORE: "Score",
}


def cell(value: object) -> str:
    if value is None:
        return "–"
    return show(value) if isinstance(value, Fraction) else str(value)


def league_format(league: LeagueRow) -> Format:
    """The league's format; a round robin's stored round count is its own, not a choice."""
    info = engine.get(league.game_key).info
    fixed = league.format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
    rounds = None if fixed else league.rounds
    return Format(league.format, info.min_players, info.max_players, league.table_size, rounds)


def progress(league: LeagueRow, matches: list[Match]) -> str:
    """How far the season is, for a standings title: a round still being played is not
    counted as done, so the table never claims results that are not in yet."""
    total = league.rounds or "?"
    if league.status == "open" or league.round == 0:
        return "before round 1"
    playing = any(not m.settled for m in matches if m.round == league.round)
    if not playing:
        return f"after round {league.round} of {total}"
    if league.round == 1:
        return f"with round 1 of {total} in play"
    return f"after round {league.round - 1} of {total}, round {league.round} in play"


def league_scoring(league: LeagueRow) -> Scoring:
    return Scoring(league.points, league.bye_points)


def match_result(match: Match, scoring: Scoring) -> Result:
    if match.kind == "bye":
        return bye(match.round, match.players[0], scoring)
    if match.kind == "forfeit":
        return forfeit(match.round, match.players, match.forfeiting, scoring)
    assert match.places is not None and match.scores is not None  # a played match, settled
    return played(match.round, match.players, match.places, match.scores, scoring)


def finishing_order(names: list[str], places: Sequence[int]) -> str:
    """``1st Bob · 2nd Ada``, best first; a shared place is marked, as in ``=2nd``."""
    shared = {p for p in places if list(places).count(p) > 1}
    ranked = sorted(zip(places, names, strict=True), key=lambda pair: pair[0])
    return " · ".join(f"{'=' if p in shared else ''}{ordinal(p)} {n}" for p, n in ranked)


class LeagueBook:
    """The look-ups every league feature uses, and what this process keeps of leagues:
    the lock each league's steps take here, and why a stalled one could not go on."""

    def __init__(self, context: Context) -> None:
        self.store = context.store
        self.holder = context.holder
        #: league id -> the error it last could not go on for
        #: (:meth:`~bot.service.leagues.rounds.LeagueRounds.tick`)
        self.stalls: dict[int, str] = {}
        #: league id -> the lock its steps take in this process: a lease is the process's,
        #: so it would not keep a /league start off the minute's pass of the same process
        self._locks: dict[int, asyncio.Lock] = {}

    def lock_of(self, league_id: int) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    async def hold(self, league_id: int) -> bool:
        """Take (or renew) the league's lease: one process at a time steps a league, of
        all those sharing the database, and one that dies holding it leaves it to the
        next when it runs out."""
        until = self.store.clock() + LEASE
        return await self.store.take_lease(f"league:{league_id}", self.holder, until)

    def fence(self, league_id: int) -> Fence:
        """The league's lease, for a write of its step to check and renew in its own
        transaction: a process that held it past its time has that write refused."""
        return Fence(f"league:{league_id}", self.holder, self.store.clock() + LEASE)

    async def let_go(self, league_id: int) -> None:
        await self.store.drop_lease(f"league:{league_id}", self.holder)

    async def league(self, guild_id: int | None, name: str) -> LeagueRow:
        wanted = check_text(name.strip(), "A league's name")
        league = await self.store.league(guild_id or 0, wanted)
        if league is None:
            raise Refused(f"There is no league called '{name[:SHOWN]}' in this server.")
        return league

    async def may_organise(self, guild_id: int | None, caller: Caller) -> bool:
        role = await self.store.organiser_role(guild_id or 0)
        return caller.manager or (role is not None and role in caller.roles)
