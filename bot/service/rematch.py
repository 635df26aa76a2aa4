"""After the game: the same players again, in the same channel, once all of them agree.

The final board carries a Rematch button; each person seated in the finished game
clicks it (AI players always agree). When the last one does, the new game opens and
starts at once, with the same options, clocks and rating, the loser first: seat order
decides who moves first in games whose rules leave it open.

A rematch is agreed once, for one new game: opening it is one transaction (the last
agreement, the game, its seats, its start, and the mark that the rematch is used), so a
crash leaves either no rematch or a whole started one, and the old button afterwards
only says where the rematch went. A click refused (a busy channel) notes nothing. The
first ask pings the players still to agree, once; asking again says so, privately.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.service.inputs import Refused
from bot.service.lobby import Lobby
from bot.service.marks import press
from bot.service.replies import Caller, Reply, Table
from bot.store import GameRow, SeatRow, StaleGame

#: a click refused, noting nothing, while the channel plays another game
BUSY = "This channel has a game going already: the rematch cannot open here."


def _waiting_for(waiting: Sequence[SeatRow]) -> str:
    """``Bob clicks **Rematch**`` / ``Bob, Cy click **Rematch**``: who the rematch still
    waits for, and what they do (marked: the terminal types it)."""
    return f"{', '.join(s.name for s in waiting)} {press('Rematch', one=len(waiting) == 1)}"


class Rematch:
    """Rematches: agreed once by every person seated, opened through the lobby."""

    def __init__(self, lobby: Lobby) -> None:
        self.store = lobby.store
        self.lobby = lobby

    async def agree(self, table: Table, caller: Caller, game_id: int | None = None) -> Reply:
        """The caller agrees to play ``game_id`` (a button's), or the table's last game,
        again; the rematch opens, started, once everyone seated has."""
        row = await (
            self.store.game(game_id) if game_id else self.store.latest_game(table.channel_id)
        )
        if row is None or row.status != "finished":
            raise Refused("Only a finished game can be played again.")
        seats = await self.store.seats(row.id)
        people = [s for s in seats if s.ai is None]
        if all(s.user_id != caller.user_id for s in people):
            raise Refused("Only the game's players can ask for a rematch.")
        asked = await self.store.rematch(row.id)
        if asked.opened is not None:
            raise Refused(await self._opened_already(row.id))
        waiting = [s for s in people if s.user_id not in asked.agreed | {caller.user_id}]
        if caller.user_id in asked.agreed and waiting:
            names = ", ".join(s.name for s in waiting)
            raise Refused(f"You have already asked; waiting for {names}.")
        if await self.store.live_game(row.channel_id) is not None:
            raise Refused(BUSY)
        if waiting:
            try:
                agreed = await self.store.agree_rematch(row.id, caller.user_id)
            except StaleGame:  # opened by another click at that moment
                raise Refused(await self._opened_already(row.id)) from None
            waiting = [s for s in people if s.user_id not in agreed]
            if waiting:  # (else the others agreed meanwhile: this click completes it)
                return self._asked(row, caller, waiting, first=agreed == {caller.user_id})
        return await self._open(row, seats, caller)

    def _asked(self, row: GameRow, caller: Caller, waiting: list[SeatRow], *, first: bool) -> Reply:
        """The public answer to an agreement the rematch still waits on: the first pings
        everyone still to agree, once, as a plain message (so a phone's notification
        carries its words); a later one tells the channel without pinging again."""
        if first:
            text = f"{caller.name} wants a rematch. It starts when {_waiting_for(waiting)} too."
        else:
            text = f"{caller.name} wants a rematch too. It starts when {_waiting_for(waiting)}."
        mentions = tuple(s.user_id for s in waiting) if first else ()
        return Reply(text=text, mentions=mentions, game_id=row.id, rematch=True)

    async def _opened_already(self, game_id: int) -> str:
        """What the old button says once the rematch of ``game_id`` exists: where it went."""
        opened = (await self.store.rematch(game_id)).opened
        new = None if opened is None else await self.store.game(opened)
        if new is None:  # (never: the mark and the game are stored together)
            return "This game's rematch has just been opened."
        done = "played" if new.status in ("finished", "abandoned") else "opened"
        return f"This game's rematch has already been {done} (#{new.id})."

    async def _open(self, row: GameRow, seats: list[SeatRow], caller: Caller) -> Reply:
        """The last agreement: the new game opens started, in one transaction with the
        agreement and the mark that this game's rematch is used (:meth:`open_game`)."""
        # the loser first; a person opens it, so it has someone to manage it
        order = sorted(seats, key=lambda s: (-(s.place or 0), s.seat))
        opener = next(s for s in order if s.ai is None)
        order = [opener, *(s for s in order if s is not opener)]
        try:
            new_id = await self.lobby.open_game(
                Table(row.channel_id, row.guild_id),
                [Caller(s.user_id, s.name) for s in order],
                row.game_key,
                row.options,
                clocks=await self.store.clocks(row.id),
                rated=await self.store.is_rated(row.id),
                levels=[s.ai for s in order],
                rematch=(row.id, caller.user_id),
            )
        except StaleGame:
            if (await self.store.rematch(row.id)).opened is not None:
                raise Refused(await self._opened_already(row.id)) from None
            raise Refused(BUSY) from None
        started = await self.lobby.opening(new_id, mention=True)
        return replace(started, text=f"**Rematch!** {started.text}")
