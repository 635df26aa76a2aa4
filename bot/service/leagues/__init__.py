"""Leagues run by the bot: sign-up, rounds of real games, results, standings.

The pairing and scoring rules are pure (``bot.domain.leagues``); this package keeps a league's
life in the store and plays its matches as ordinary games through the lobby. Rounds
move on in :meth:`LeagueRounds.tick`, the same once-a-minute pass that runs deadlines:
finished games are settled, a round past its deadline is settled by forfeits, and the
next round (or the end of the season) follows. Every step is recorded before the next,
so a restart carries on where it stopped. No Discord here: a front end says where a
match is played by giving ``open_table`` (a thread on Discord).

Three features over one :class:`LeagueBook`: ``signup`` (:class:`Leagues`: creating,
joining, leaving), ``rounds`` (:class:`LeagueRounds`: starting and stepping seasons)
and ``tables`` (:class:`LeagueTables`: standings, schedule, results).
"""

from bot.service.leagues.book import LeagueBook, OpenTable, finishing_order, numbered_tables
from bot.service.leagues.rounds import LeagueRounds
from bot.service.leagues.signup import Leagues
from bot.service.leagues.tables import LeagueTables

__all__ = [
    "LeagueBook",
    "LeagueRounds",
    "LeagueTables",
    "Leagues",
    "OpenTable",
    "finishing_order",
    "numbered_tables",
]
