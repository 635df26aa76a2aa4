"""The application layer: what a player can ask of Bridgekeeper, with no Discord in it.

Front ends (the Discord cogs, the terminal) turn their input into calls here and show
the :class:`Reply` they get back. A request the rules or the lobby do not allow raises
:class:`Refused` with a sentence for the asker only; a refusal never changes anything.
A move is checked by the engine, then logged and stored in one transaction.

One module per feature (engine/README.md's idea, for the application layer):
``lobby``, ``play``, ``undo``, ``postal``, ``seats`` (AI players), ``looking``,
``ratings``, over ``base``; ``heads_up`` says who hears they are next as a turn begins;
``pings`` words every notice about a turn; the values front ends trade with it are in
``replies``.
"""

from bot.inputs import Refused
from bot.service.base import (
    BOARD_LOST,
    LEASE,
    Loaded,
    effective_moves,
    rebuild,
    solo_attempt,
)
from bot.service.lobby import POLICIES, Lobby
from bot.service.looking import Looking
from bot.service.play import Play
from bot.service.postal import NOTIFY, PlayByPost
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
    waited_for,
)
from bot.service.seats import Seats
from bot.service.undo import Undo


class Service(Seats, Rematch, Lobby, Play, Undo, PlayByPost, Looking, Ratings):
    """Every request a front end can make. One instance per process, over one store."""


__all__ = [
    "BOARD_LOST",
    "LEASE",
    "Caller",
    "Loaded",
    "NOTIFY",
    "Offer",
    "POLICIES",
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
    "waited_for",
]
