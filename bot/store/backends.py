"""The databases the store runs on, in one registry: how a target names each, what each is
(a file one process holds, or a server bot processes share), and where its package is.
Everything that depends on which database a target is asks :func:`backend` for it, and
nothing else tells them apart. A backend's package is imported when first asked for, so
a SQLite host never loads asyncpg.

Each package offers the same few names (its store class ``Store``, its side of a whole
copy ``Side``, and ``occupied``, what a database already holds); see :mod:`bot.store` for
what else a new backend is made of.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.store.faults import CannotOpen
from bot.store.targets import Target, redacted

if TYPE_CHECKING:
    from typing_extensions import TypeIs


@dataclass(frozen=True)
class Backend:
    """One kind of database, as the rest of the bot sees it."""

    key: str  # how the tools that do things their own way per backend name it
    name: str  # how messages name it
    package: str  # its store, copying side and checks (imported when first asked for)
    #: several bot processes may share one database (with shards of their own); else one
    #: process holds it, by a lock on its file
    shared: bool
    #: the URL schemes that name one of its databases; none: a file's path names it
    schemes: tuple[str, ...] = ()

    @property
    def file(self) -> bool:
        """Its databases are files (a path names one), not databases on a server."""
        return not self.schemes

    def module(self) -> ModuleType:
        return import_module(self.package)

    def store(self) -> Any:
        """Its store class (:class:`bot.store.interface.Store`)."""
        return self.module().Store

    def side(self, conn: Any, where: Target) -> Any:
        """Its side of a whole-database copy (:class:`bot.store.copying.Side`), over one
        open transaction of its store (``transaction()``)."""
        return self.module().Side(conn, where)

    async def occupied(self, where: Target) -> dict[str, int]:
        """The tables of ``where`` that hold rows (its migrations' record aside), with
        their counts. Only reads."""
        return await self.module().occupied(where)

    def named(self, where: Target, mark: str | None = "***") -> str:
        """``where`` as messages and logs show it: a URL without its password (``mark``
        instead; ``None`` drops it, for a command a host can run as shown)."""
        return str(where) if self.file else redacted(str(where), mark)

    def database_name(self, where: Target) -> str:
        """The database's own name, for what is kept beside it: a file's name without its
        suffix, or a URL's database (``bk`` of ``postgresql://…/bk``; the user's, if none)."""
        if self.file:
            return Path(where).stem
        return _database_of(str(where))[2] or "postgres"

    def same(self, one: Target, other: Target) -> bool:
        """Whether two targets of this backend are one database."""
        if self.file:
            return Path(one).resolve() == Path(other).resolve()
        return _database_of(str(one)) == _database_of(str(other))


def _database_of(url: str) -> tuple[str, int, str]:
    """Where a URL's database is: the same server and name are one database, whoever
    connects (libpq's defaults: port 5432, a database named after the user)."""
    parts = urlsplit(url)
    name = parts.path.strip("/") or parts.username or ""
    return (parts.hostname or "localhost").lower(), parts.port or 5432, name


SQLITE = Backend("sqlite", "SQLite", "bot.store.sqlite", shared=False)
#: the schemes libpq (and so asyncpg, psql, pg_dump) accept for a PostgreSQL URL
POSTGRES = Backend(
    "postgresql",
    "PostgreSQL",
    "bot.store.postgres",
    shared=True,
    schemes=("postgresql", "postgres"),
)
#: every backend; a target that names none of the others' schemes is a file of the last
BACKENDS = (POSTGRES, SQLITE)


def backend(where: Target) -> Backend:
    """The backend of a target as :func:`target` reads one."""
    if isinstance(where, Path):
        return BACKENDS[-1]
    scheme = where.partition("://")[0].lower()
    return next((b for b in BACKENDS if scheme in b.schemes), BACKENDS[-1])


def is_file(where: Target) -> TypeIs[Path]:
    """Whether ``where`` names a file, as its backend says: a file's target is its path,
    a server's its URL (:data:`~bot.store.targets.Target`)."""
    return backend(where).file


def target(text: str | Path) -> Target:
    """A URL of a backend's scheme (``postgresql://``, ``postgres://``) stays text; anything
    else is a file path. A URL of another scheme is refused, naming the setting, rather
    than taken for a file called ``mysql:/...``."""
    if isinstance(text, Path):
        return text
    scheme, sep, _rest = text.partition("://")
    if sep and any(scheme.lower() in b.schemes for b in BACKENDS):
        return text
    if sep and scheme.isalpha():
        raise CannotOpen(
            f"BRIDGEKEEPER_DB (or --db) is {redacted(text)}: a {scheme}:// URL is not a "
            "database Bridgekeeper can use. Give a SQLite file's path, or a "
            "postgresql://user@host:port/dbname URL."
        )
    return Path(text)
