"""AI seats: computer players that fill a table, move by themselves, and never cheat.

An AI seat is a seat like any other (its user id negative, its level stored with it):
it is awaited, timed and told of nothing. Its moves come from the play-by-post timers
(:class:`bot.service.timers.Timers`, a few seconds after its turn begins, so a restart
loses none) and go through :meth:`Play.move`, the path a person's move takes: the same
checks, the same transaction, the same announcement. What it decides from is its own
seat's view and legal moves (:mod:`bot.processes.thinking`), never the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.processes.thinking import think
from bot.service.context import Context
from bot.service.fair_play import manager_of, may_replace
from bot.service.games import Games, seated
from bot.service.inputs import Refused, shown
from bot.service.play import Play
from bot.service.replies import Caller, Reply, Table
from bot.store import SeatRow, StaleGame
from engine.ai import LEVELS

#: what AI players are called: engineers of great bridges, one name per AI seat at a table
AI_NAMES = ("Telford", "Brunel", "Roebling", "Eiffel", "Ammann", "Strauss")
DEFAULT_LEVEL = "normal"


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise Refused(f"level: {shown(level)} is not an AI level; choose {', '.join(LEVELS)}.")
    return level


def ai_identity(seats: Sequence[SeatRow], level: str) -> tuple[int, str]:
    """A user id no person has (negative, new to this game) and a name that says AI
    first, where a board that shortens long names still shows it."""
    user_id = min([0, *(s.user_id for s in seats)]) - 1
    index = sum(s.ai is not None for s in seats)
    return user_id, f"AI {AI_NAMES[index % len(AI_NAMES)]} ({level})"


class Seats:
    """Adding AI players to a lobby, handing a seat to one, and their moves."""

    def __init__(self, context: Context, games: Games, play: Play) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.play = play

    async def add_ai(self, table: Table, caller: Caller, level: str = DEFAULT_LEVEL) -> Reply:
        """Seat an AI player at ``level`` in the lobby; whoever may start the game may."""
        check_level(level)
        game = await self.games.live(table)
        if game.row.status != "lobby":
            raise Refused("The game has started: an AI can take over a seat with `/game replace`.")
        manager_of(game, caller, "add an AI player")
        info = game.rules.info
        if len(game.seats) >= info.max_players:
            raise Refused(f"The game is full ({info.max_players} players).")
        user_id, name = ai_identity(game.seats, level)
        try:
            await self.store.join(game.row.id, game.row.version, user_id, name, ai=level)
        except StaleGame:
            raise Refused("The lobby changed at that moment; please try again.") from None
        names = [*game.names, name]
        return Reply(
            text=f"{name} joined. Players: {', '.join(names)}. AI players are never rated.",
            changed=(game.row.id,),
        )

    async def hand_to_ai(
        self, table: Table, caller: Caller, old_user: int, level: str = DEFAULT_LEVEL
    ) -> Reply:
        """Hand a person's seat to an AI player (a player who left, a league table one
        short), under the rules of :meth:`replace_player`; the game stays unrated."""
        check_level(level)
        game = await self.games.live(table)
        await may_replace(self.store, game, caller, old_user)
        seat = game.seat_of(old_user)
        if seat is None:
            raise Refused("That user is not playing in this game.")
        if not any(s.ai is None for s in game.seats if s.seat != seat):
            raise Refused(
                "That would leave only AI players, with nobody to watch: call the game off "
                "with `/game abandon` instead."
            )
        user_id, name = ai_identity(game.seats, level)
        try:
            await self.store.replace_player(
                game.row.id, game.row.version, seat, user_id, name, ai=level
            )
        except StaleGame:
            raise Refused("The game changed at that moment; please try again.") from None
        by = "" if caller.user_id == old_user else f" {caller.name} made the change."
        if game.state is not None and seat in game.position.awaited:
            self.context.ai_awaited(game.row.id, game.row.version)
        return Reply(
            text=f"{name} takes over seat {seat + 1} from {game.names[seat]}.{by}",
            changed=(game.row.id,),
        )

    async def ai_move(
        self,
        table: Table,
        caller: Caller,
        expect: tuple[int, int] | None = None,
        *,
        announce: str | None = None,
    ) -> Reply:
        """The AI seat ``caller`` plays its move, decided from its own view only.

        It thinks outside the channel's lock (nobody waits on it), then plays through
        :meth:`Play.move` with the version it read: if anyone moved meanwhile, it is refused
        like a stale button, and its timer brings it back to the new position."""
        game = await self.games.active(table, expect)
        seat = seated(game, caller)
        level = game.seats[seat].ai
        if level is None:
            raise Refused(f"{caller.name} is not an AI player.")
        if seat not in game.position.awaited:
            raise Refused("It is not this AI player's turn.")
        view = game.rules.view(game.state, seat)
        legal = game.rules.legal(game.state, seat)
        # the AI's own chance, never drawn from the game's seed (which deals the deck)
        chance = self.context.ai_seed()
        action = await think(self.context.thinkers, game.row.game_key, view, legal, level, chance)
        expect = (game.row.id, game.row.version)
        return await self.play.move(
            table, caller, game.rules.format(action), expect, announce=announce
        )

    async def waiting_ai(self, table: Table) -> Caller | None:
        """The AI seat this table's game waits for now, if any (the terminal plays it at
        once; on Discord its timer does, after its pause)."""
        try:
            game = await self.games.live(table)
        except Refused:  # no game here
            return None
        if game.state is None:
            return None
        seat = next((s for s in game.position.awaited if game.seats[s].ai is not None), None)
        return None if seat is None else Caller(game.seats[seat].user_id, game.seats[seat].name)
