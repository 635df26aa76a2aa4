"""The terminal's people (:class:`bot.store.interface.TerminalUsers`), written once for
every store: a name's id is read, or given out past every id a terminal user has had, in
one transaction; a backend whose processes may give out ids at once takes a lock first
(:meth:`TerminalSQL._one_name_at_a_time`)."""

from __future__ import annotations

from bot.store.faults import StoreFault
from bot.store.shared.base import Base
from bot.store.sql import Body, Q

#: every terminal user's id is below this (migration 0023 says the same): 2^22, the least
#: id a Discord user can have (a snowflake holds the milliseconds since 2015 above its 22
#: low bits), so on a database Discord also uses, the two never meet
TERMINAL_IDS_BELOW = 1 << 22
#: where a user's id is kept besides their name: a seat (so their games, ratings and
#: daily attempts), their settings, a league
_KEPT = ("seats", "user_settings", "league_members")
#: the highest id a terminal user has had: kept by name, or (before migration 0023 kept
#: names) anywhere else, so a new name never takes an old one's games
_LAST_ID = (
    "SELECT COALESCE(MAX(user_id), 0) FROM (SELECT user_id FROM terminal_users"
    + "".join(f" UNION ALL SELECT user_id FROM {table}" for table in _KEPT)
    + f") AS used WHERE user_id BETWEEN 1 AND {TERMINAL_IDS_BELOW - 1}"
)
#: forget a name's id if nothing is kept under it: a name given out for a line that was
#: then refused
_FORGET = "DELETE FROM terminal_users WHERE name = :name AND user_id = :id" + "".join(
    f" AND NOT EXISTS (SELECT 1 FROM {table} WHERE user_id = :id)" for table in _KEPT
)


def next_terminal_id(last: int) -> int:
    """The id after ``last``; refused rather than leave the terminal's range."""
    if last + 1 >= TERMINAL_IDS_BELOW:
        raise StoreFault("The terminal has given out every user id it may: no new name fits.")
    return last + 1


class TerminalSQL(Base):
    async def terminal_user(self, name: str) -> tuple[int, bool]:
        return await self._write(self._terminal_user(name))

    def _one_name_at_a_time(self) -> Body[None]:
        """Keep other processes from giving out an id till the transaction ends: nothing
        to take where the write transaction holds the whole database."""
        return
        yield

    def _terminal_user(self, name: str) -> Body[tuple[int, bool]]:
        yield from self._one_name_at_a_time()
        row = yield Q.row("SELECT user_id FROM terminal_users WHERE name = :name", name=name)
        if row is not None:
            return int(row[0]), False
        (last,) = yield Q.row(_LAST_ID)
        user_id = next_terminal_id(last)
        yield Q.count(
            "INSERT INTO terminal_users (name, user_id) VALUES (:name, :user_id)",
            name=name,
            user_id=user_id,
        )
        return user_id, True

    async def forget_terminal_user(self, name: str, user_id: int) -> None:
        await self._write(Q.count(_FORGET, name=name, id=user_id))
