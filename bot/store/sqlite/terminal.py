"""The terminal's people in SQLite (:class:`bot.store.interface.TerminalUsers`)."""

from __future__ import annotations

import sqlite3

from bot.store.queries import FORGET_TERMINAL_USER, LAST_TERMINAL_ID, next_terminal_id
from bot.store.sqlite.connection import Connection


def _terminal_user(conn: sqlite3.Connection, name: str) -> tuple[int, bool]:
    row = conn.execute("SELECT user_id FROM terminal_users WHERE name = ?", (name,)).fetchone()
    if row is not None:
        return int(row[0]), False
    user_id = next_terminal_id(conn.execute(LAST_TERMINAL_ID).fetchone()[0])
    conn.execute("INSERT INTO terminal_users (name, user_id) VALUES (?, ?)", (name, user_id))
    return user_id, True


class TerminalSQL(Connection):
    async def terminal_user(self, name: str) -> tuple[int, bool]:
        return await self.write(_terminal_user, name)

    async def forget_terminal_user(self, name: str, user_id: int) -> None:
        await self.execute(FORGET_TERMINAL_USER.format(name="?1", id="?2"), (name, user_id))
