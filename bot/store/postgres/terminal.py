"""The terminal's people on PostgreSQL (:mod:`bot.store.shared.terminal`): terminals on
several hosts may share the database, so a new name's id is given out under a
transaction-wide advisory lock, one name at a time."""

from __future__ import annotations

from bot.store.shared.terminal import TerminalSQL
from bot.store.sql import Body, Q

#: the advisory lock giving out a terminal user's id takes, until its transaction ends
_TERMINAL_LOCK = 0x7465_726D_696E  # "termin"


class TerminalPG(TerminalSQL):
    def _one_name_at_a_time(self) -> Body[None]:
        yield Q.count("SELECT pg_advisory_xact_lock(:lock)", lock=_TERMINAL_LOCK)
