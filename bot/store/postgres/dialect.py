"""How PostgreSQL reads the neutral statements (:mod:`bot.store.sql`): asyncpg marks
parameters ``$1``, ``$2``, ...; every neutral word is PostgreSQL's own."""

from __future__ import annotations

from bot.store.sql import Dialect

POSTGRES = Dialect("PostgreSQL", numbered=True)
