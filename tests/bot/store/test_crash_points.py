"""Every multi-step operation, SIGKILLed right after each of its commits, on both stores:
what the next process finds is whole, and the next pass (or the player trying again)
completes it, each post made once (see :mod:`tests.bot.store.crash_points`)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import LEASE
from bot.store import iso, target
from bot.store.backends import POSTGRES, backend
from tests.bot.store.crash_points import SCENARIOS, T0, Scenario, world
from tests.conftest import Clock, drop_database, fresh_database

ROOT = Path(__file__).resolve().parents[3]


class Runner:
    """The forking runner process (``python -m tests.bot.store.crash_points``)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.store.crash_points"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def run(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def runner():
    made = Runner()
    yield made
    made.close()


class Copies:
    """Fresh copies of one prepared database, for one crash point each."""

    def __init__(self, kind: str, tmp_path: Path, cluster=None) -> None:
        self.kind, self.tmp, self.cluster = kind, tmp_path, cluster
        self.made = 0

    async def base(self) -> str:
        if self.kind == "sqlite":
            return str(self.tmp / "base.db")
        self.base_url = await fresh_database(self.cluster)
        return self.base_url

    async def copy(self) -> str:
        self.made += 1
        if self.kind == "sqlite":
            path = self.tmp / f"copy{self.made}.db"
            shutil.copy(self.tmp / "base.db", path)
            return str(path)
        name = f"{self.base_url.rpartition('/')[2]}_c{self.made}"
        await _admin(self.cluster, f"CREATE DATABASE {name} TEMPLATE {self.base_name}")
        return self.cluster.database_url(name)

    @property
    def base_name(self) -> str:
        return self.base_url.rpartition("/")[2]

    async def drop(self, where: str) -> None:
        if backend(target(where)) is POSTGRES:
            await drop_database(self.cluster, where)

    async def close(self) -> None:
        if self.kind == "postgres":
            await drop_database(self.cluster, self.base_url)


async def _admin(cluster, sql: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(cluster.url)
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


async def crash_points(
    scenario: Scenario, copies: Copies, runner: Runner, tmp_path: Path
) -> tuple[list[str], list[str]]:
    """Every commit of ``scenario``'s operation, and what is wrong after a kill at each."""
    base = await copies.base()
    w = await world(base, Clock(T0))
    await scenario.setup(w)
    await w.store.close()
    moment = T0 + scenario.at
    later = Clock(moment + LEASE + timedelta(minutes=1))  # past every lease the killed held

    async def one(kill_after: int) -> tuple[dict, list[str]]:
        where = await copies.copy()
        posts, result = tmp_path / f"posts{copies.made}", tmp_path / f"result{copies.made}"
        request = {"scenario": scenario.name, "target": where, "now": iso(moment)}
        request |= {"kill_after": kill_after, "posts": str(posts), "result": str(result)}
        answer = runner.run(request)
        lines = posts.read_text().splitlines() if posts.exists() else []
        made = [json.loads(line) for line in lines]
        w = await world(where, later, seeds=2000)
        try:
            problems = [f"at once: {p}" for p in await scenario.now(w)]
            await scenario.recover(w)
            problems += [f"then: {p}" for p in await scenario.done(w, made)]
        finally:
            await w.store.close()
            await copies.drop(where)
        answer["commits"] = json.loads(result.read_text()) if result.exists() else None
        return answer, problems

    clean, problems = await one(0)
    assert clean["exit"] == 0, f"the operation failed by itself: {clean}"
    assert not problems, f"wrong even without a crash: {problems}"
    commits = clean["commits"]
    bad = []
    for n in range(1, len(commits) + 1):
        answer, problems = await one(n)
        assert answer["signal"] == signal.SIGKILL, f"commit {n} of {commits}: {answer}"
        if problems:
            bad.append(f"killed after commit {n} ({commits[n - 1]}): {'; '.join(problems)}")
    await copies.close()
    return commits, bad


@pytest.mark.parametrize("name", list(SCENARIOS))
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_kill_after_any_commit_leaves_it_whole_and_the_next_pass_completes_it(
    kind, name, runner, tmp_path, request
):
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    copies = Copies(kind, tmp_path, cluster)
    commits, bad = await crash_points(SCENARIOS[name], copies, runner, tmp_path)
    print(f"\n{kind} {name}: {len(bad)} of {len(commits)} crash points bad")
    assert not bad, "\n".join(bad)
