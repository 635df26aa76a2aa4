"""One process a shard, on a shared PostgreSQL database: a second process given a shard
that another runs is refused at start-up, naming the setting; a stopped process's shards
come back (at once on its own host, when its lease runs out elsewhere); a process whose
shard was taken stops renewing and says so."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from bot.config import BadSetting, Shards
from bot.hosting import shard_claims
from bot.hosting.running import serve
from bot.hosting.shard_claims import RENEW_EVERY, SHARD_LEASE, ShardLost, claim, keep, release
from bot.processes.holders import pid_space
from bot.store import CannotSave, open_store
from tests.bot.discord.fake_discord_server import TOKEN, FakeDiscord
from tests.bot.discord.test_protocol import NAMES, WAIT
from tests.conftest import Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
A = "host-a:100:aaaa"
B = "host-b:200:bbbb"


@pytest.fixture
async def stores(postgres_url):
    """Two stores on one PostgreSQL database, as two processes would have, one clock."""
    clock = Clock(T0)
    opened = [
        await open_store(postgres_url, clock=clock),
        await open_store(postgres_url, clock=clock),
    ]
    yield (*opened, clock)
    for store in opened:
        await store.close()


async def test_a_shard_another_process_runs_is_refused_naming_the_setting(stores):
    one, two, _ = stores
    await claim(one, Shards((0, 1), 4), A)
    with pytest.raises(BadSetting) as refused:
        await claim(two, Shards((1, 2), 4), B)
    message = str(refused.value)
    assert message.startswith("BRIDGEKEEPER_SHARDS: shard 1 of 4 is already connected")
    assert "this one was given shards 1, 2 of 4" in message
    # all or nothing: the refused process holds none of its shards
    assert await two.lease_holder("shard 2 of 4") is None
    await claim(two, Shards((2, 3), 4), B)  # the rest of the shards are free
    await release(one, Shards((0, 1), 4), A)
    await claim(two, Shards((0, 1), 4), B)  # and a stopped process's, once it let go


async def test_two_processes_both_sharding_automatically_are_refused(stores):
    one, two, _ = stores
    await claim(one, Shards(), A)
    with pytest.raises(BadSetting, match="already runs this bot on this database with automatic"):
        await claim(two, Shards(), B)
    # a count alone runs every shard of it here: each is held
    await claim(two, Shards(None, 2), B)
    with pytest.raises(BadSetting, match="shard 0 of 2"):
        await claim(one, Shards((0,), 2), A)


async def test_a_dead_process_leaves_its_shards_when_its_lease_runs_out(stores):
    one, two, clock = stores
    await claim(one, Shards((0,), 2), A)  # then host A's process dies, renewing nothing
    clock.now = T0 + SHARD_LEASE - timedelta(seconds=1)
    with pytest.raises(BadSetting):
        await claim(two, Shards((0,), 2), B)
    clock.now = T0 + SHARD_LEASE
    await claim(two, Shards((0,), 2), B)
    assert await one.lease_holder("shard 0 of 2") == B


async def test_restarted_on_its_own_host_a_process_takes_its_shards_back_at_once(stores):
    one, two, _ = stores
    here = f"{socket.gethostname()}:{pid_space()}"
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    await claim(one, Shards((0,), 2), f"{here}:{int(finished.stdout)}:dead")
    await claim(two, Shards((0,), 2), B)  # its pid runs nothing now: the lease is stale
    assert await two.lease_holder("shard 0 of 2") == B

    # a live process on this host keeps its shards; so does one in another pid namespace
    # (another container), whose pids mean nothing here
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as alive:
        try:
            await claim(one, Shards((1,), 4), f"{here}:{alive.pid}:live")
            with pytest.raises(BadSetting):
                await claim(two, Shards((1,), 4), B)
        finally:
            alive.kill()
    elsewhere = f"{socket.gethostname()}:1:{int(finished.stdout)}:other"
    await claim(one, Shards((2,), 4), elsewhere)
    with pytest.raises(BadSetting):
        await claim(two, Shards((2,), 4), B)


async def test_a_process_whose_shard_was_taken_stops(stores, monkeypatch):
    one, two, clock = stores
    monkeypatch.setattr(shard_claims, "RENEW_EVERY", 0.01)
    await claim(one, Shards((0,), 2), A)
    clock.now = T0 + SHARD_LEASE  # A stalled past its lease, and B took the shard
    await claim(two, Shards((0,), 2), B)
    with pytest.raises(ShardLost, match="shard 0 of 2 was taken by another process"):
        await asyncio.wait_for(keep(one, Shards((0,), 2), A), 5)


async def test_a_renewing_process_keeps_its_shards_past_the_first_lease(stores, monkeypatch):
    one, two, clock = stores
    monkeypatch.setattr(shard_claims, "RENEW_EVERY", 0.01)
    await claim(one, Shards((0,), 2), A)
    keeper = asyncio.create_task(keep(one, Shards((0,), 2), A))
    clock.now = T0 + SHARD_LEASE / 2
    await asyncio.sleep(0.1)  # renewed at the new time
    clock.now = T0 + SHARD_LEASE
    with pytest.raises(BadSetting):
        await claim(two, Shards((0,), 2), B)
    keeper.cancel()
    await asyncio.gather(keeper, return_exceptions=True)


class Paced:
    """:func:`keep`'s waits in virtual time: each moves the stores' clock on by its length
    at once, running on the way whatever the test set to happen at a moment (``at``: an
    outage beginning or ending); once the clock reaches ``stop_at`` it waits for good, and
    ``reached`` is set, for the test to look at the keeper."""

    def __init__(self, clock: Clock, stop_at: datetime) -> None:
        self.clock = clock
        self.stop_at = stop_at
        self.reached = asyncio.Event()
        self.events: list[tuple[datetime, Callable[[], Awaitable[None]]]] = []
        self.waits: list[float] = []

    def at(self, moment: datetime, event: Callable[[], Awaitable[None]]) -> None:
        self.events.append((moment, event))
        self.events.sort(key=lambda e: e[0])

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        end = self.clock.now + timedelta(seconds=seconds)
        while self.events and self.events[0][0] <= end:
            moment, event = self.events.pop(0)
            self.clock.now = max(self.clock.now, moment)
            await event()
        self.clock.now = end
        if end >= self.stop_at:
            self.reached.set()
            await asyncio.Event().wait()
        await asyncio.sleep(0)

    async def run(self, keeper: asyncio.Task) -> None:
        """Until the clock reaches ``stop_at``, or the keeper stops first."""
        reached = asyncio.create_task(self.reached.wait())
        await asyncio.wait({keeper, reached}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        reached.cancel()


def _failing(store, monkeypatch) -> dict[str, bool]:
    """Make ``store``'s lease renewals fail as a lost connection does, while the switch
    returned is on."""
    switch = {"down": False}
    take = store.take_lease

    async def take_lease(*args):
        if switch["down"]:
            raise CannotSave("the database server went away")
        return await take(*args)

    monkeypatch.setattr(store, "take_lease", take_lease)
    return switch


def _switch(outage: dict[str, bool], down: bool) -> Callable[[], Awaitable[None]]:
    async def flip() -> None:
        outage["down"] = down

    return flip


async def test_a_database_away_for_most_of_a_lease_stops_nothing(stores, monkeypatch):
    one, two, clock = stores
    outage = _failing(one, monkeypatch)
    await claim(one, Shards((0,), 2), A)
    paced = Paced(clock, stop_at=T0 + SHARD_LEASE * 2)
    # away from just before the first renewal until 5 s before the lease runs out
    paced.at(T0 + timedelta(seconds=29), _switch(outage, True))
    paced.at(T0 + SHARD_LEASE - timedelta(seconds=5), _switch(outage, False))
    keeper = asyncio.create_task(keep(one, Shards((0,), 2), A, sleep=paced.sleep))
    await paced.run(keeper)
    assert not keeper.done(), keeper.result()
    # tried again and again meanwhile, soon after each failure, never a lease's wait
    retries = paced.waits[1 : paced.waits.index(RENEW_EVERY, 1)]
    assert len(retries) >= 8 and max(retries) <= 8, retries
    with pytest.raises(BadSetting):  # still its shard, a lease and more later
        await claim(two, Shards((0,), 2), B)
    keeper.cancel()
    await asyncio.gather(keeper, return_exceptions=True)


async def test_a_database_away_for_a_whole_lease_stops_the_process(stores, monkeypatch):
    one, _, clock = stores
    outage = _failing(one, monkeypatch)
    await claim(one, Shards((0,), 2), A)
    paced = Paced(clock, stop_at=T0 + SHARD_LEASE * 2)
    paced.at(T0 + timedelta(seconds=1), _switch(outage, True))
    keeper = asyncio.create_task(keep(one, Shards((0,), 2), A, sleep=paced.sleep))
    await paced.run(keeper)
    with pytest.raises(ShardLost, match="could not renew the leases on shards 0 of 2 for 90 s"):
        keeper.result()
    assert clock.now == T0 + SHARD_LEASE, "given up when the lease ran out, not before"


async def test_the_database_crashing_at_every_renewal_stops_nothing(crashable, crashable_url):
    """A real PostgreSQL server killed (``pg_ctl -m immediate``) just before each regular
    renewal and started again 3 s later: six blips at six renewal instants, each far
    shorter than a lease, and the process keeps its shard throughout."""
    clock = Clock(T0)
    paced = Paced(clock, stop_at=T0 + timedelta(minutes=10))
    blips: list[datetime] = []

    async def crash() -> None:
        await asyncio.to_thread(crashable.crash)
        blips.append(clock.now)
        paced.at(clock.now + timedelta(seconds=3), restart)

    async def restart() -> None:
        await asyncio.to_thread(crashable.restart)
        blips.append(clock.now)

    async def sleep(seconds: float) -> None:
        await paced.sleep(seconds)
        if seconds == RENEW_EVERY and len(blips) < 12:  # a regular renewal is due now
            await crash()

    one = await open_store(crashable_url, clock=clock)
    two = await open_store(crashable_url, clock=clock)
    await claim(one, Shards((0,), 2), A)
    keeper = asyncio.create_task(keep(one, Shards((0,), 2), A, sleep=sleep))
    try:
        await paced.run(keeper)
        assert not keeper.done(), keeper.result()
        assert len(blips) == 12, "six crashes, six restarts"
        with pytest.raises(BadSetting):
            await claim(two, Shards((0,), 2), B)
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        if len(blips) % 2:  # it stopped during a blip: the next test needs the server
            await restart()
        await one.close()
        await two.close()


async def test_python_m_bot_stops_at_start_up_on_a_shard_another_process_runs(
    postgres_url, monkeypatch
):
    monkeypatch.setenv("BRIDGEKEEPER_RENDER_PROCESSES", "0")
    other = await open_store(postgres_url)
    try:
        await claim(other, Shards((1,), 2), B)
        with pytest.raises(SystemExit) as stopped:
            await serve(postgres_url, "not-a-token", Shards((1,), 2))
        assert "BRIDGEKEEPER_SHARDS: shard 1 of 2 is already connected" in str(stopped.value)
        assert await other.lease_holder("shard 1 of 2") == B
    finally:
        await other.close()


async def _serving(url: str, shards: Shards) -> str | None:
    """``serve`` as ``python -m bot`` runs it; what it stopped with, if it stopped (a
    SystemExit must not leave a task: asyncio would stop the test's event loop with it)."""
    try:
        await serve(url, TOKEN, shards)
    except SystemExit as exc:
        return str(exc)
    return None


async def _ready(fake: FakeDiscord, serving: asyncio.Task, connections: int) -> None:
    """Until the fake Discord has seen ``connections`` shard connections in all."""
    async with asyncio.timeout(WAIT * 4):
        while len(fake.identified) < connections:
            if serving.done():
                raise AssertionError(f"stopped before connecting: {serving.result()}")
            await asyncio.sleep(0.01)


async def test_the_running_bot_holds_its_shard_and_stops_if_another_takes_it(
    postgres_url, monkeypatch
):
    monkeypatch.setenv("BRIDGEKEEPER_RENDER_PROCESSES", "0")
    monkeypatch.setattr(shard_claims, "RENEW_EVERY", 0.05)
    fake = FakeDiscord(members=NAMES)
    await fake.start()
    fake.redirect(monkeypatch)
    other = await open_store(postgres_url)
    try:
        # connected and holding its shard; stopped, it lets the shard go at once
        serving = asyncio.create_task(_serving(postgres_url, Shards((0,), 2)))
        await _ready(fake, serving, 1)
        assert fake.identified == [[0, 2]]
        mine = await other.lease_holder("shard 0 of 2")
        assert mine is not None and mine.startswith(f"{socket.gethostname()}:")
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
        assert await other.lease_holder("shard 0 of 2") is None

        # another process takes the shard from under a running one (say it stalled past
        # its lease): the running one stops rather than answer that shard's commands too
        serving = asyncio.create_task(_serving(postgres_url, Shards((0,), 2)))
        await _ready(fake, serving, 2)
        taken = "UPDATE leases SET holder = $1 WHERE name = $2"
        assert await other.execute(taken, (B, "shard 0 of 2")) == 1
        stopped = await asyncio.wait_for(serving, WAIT)
        assert stopped == "shard 0 of 2 was taken by another process; stopping this one"
        assert await other.lease_holder("shard 0 of 2") == B, "its release leaves B's lease"
    finally:
        await other.close()
        await fake.stop()
