"""Where the data lives, as the host writes it: ``BRIDGEKEEPER_DB`` and every ``--db`` take
a SQLite file's path or a ``postgresql://`` URL. This is the one place that tells them
apart; it imports no database driver, so a SQLite host never loads asyncpg."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.store.faults import CannotOpen

#: the schemes libpq (and so asyncpg, psql, pg_dump) accept for a PostgreSQL URL
POSTGRES_SCHEMES = ("postgresql", "postgres")

#: a database target: a SQLite file or a PostgreSQL URL
Target = Path | str
#: how long anything of ours waits for a PostgreSQL server before saying it is unreachable
CONNECT_TIMEOUT_S = 10


def target(text: str | Path) -> Target:
    """A ``postgresql://`` (or ``postgres://``) URL stays text; anything else is a file
    path. A URL of another scheme is refused, naming the setting, rather than taken for a
    file called ``mysql:/...``."""
    if isinstance(text, Path):
        return text
    scheme, sep, _rest = text.partition("://")
    if sep and scheme.lower() in POSTGRES_SCHEMES:
        return text
    if sep and scheme.isalpha():
        raise CannotOpen(
            f"BRIDGEKEEPER_DB (or --db) is {redacted(text)}: a {scheme}:// URL is not a "
            "database Bridgekeeper can use. Give a SQLite file's path, or a "
            "postgresql://user@host:port/dbname URL."
        )
    return Path(text)


def is_postgres(where: Target) -> bool:
    return isinstance(where, str)


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


def database_name(where: Target) -> str:
    """The database's own name, for what is kept beside it: a file's name without its
    suffix, or a URL's database (``bk`` of ``postgresql://…/bk``; the user's, if none)."""
    if not is_postgres(where):
        return Path(where).stem
    parts = urlsplit(str(where))
    return parts.path.strip("/") or parts.username or "postgres"
