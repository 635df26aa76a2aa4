"""SQLite's migrations (:mod:`bot.store.migrations`), split into statements."""

from __future__ import annotations

import sqlite3

from bot.store.migrations import Migration, migrations

__all__ = ["Migration", "migrations", "statements"]


def statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of strings). A
    trigger's body holds ';' of its own: pieces are joined until SQLite calls the
    statement complete."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    statements, pending = [], ""
    for piece in "\n".join(lines).split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip().removesuffix(";"))
            pending = ""
    return [s for s in statements if s]
