"""The terminal's people in PostgreSQL (:class:`bot.store.interface.TerminalUsers`):
terminals on several hosts may share the database, so a new name's id is given out under
a transaction-wide advisory lock, one name at a time."""

from __future__ import annotations

from bot.store.postgres.connection import Connection, Tx
from bot.store.queries import FORGET_TERMINAL_USER, LAST_TERMINAL_ID, next_terminal_id

#: the advisory lock giving out a terminal user's id takes, until its transaction ends
_TERMINAL_LOCK = 0x7465_726D_696E  # "termin"


async def _terminal_user(tx: Tx, name: str) -> tuple[int, bool]:
    await tx.execute("SELECT pg_advisory_xact_lock($1)", _TERMINAL_LOCK)
    row = await tx.fetchrow("SELECT user_id FROM terminal_users WHERE name = $1", name)
    if row is not None:
        return int(row[0]), False
    user_id = next_terminal_id((await tx.fetchrow(LAST_TERMINAL_ID))[0])
    await tx.execute("INSERT INTO terminal_users (name, user_id) VALUES ($1, $2)", name, user_id)
    return user_id, True


class TerminalPG(Connection):
    async def terminal_user(self, name: str) -> tuple[int, bool]:
        return await self.write(_terminal_user, name)

    async def forget_terminal_user(self, name: str, user_id: int) -> None:
        await self.execute(FORGET_TERMINAL_USER.format(name="$1", id="$2"), (name, user_id))
