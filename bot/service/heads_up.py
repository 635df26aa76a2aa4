"""The "you're next" heads-up: told to a player who asked for it (``/settings
heads_up:on``) when the player before them in turn order begins their turn.

Only where "next" means something: a game that names the next seat (``up_next``, from
its own turn order), three players or more (with two, the other's turn always follows
yours, which you have just played), a turn of the player's own (never a reaction
window), and people on both sides (an AI plays within seconds, and is told nothing).
The store queues it at most once a turn of the one told
(:meth:`bot.store.interface.Games.record`). No Discord here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.service.answers import Told
from bot.service.games import Loaded
from bot.service.notify import routes
from bot.service.pings import game_label, you_are_next
from bot.store import Settings, iso
from engine.core import Step

#: what a heads-up is: (user, via, text, due at), as the store queues it
HeadsUp = tuple[int, str, str, str]


async def heads_ups(
    game: Loaded,
    step: Step,
    already: Sequence[int],
    mover: int | None,
    settings_of: Callable[[int], Awaitable[Settings]],
    now: datetime,
    happened: str | None,
    told: Told,
) -> list[HeadsUp]:
    """The heads-up ``step`` brings, if it begins a turn: for the player after the one
    whose turn it begins, if they asked. ``already`` are the users awaited before it,
    ``mover`` the seat that acted (None: the game's start), ``happened`` what it did,
    ``told`` how the player whose turn it begins is told (with their deadline). One
    notice, the DM where the player's notices include DMs (held through their quiet
    hours), else a mention; it says what was played and until when the turn may run."""
    if game.row.guild_id is None or len(game.seats) < 3 or step.over or step.reaction_open:
        return []
    if len(step.awaited) != 1:
        return []
    (playing,) = step.awaited
    nxt = game.rules.up_next(step.state)
    if nxt is None or nxt in (playing, mover):
        return []
    now_playing, nxt_seat = game.seats[playing], game.seats[nxt]
    if now_playing.user_id in already or now_playing.is_ai or nxt_seat.is_ai:
        return []
    settings = await settings_of(nxt_seat.user_id)
    if not settings.heads_up:
        return []
    ways = dict(routes(settings, now))
    via = "dm" if "dm" in ways else next(iter(ways), None)
    if via is None:
        return []
    label = game_label(game.row.game_key, game.row.id)
    due = told.deadlines.get(now_playing.user_id)
    text = you_are_next(label, happened, now_playing.name, due)
    return [(nxt_seat.user_id, via, text, iso(ways[via]))]
