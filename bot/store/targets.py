"""Where the data lives, as the host writes it: ``BRIDGEKEEPER_DB`` and every ``--db`` take
a SQLite file's path or a ``postgresql://`` URL (:func:`bot.store.backends.target` reads
one, and :func:`bot.store.backends.backend` tells which database it names), and how a URL
is shown without its password. It imports no database driver."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

#: a database target: a SQLite file or a PostgreSQL URL
Target = Path | str
#: how long anything of ours waits for a PostgreSQL server before saying it is unreachable
CONNECT_TIMEOUT_S = 10


def redacted(url: str, mark: str | None = "***") -> str:
    """``url`` with its password shown as ``mark``, for messages and logs; ``mark=None``
    drops it, for a command a host can run as shown (libpq then asks for the password,
    or reads ``PGPASSWORD`` or ``~/.pgpass``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    secret = "" if mark is None else f":{mark}"
    return urlunsplit(parts._replace(netloc=f"{user}{secret}@{host}"))
