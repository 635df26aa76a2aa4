"""Settings from the environment, or from a ``.env`` file beside where the bot runs.

Every setting is read and checked here, before anything starts: a bad one stops the bot
with a sentence naming it, rather than a bot that starts and half-works.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from ipaddress import ip_address
from pathlib import Path
from urllib.parse import urlsplit

from bot.store.backends import backend, target
from bot.store.targets import Target

DEFAULT_DB = "bridgekeeper.db"
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
#: more shards than any bot needs (Discord asks for one per 1,000 servers or so): a typo
MOST_SHARDS = 65_536


class BadSetting(ValueError):
    """A setting that cannot be used, with a sentence naming it and saying what would do."""


@dataclass(frozen=True)
class Shards:
    """Which of Discord's shards this process connects.

    ``count`` is the total across every process of the deployment and ``ids`` this
    process's share; both None lets discord.py ask Discord how many shards the bot
    needs and run them all here (automatic sharding). Several processes that share the
    bot's data each take their own ``ids`` of the same ``count``.
    """

    ids: tuple[int, ...] | None = None
    count: int | None = None

    @property
    def partial(self) -> bool:
        """Other processes run the rest of the shards: the data must be shared."""
        return self.ids is not None and len(self.ids) < (self.count or 0)

    def describe(self) -> str:
        if self.count is None:
            return "automatic sharding (as many shards as Discord recommends, all here)"
        ids = self.ids if self.ids is not None else range(self.count)
        return f"shards {', '.join(map(str, ids))} of {self.count}"


#: where Discord's OAuth2 is: its authorization page and its API
DISCORD_URL = "https://discord.com"


@dataclass(frozen=True)
class Login:
    """Logging in with Discord on the pages: the OAuth2 application's id and secret
    (``BRIDGEKEEPER_OAUTH_CLIENT_ID``, ``BRIDGEKEEPER_OAUTH_CLIENT_SECRET``), and where
    Discord is (``BRIDGEKEEPER_OAUTH_DISCORD_URL``: a fake one, in tests)."""

    client_id: str
    client_secret: str
    discord: str = DISCORD_URL

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return f"Login(client_id={self.client_id!r}, discord={self.discord!r})"


@dataclass(frozen=True)
class Web:
    """Where the games' pages are served (``BRIDGEKEEPER_WEB``), and the address their
    links begin with (``BRIDGEKEEPER_PUBLIC_URL``; by default, where they are served);
    ``login``: players log in with Discord to see their own hands (None: no login)."""

    host: str = DEFAULT_WEB_HOST
    port: int = DEFAULT_WEB_PORT
    public_url: str | None = None
    login: Login | None = None

    @property
    def base(self) -> str:
        """What a page's link begins with: no ``/`` at the end."""
        if self.public_url:
            return self.public_url
        host = "127.0.0.1" if self.host in ("", "0.0.0.0") else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    @property
    def shared(self) -> bool:
        """Whether people on other machines can follow the links: a public address is
        set, or the pages are served on an address of this machine's network rather than
        its loopback (or every address, which the links cannot name but as 127.0.0.1). A
        link to 127.0.0.1 leads a player's browser to their own machine: never shown."""
        if self.public_url:
            return True
        return not (self.host in ("", "0.0.0.0", "::", "localhost") or _loopback(self.host))


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: Target  # a SQLite file, or a postgresql:// URL
    shards: Shards = Shards()
    #: where the pages are served; None: not at all (``BRIDGEKEEPER_WEB=off``)
    web: Web | None = Web()


def _loopback(host: str) -> bool:
    try:
        return ip_address(host).is_loopback
    except ValueError:  # a name: only localhost is known to be this machine alone
        return False


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments skipped, quotes stripped."""
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def load_settings(env: Mapping[str, str] = os.environ, dotenv: Path = Path(".env")) -> Settings:
    """The environment wins over ``.env``. A database URL of a scheme no store speaks
    raises :class:`~bot.store.faults.CannotOpen`, naming the setting; shard settings
    that cannot work raise :class:`BadSetting`."""
    merged = {**read_dotenv(dotenv), **env}
    if merged.get("BRIDGEKEEPER_SHARDED", "").strip().lower() in ("1", "true", "yes", "on"):
        raise BadSetting(
            "BRIDGEKEEPER_SHARDED is gone: it let several processes share a SQLite file, "
            "which SQLite cannot do safely. Remove it; to run several processes, put them on "
            "one PostgreSQL database (BRIDGEKEEPER_DB=postgresql://...) and give each its "
            "BRIDGEKEEPER_SHARDS of BRIDGEKEEPER_SHARD_COUNT (docs/deploy.md)."
        )
    db_path = target(merged.get("BRIDGEKEEPER_DB") or DEFAULT_DB)
    shards = read_shards(
        merged.get("BRIDGEKEEPER_SHARDS", ""), merged.get("BRIDGEKEEPER_SHARD_COUNT", "")
    )
    if shards.partial and not backend(db_path).shared:
        raise BadSetting(
            f"BRIDGEKEEPER_SHARDS={merged['BRIDGEKEEPER_SHARDS']} leaves the other shards of "
            f"{shards.count} to other processes, and they cannot share the SQLite file "
            f"{db_path}: SQLite is one process. Run every shard here (leave "
            "BRIDGEKEEPER_SHARDS unset), or move the data to PostgreSQL "
            "(python -m bot migrate-store; docs/deploy.md)."
        )
    web = read_web(merged.get("BRIDGEKEEPER_WEB", ""), merged.get("BRIDGEKEEPER_PUBLIC_URL", ""))
    login = read_login(merged)
    if web is not None and login is not None:
        web = replace(web, login=login)
    return Settings(
        token=merged.get("DISCORD_TOKEN") or None, db_path=db_path, shards=shards, web=web
    )


def read_web(address: str, public_url: str) -> Web | None:
    """``BRIDGEKEEPER_WEB``: ``host:port`` (``:port`` for the default host), or ``off``;
    empty: 127.0.0.1:8080. ``BRIDGEKEEPER_PUBLIC_URL``: an ``http(s)://`` address."""
    address, public_url = address.strip(), public_url.strip().rstrip("/")
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise BadSetting(
                f"BRIDGEKEEPER_PUBLIC_URL={public_url} is not a web address: give the "
                "address the pages are reached at, like https://games.example.org."
            )
    if address.lower() == "off":
        return None
    if not address:
        return Web(public_url=public_url or None)
    host, colon, port_text = address.rpartition(":")
    host = host.strip("[]") or DEFAULT_WEB_HOST
    port = int(port_text) if port_text.isdigit() else 0
    if not colon or not 1 <= port <= 65_535 or any(c in host for c in "/ @"):
        raise BadSetting(
            f"BRIDGEKEEPER_WEB={address} is not an address to serve the games' pages on: "
            "give host:port (like 127.0.0.1:8080 or 0.0.0.0:8000, :8000 for 127.0.0.1), "
            "or off for no pages."
        )
    return Web(host, port, public_url or None)


def read_login(merged: Mapping[str, str]) -> Login | None:
    """The OAuth2 application's id and secret, both or neither (no login)."""
    client_id = merged.get("BRIDGEKEEPER_OAUTH_CLIENT_ID", "").strip()
    secret = merged.get("BRIDGEKEEPER_OAUTH_CLIENT_SECRET", "").strip()
    if not client_id and not secret:
        return None
    if not client_id or not secret:
        missing = "BRIDGEKEEPER_OAUTH_CLIENT_ID" if secret else "BRIDGEKEEPER_OAUTH_CLIENT_SECRET"
        raise BadSetting(
            f"{missing} is not set: logging in with Discord on the pages needs both the "
            "OAuth2 application's client id and its secret (docs/hosting.md), or neither."
        )
    discord = merged.get("BRIDGEKEEPER_OAUTH_DISCORD_URL", "").strip().rstrip("/")
    if discord and urlsplit(discord).scheme not in ("http", "https"):
        raise BadSetting(
            f"BRIDGEKEEPER_OAUTH_DISCORD_URL={discord} is not a web address (leave it unset "
            "for Discord's own, https://discord.com)."
        )
    return Login(client_id, secret, discord or DISCORD_URL)


def read_shards(ids_text: str, count_text: str) -> Shards:
    """``BRIDGEKEEPER_SHARDS`` (``0,1`` or ``0-3``, this process's) and
    ``BRIDGEKEEPER_SHARD_COUNT`` (all the deployment's); both empty: automatic."""
    ids_text, count_text = ids_text.strip(), count_text.strip()
    if not count_text:
        if ids_text:
            raise BadSetting(
                f"BRIDGEKEEPER_SHARDS={ids_text} needs BRIDGEKEEPER_SHARD_COUNT too: how many "
                "shards the whole deployment runs, across every process."
            )
        return Shards()
    try:
        count = int(count_text)
    except ValueError:
        count = 0
    if not 1 <= count <= MOST_SHARDS:
        raise BadSetting(
            f"BRIDGEKEEPER_SHARD_COUNT={count_text} is not a number of shards: give a whole "
            f"number from 1 to {MOST_SHARDS} (or leave it unset for automatic sharding)."
        )
    if not ids_text:
        return Shards(None, count)
    ids: list[int] = []
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            span = range(int(first), int(last if dash else first) + 1)
        except ValueError:
            raise BadSetting(
                f"BRIDGEKEEPER_SHARDS={ids_text}: {part.strip() or 'an empty entry'} is not a "
                "shard number; write them like 0,1 or 0-3."
            ) from None
        ids.extend(span)
    outside = [i for i in ids if not 0 <= i < count]
    if outside or not ids:
        raise BadSetting(
            f"BRIDGEKEEPER_SHARDS={ids_text}: shard {outside[0] if outside else ids_text} is out "
            f"of range; with BRIDGEKEEPER_SHARD_COUNT={count} the shards are 0 to {count - 1}."
        )
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise BadSetting(
            f"BRIDGEKEEPER_SHARDS={ids_text} names shard {repeated[0]} twice; name each once."
        )
    return Shards(tuple(sorted(ids)), count)
