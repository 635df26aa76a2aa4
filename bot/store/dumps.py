"""Backups of a PostgreSQL database: ``pg_dump`` in its custom format, put back by
``pg_restore``. The server's own tools, run as programs (they need no driver of ours);
where one is not installed, the fault says exactly what to run, and where."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

from bot.store.faults import StoreFault
from bot.store.targets import CONNECT_TIMEOUT_S, redacted


def dump_command(target: Path, url: str) -> str:
    """The ``pg_dump`` line that writes a backup of ``url`` to ``target`` (no password)."""
    return shlex.join(["pg_dump", "--format=custom", f"--file={target}", redacted(url, None)])


def restore_command(source: Path, url: str) -> str:
    """The ``pg_restore`` line that puts ``source`` back into ``url`` (no password)."""
    return shlex.join(_restore_args(source, redacted(url, None)))


def _restore_args(source: Path, url: str) -> list[str]:
    # --clean --if-exists: drop what the database holds first; one transaction: all or nothing
    return [
        "pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
        f"--dbname={url}", str(source),
    ]  # fmt: skip


def dump(url: str, target: Path) -> None:
    """``pg_dump --format=custom`` of the database at ``url`` into ``target``: one
    consistent snapshot, taken while the bot keeps writing."""
    _run(["pg_dump", "--format=custom", f"--file={target}", f"--dbname={url}"], url,
         dump_command(target, url))  # fmt: skip


def restore(source: Path, url: str) -> None:
    """Replace what the database at ``url`` holds by the dump ``source``, in one
    transaction: a dump that fails half way leaves the database as it was."""
    _run(_restore_args(source, url), url, restore_command(source, url))


def _run(args: list[str], url: str, shown: str) -> None:
    tool = args[0]
    if shutil.which(tool) is None:
        raise StoreFault(
            f"{tool} is not installed here (Debian: apt-get install postgresql-client). "
            f"Install it, or run where it is: {shown}"
        )
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        env={**os.environ, "PGCONNECT_TIMEOUT": str(CONNECT_TIMEOUT_S)},
    )
    if done.returncode != 0:
        detail = " ".join(done.stderr.split())[:400]
        raise StoreFault(f"{tool} for {redacted(url)} failed: {detail}")
