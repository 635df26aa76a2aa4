"""After the game: the same players again, in the same channel, once all of them agree.

The final board carries a Rematch button; each person seated in the finished game
clicks it (AI players always agree). When the last one does, the new game opens and
starts at once, with the same options, clocks and rating, the loser first: seat order
decides who moves first in games whose rules leave it open.
"""

from __future__ import annotations

from dataclasses import replace

from bot.inputs import Refused
from bot.marks import press
from bot.service.lobby import Lobby
from bot.service.replies import Caller, Reply, Table
from bot.store import StaleGame


class Rematch(Lobby):
    async def rematch(self, table: Table, caller: Caller, game_id: int | None = None) -> Reply:
        """The caller agrees to play ``game_id`` (a button's), or the table's last game,
        again; the rematch starts once everyone seated has."""
        row = await (
            self.store.game(game_id) if game_id else self.store.latest_game(table.channel_id)
        )
        if row is None or row.status != "finished":
            raise Refused("Only a finished game can be played again.")
        game_id = row.id
        seats = await self.store.seats(game_id)
        people = [s for s in seats if s.ai is None]
        if all(s.user_id != caller.user_id for s in people):
            raise Refused("Only the game's players can ask for a rematch.")
        agreed = await self.store.agree_rematch(game_id, caller.user_id)
        waiting = [s.name for s in people if s.user_id not in agreed]
        if waiting:
            return Reply(
                text=(
                    f"{caller.name} wants a rematch. It starts when {', '.join(waiting)} "
                    f"{press('Rematch')} too."
                ),
                game_id=game_id,
                rematch=True,
            )
        if await self.store.live_game(row.channel_id) is not None:
            raise Refused("This channel has a game going already: the rematch cannot open here.")
        # the loser first; a person opens it, so it has someone to manage it
        order = sorted(seats, key=lambda s: (-(s.place or 0), s.seat))
        opener = next(s for s in order if s.ai is None)
        try:
            new_id = await self.store.create_game(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game_key=row.game_key,
                options=row.options,
                seed=self._seed(),
                creator_id=opener.user_id,
                creator_name=opener.name,
                clocks=await self.store.clocks(game_id),
                rated=await self.store.is_rated(game_id),
            )
            for version, seat in enumerate(s for s in order if s is not opener):
                await self.store.join(new_id, version, seat.user_id, seat.name, ai=seat.ai)
        except StaleGame:
            raise Refused("The rematch has just been opened.") from None
        started = await self.start(table, Caller(opener.user_id, opener.name))
        return replace(started, text=f"**Rematch!** {started.text}")
