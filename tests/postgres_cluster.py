"""A throwaway PostgreSQL cluster for the test session, from the machine's own binaries.

``BRIDGEKEEPER_TEST_POSTGRES`` (a URL whose user may create databases) is used instead
when set. Otherwise ``initdb`` and ``pg_ctl`` (found on PATH or under
``/usr/lib/postgresql/*/bin``) make a cluster in a temporary folder, listening on a free
loopback port, stopped and removed at the end. PostgreSQL refuses to run as root: as
root, the cluster runs as the ``postgres`` user (or ``nobody``), its folder handed to it.
When none of that works, :attr:`Cluster.unavailable` says why, and the tests that need
it are skipped with that reason (and the run's summary says so).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV = "BRIDGEKEEPER_TEST_POSTGRES"
#: the superuser's password: connections over TCP must give it (scram-sha-256), so a
#: wrong one is refused as on a real deployment
PASSWORD = "bk-test-secret"


def _binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: PATH first, then Debian's place."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unprivileged_user() -> str | None:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    return None


class Cluster:
    """The session's server: an admin URL to create databases with, or why there is none."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.unavailable: str | None = None
        self._folder: Path | None = None
        self._as: list[str] = []
        self._bin: Path | None = None
        self._options = ""  # the server's command-line settings, kept for a restart

    def start(self) -> None:
        if os.environ.get(ENV):
            self.url = os.environ[ENV]
            return
        self._bin = _binaries()
        if self._bin is None:
            self.unavailable = (
                "no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in "
                f"/usr/lib/postgresql/*/bin; install Debian's postgresql package or set {ENV}"
            )
            return
        self._folder = Path(tempfile.mkdtemp(prefix="bk-pg-"))
        if os.geteuid() == 0:
            user = _unprivileged_user()
            if user is None:
                self.unavailable = "running as root with no unprivileged user to run PostgreSQL"
                return
            shutil.chown(self._folder, user)
            self._as = ["runuser", "-u", user, "--"]
        port = _free_port()
        data = self._folder / "data"
        secret = self._folder / "password"
        secret.write_text(PASSWORD)
        if self._as:
            shutil.chown(secret, self._as[2])
        self._options = (
            f"-p {port} -k {self._folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        try:
            self._run(
                "initdb", "-D", str(data), "-U", "postgres", "-E", "UTF8", "--auth-local=trust",
                "--auth-host=scram-sha-256", f"--pwfile={secret}",
            )  # fmt: skip
            self.restart()
        except (OSError, subprocess.CalledProcessError) as exc:
            detail = getattr(exc, "stderr", "") or str(exc)
            self.unavailable = f"the throwaway PostgreSQL cluster did not start: {detail.strip()}"
            self.stop()
            return
        self.url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        assert self._bin is not None
        subprocess.run(
            [*self._as, str(self._bin / tool), *args],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=self._folder,
        )

    def crash(self) -> None:
        """Stop the server as a crash does (``pg_ctl -m immediate``: every backend killed,
        no checkpoint; what was committed survives, recovered at the next start)."""
        assert self._folder is not None, "only a cluster of the tests' own can be crashed"
        self._run("pg_ctl", "-D", str(self._folder / "data"), "-m", "immediate", "stop")

    def restart(self) -> None:
        """Start the server (again, after :meth:`crash`), on the same port, once it takes
        connections."""
        assert self._folder is not None
        data, log = self._folder / "data", self._folder / "log"
        self._run("pg_ctl", "-D", str(data), "-l", str(log), "-w", "-o", self._options, "start")

    def stop(self) -> None:
        if self._folder is None:
            return
        if (self._folder / "data" / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self._folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self._folder, ignore_errors=True)
        self._folder = None

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server."""
        assert self.url is not None
        return urlunsplit(urlsplit(self.url)._replace(path=f"/{name}"))
