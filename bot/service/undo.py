"""Taking moves back: at once when nobody else has moved, else with everyone's agreement."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.answers import Answers
from bot.service.context import Context
from bot.service.games import Games, Loaded, effective_moves, rebuild, seated
from bot.service.inputs import Refused
from bot.service.replies import Caller, Reply, Table
from bot.store import MoveRecord, MoveRow, SeatRow, StaleGame, UndoRequest


def _asked(game: Loaded, standing: Sequence[MoveRow], request: UndoRequest) -> list[SeatRow]:
    """Who must agree to a take-back: every other player still in the game when the moves
    taken back were played (one who had resigned by then has no say)."""
    kept = standing[: len(standing) - request.moves]
    gone = {m.seat for m in kept if m.action == "resign"}
    return [s for s in game.seats if s.user_id != request.user_id and s.seat not in gone]


class Undo:
    """Taking moves back: at once when nobody else has moved, else with everyone's agreement."""

    def __init__(self, context: Context, games: Games, answers: Answers) -> None:
        self.context = context
        self.store = context.store
        self.games = games
        self.answers = answers

    async def ask(self, table: Table, caller: Caller) -> Reply:
        """Take back the caller's last move (and any after it, if all others agree).

        The mover may take a move back alone until the next player acts; after that a
        request waits for every other player, who agree by asking to undo too.
        """
        async with self.context.lock(table):
            game = await self.games.active(table)
            seat = seated(game, caller)
            standing = effective_moves(await self.store.moves(game.row.id))
            request = await self.store.undo_request(game.row.id)
            if request is not None and request.version == game.row.version:
                return await self._agree(game, caller, standing, request)
            mine = [i for i, m in enumerate(standing) if m.seat == seat]
            if not mine:
                raise Refused("You have no move to take back.")
            count = len(standing) - mine[-1]
            if count == 1:
                last = standing[-1]
                if last.kind == "move":
                    before = rebuild(game, standing[:-1])
                    step = game.rules.play(before, last.seat, last.action)
                    if game.rules.revealed(before, step.state, step.events):
                        raise Refused(
                            f"`{last.action}` rolled or drew something you have now seen, "
                            "so it cannot be taken back."
                        )
                return await self._take_back(game, seat, caller.user_id, standing, 1)
            request = UndoRequest(caller.user_id, count, game.row.version, frozenset())
            await self.store.put_undo_request(game.row.id, request)
            others = _asked(game, standing, request)
            return Reply(
                text=(
                    f"{caller.name} asks to take back their move `{standing[mine[-1]].action}` "
                    f"and the {count - 1} after it. "
                    f"{', '.join(s.name for s in others)}: agree with `/game undo`; "
                    "any move cancels the request."
                ),
                mentions=tuple(s.user_id for s in others),
            )

    async def _agree(
        self, game: Loaded, caller: Caller, standing: list, request: UndoRequest
    ) -> Reply:
        if caller.user_id == request.user_id:
            raise Refused("You already asked; the other players have to agree.")
        agreed = request.agreed | {caller.user_id}
        missing = [s for s in _asked(game, standing, request) if s.user_id not in agreed]
        if missing:
            await self.store.put_undo_request(
                game.row.id,
                UndoRequest(request.user_id, request.moves, request.version, agreed),
            )
            waiting = ", ".join(s.name for s in missing)
            return Reply(text=f"{caller.name} agrees. Still waiting for {waiting}.")
        asker = game.held_seat(request.user_id)
        return await self._take_back(game, asker, request.user_id, standing, request.moves)

    async def _take_back(
        self, game: Loaded, seat: int, user_id: int, standing: list, count: int
    ) -> Reply:
        """Log a take-back of ``count`` moves by its asker and store the replayed state."""
        kept = standing[: len(standing) - count]
        state = rebuild(game, kept)
        back = game.rules.step(None, state, ())
        taken = ", ".join(f"`{m.action}`" for m in standing[len(kept) :])
        # everyone awaited again is told, the DMs queued with the take-back itself
        happened = f"{game.names[seat]} took back {taken}"
        told = await self.answers.turn_notices(game, game.people(back.awaited), back, happened)
        try:
            await self.store.record(
                game.row.id,
                game.row.version,
                MoveRecord(
                    seat=seat,
                    user_id=user_id,
                    kind="undo",
                    action=str(count),
                    state=self.context.states.stored(game.row.id, game.row.game_key, state),
                    awaiting=tuple(back.awaited),
                    reacting=back.reaction_open,
                    notices=told.dms,
                ),
            )
        except StaleGame:
            raise Refused("A move was played at that moment; nothing was taken back.") from None
        return await self.answers.position(
            game, back, game.row.version + 1, [f"Taken back: {taken}."], told=told
        )
