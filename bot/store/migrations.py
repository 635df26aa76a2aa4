"""The numbered SQL migrations shipped in ``migrations/``: SQLite's in the folder itself,
PostgreSQL's in ``migrations/postgres/``. Each dialect's store applies its own in order
and records them in its ``schema_migrations`` table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def migrations(dialect: str = "") -> list[Migration]:
    """The numbered SQL files of one dialect (``""``: SQLite, ``"postgres"``), in order."""
    folder = resources.files("migrations")
    if dialect:
        folder = folder / dialect
    found = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.fullmatch(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found, key=lambda mig: mig.number)
