"""The numbered SQL migrations shipped in ``migrations/``, read and split into statements."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

_MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The numbered SQL files shipped in ``migrations/``, in order."""
    found = []
    for entry in resources.files("migrations").iterdir():
        m = _MIGRATION_NAME.fullmatch(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found, key=lambda mig: mig.number)


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
