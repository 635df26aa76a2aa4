"""The application layer: what a player can ask of Bridgekeeper, with no Discord in it.

Front ends (the Discord cogs, the terminal, the web pages) turn their input into calls of a feature,
``service.<feature>.<action>``, and show the :class:`Reply` they get back. A request the
rules or the lobby do not allow raises :class:`Refused` with a sentence for the asker
only; a refusal never changes anything. A move is checked by the engine, then logged and
stored in one transaction.

One object per feature, each over one :class:`~bot.service.context.Context` and the
features it names in its constructor: ``lobby``, ``play``, ``undo``, ``seats`` (AI
players), ``postal`` (play by post), ``looking``, ``pages`` (a game's page on the web),
``listings`` (the league, daily, player and server pages), ``ratings``, ``rematch``,
``daily`` (the daily challenge), ``timers`` (what falls due: reminders, deadlines, AI
moves) and the ``leagues`` package's three (sign-up, rounds, tables). They share
``games`` (finding and loading a game) and ``answers`` (boards, posts, turn notices);
``fair_play`` holds who may do what, as plain functions; ``heads_up`` says who hears
they are next as a turn begins; ``pings`` words every notice about a turn; ``changes``
tells who watches a game live that it moved; the values front ends trade with it are in
``replies``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from bot.processes.drawing import Drawers
from bot.processes.thinking import Thinkers
from bot.service.answers import BOARD_LOST, Answers
from bot.service.context import LEASE, Context, random_seed
from bot.service.daily import Daily
from bot.service.games import Games, Loaded, effective_moves, rebuild, solo_attempt
from bot.service.inputs import Refused
from bot.service.leagues import (
    LeagueBook,
    LeagueRounds,
    Leagues,
    LeagueTables,
    OpenTable,
    numbered_tables,
)
from bot.service.listings import Listings
from bot.service.lobby import POLICIES, Lobby
from bot.service.looking import Looking
from bot.service.pages import Pages
from bot.service.picker import Picked
from bot.service.play import NOT_OFFERED, Play
from bot.service.postal import NOTIFY, Postal
from bot.service.ratings import Ratings
from bot.service.rematch import Rematch
from bot.service.replies import (
    Caller,
    Offer,
    Reply,
    StatusCard,
    Table,
    default_link,
    ordinal,
    player_count,
    seen_away,
    statuses,
    waited_for,
)
from bot.service.seats import Seats
from bot.service.sessions import Sessions
from bot.service.timers import Timers
from bot.service.undo import Undo
from bot.store import Store


class Service:
    """Every request a front end can make, one feature object each, over one store.
    One instance per process. The arguments are :class:`Context`'s."""

    def __init__(
        self,
        store: Store,
        *,
        images: bool = True,
        link: Callable[[Table], str] = default_link,
        seed: Callable[[], int] = random_seed,
        ai_seed: Callable[[], int] = random_seed,
        drawers: Drawers | None = None,
        thinkers: Thinkers | None = None,
        on_ai_waiting: Callable[[float], None] | None = None,
        open_table: OpenTable = numbered_tables,
        timer_lease: timedelta = LEASE,
    ) -> None:
        """``open_table`` makes the place a league match is played in (a thread on
        Discord); ``timer_lease`` is how long a due wait this process claims stays its
        own (:class:`Timers`)."""
        self.context = context = Context(
            store, images, link, seed, ai_seed, drawers, thinkers, on_ai_waiting
        )
        self.store = store
        self.games = Games(context)
        answers = Answers(context)
        self.lobby = Lobby(context, self.games, answers)
        self.play = Play(context, self.games, answers)
        self.undo = Undo(context, self.games, answers)
        self.seats = Seats(context, self.games, self.play)
        self.postal = Postal(context, self.games, answers)
        self.pages = Pages(context, self.games, answers, self.play)
        self.sessions = Sessions(context)
        self.looking = Looking(context, self.games, answers, self.pages)
        self.ratings = Ratings(context)
        self.rematch = Rematch(self.lobby)
        self.daily = Daily(context, self.games, self.lobby, self.pages)
        self.timers = Timers(context, self.play, self.seats, self.looking, timer_lease)
        book = LeagueBook(context)
        self.leagues = Leagues(context, book, self.play)
        self.league_tables = LeagueTables(book, self.pages)
        self.league_rounds = LeagueRounds(context, book, self.lobby, self.league_tables, open_table)
        self.listings = Listings(self.pages, self.games, self.league_tables, self.daily)
        #: boards and posts, for a front end that shows a position itself
        self.answers = answers


__all__ = [
    "BOARD_LOST",
    "LEASE",
    "Caller",
    "Context",
    "Loaded",
    "NOTIFY",
    "NOT_OFFERED",
    "Offer",
    "POLICIES",
    "Picked",
    "Refused",
    "Reply",
    "Service",
    "StatusCard",
    "Table",
    "default_link",
    "effective_moves",
    "ordinal",
    "player_count",
    "rebuild",
    "seen_away",
    "solo_attempt",
    "statuses",
    "waited_for",
]
