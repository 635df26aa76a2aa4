"""Leagues run by the bot: sign-up, rounds of real games, results, standings.

The pairing and scoring rules are pure (``bot.leagues``); this module keeps a league's
life in the store and plays its matches as ordinary games through the service. Rounds
move on in :meth:`Organiser.tick`, the same once-a-minute pass that runs deadlines:
finished games are settled, a round past its deadline is settled by forfeits, and the
next round (or the end of the season) follows. Every step is recorded before the next,
so a restart carries on where it stopped. No Discord here: a front end says where a
match is played by giving ``open_table`` (a thread on Discord).

One module per part: ``signup``, ``rounds`` and ``looking``, over ``base``.
"""

from bot.organiser.base import OpenTable, finishing_order, numbered_tables
from bot.organiser.looking import Looking
from bot.organiser.rounds import Rounds
from bot.organiser.signup import SignUp


class Organiser(SignUp, Rounds, Looking):
    """Every league request and the leagues' share of the minute tick."""


__all__ = ["OpenTable", "Organiser", "finishing_order", "numbered_tables"]
