"""Settings from the environment, or from a ``.env`` file beside where the bot runs."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.store.targets import Target, target

DEFAULT_DB = "bridgekeeper.db"


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: Target  # a SQLite file, or a postgresql:// URL
    sharded: bool = False  # several bot processes share the data: no one-process lock


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
    raises :class:`~bot.store.faults.CannotOpen`, naming the setting."""
    merged = {**read_dotenv(dotenv), **env}
    return Settings(
        token=merged.get("DISCORD_TOKEN") or None,
        db_path=target(merged.get("BRIDGEKEEPER_DB") or DEFAULT_DB),
        sharded=merged.get("BRIDGEKEEPER_SHARDED", "").strip().lower() in ("1", "true", "yes"),
    )
