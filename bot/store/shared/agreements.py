"""What the players of a game have agreed to, or asked each other, beside its moves: a
rematch (who wants to play it again, and the game it opened) and a take-back request
(who asked, how many moves, at which version, and who has agreed)."""

from __future__ import annotations

import json

from bot.store.faults import StaleGame
from bot.store.rows import Rematch, UndoRequest
from bot.store.shared.base import Base
from bot.store.sql import Body, Q


class AgreementsSQL(Base):
    async def rematch(self, game_id: int) -> Rematch:
        row = await self._read(
            Q.row("SELECT agreed, opened FROM rematches WHERE game_id = :id", id=game_id)
        )
        return Rematch() if row is None else Rematch(frozenset(json.loads(row[0])), row[1])

    async def agree_rematch(self, game_id: int, user_id: int) -> frozenset[int]:
        """Note that ``user_id`` wants to play this game again, in one transaction with
        reading who else has: two players agreeing at once both count."""
        return await self._write(self._agree_rematch(self.now(), game_id, user_id))

    def _agree_rematch(self, now: str, game_id: int, user_id: int) -> Body[frozenset[int]]:
        """Add ``user_id`` to those who want to play ``game_id`` again, inside the caller's
        transaction; everyone who has. Raises :class:`StaleGame` once its rematch is
        opened. Read, then written: right where the write transaction holds the whole
        database (PostgreSQL merges under the row's lock instead:
        :mod:`bot.store.postgres.games`)."""
        row = yield Q.row(
            "SELECT agreed, opened FROM rematches WHERE game_id = :game_id", game_id=game_id
        )
        if row is not None and row[1] is not None:
            raise StaleGame(f"the rematch of game {game_id} has been opened")
        agreed = frozenset(json.loads(row[0]) if row else ()) | {user_id}
        yield Q.count(
            "INSERT INTO rematches (game_id, agreed, created_at) VALUES (:game_id, :agreed, :now) "
            "ON CONFLICT (game_id) DO UPDATE SET agreed = excluded.agreed",
            game_id=game_id,
            agreed=json.dumps(sorted(agreed)),
            now=now,
        )
        return agreed

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self._read(
            Q.row(
                "SELECT user_id, moves, version, agreed FROM undo_requests WHERE game_id = :id",
                id=game_id,
            )
        )
        if row is None:
            return None
        return UndoRequest(row[0], row[1], row[2], frozenset(json.loads(row[3])))

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None:
        await self._write(
            Q.count(
                "INSERT INTO undo_requests (game_id, user_id, moves, version, agreed, created_at) "
                "VALUES (:game_id, :user_id, :moves, :version, :agreed, :now) "
                "ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, "
                "moves = excluded.moves, version = excluded.version, agreed = excluded.agreed, "
                "created_at = excluded.created_at",
                game_id=game_id,
                user_id=request.user_id,
                moves=request.moves,
                version=request.version,
                agreed=json.dumps(sorted(request.agreed)),
                now=self.now(),
            )
        )
