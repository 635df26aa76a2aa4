"""Who may do what to a game: the fair-play rules the player's guide states, as plain
functions every feature asks (starting and calling off, extending, handing a seat on).
"""

from __future__ import annotations

from bot.service.games import Loaded, effective_moves
from bot.service.inputs import Refused
from bot.service.replies import Caller
from bot.store import Store


def manager_of(game: Loaded, caller: Caller, what: str) -> None:
    """Refused unless the caller opened the game or manages the server."""
    if caller.user_id != game.row.creator_id and not caller.manager:
        raise Refused(f"Only the player who opened the game (or a server manager) can {what}.")


def referee(game: Loaded, caller: Caller) -> bool:
    """A server manager with no seat in the game: the only one who may change a rated
    game's seats or outcome against its players' will, as nothing is at stake for them."""
    return caller.manager and game.seat_of(caller.user_id) is None


async def at_stake(store: Store, game: Loaded) -> bool:
    """Whether a rated result is taking shape: a rated game in which every player has
    made a move of their own. Before that somebody never engaged, and calling the game
    off or handing a seat on takes nothing from anyone."""
    if game.row.status == "lobby" or not await store.is_rated(game.row.id):
        return False
    log = effective_moves(await store.moves(game.row.id))
    return {m.seat for m in log if m.kind == "move"} == set(range(len(game.seats)))


async def may_replace(store: Store, game: Loaded, caller: Caller, old_user: int) -> None:
    """Who may hand ``old_user``'s seat on. In the lobby, its owner (creator or
    manager). Once the game has started a seat is its player's: they may hand it on
    themselves, or a server manager with no seat may; a creator can no longer swap an
    opponent for a second account of their own. In a league match, or once a rated
    result is taking shape, a player's own hand-over could pass a result to someone
    else, so only that manager."""
    if game.state is None:
        manager_of(game, caller, "replace a player")
        return
    if referee(game, caller):
        return
    if await store.league_match_of(game.row.id) is not None:
        # the league's pairings and standings name its members: nobody sends a stand-in
        raise Refused(
            "This is a league match: its seats are the league's pairing, so only a server "
            "manager who is not playing in it can hand one on. To leave, use `/game resign`."
        )
    if caller.user_id != old_user:
        raise Refused(
            "The game has started, so a seat is its player's: only they can hand it on "
            "(`/game replace player:<themselves> by:<someone>`), or a server manager "
            "who is not playing in this game."
        )
    if await at_stake(store, game):
        raise Refused(
            "This rated game is under way (every player has moved), so your seat and "
            "its result stay yours: to stop, use `/game resign`, or ask a server "
            "manager who is not playing in it to hand your seat on."
        )
