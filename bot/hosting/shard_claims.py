"""One process a shard: each bot process holds a lease on the shards it connects.

Two processes given the same shard (a copied ``BRIDGEKEEPER_SHARDS``) would both receive
that shard's interactions: one answers, the other fails on an interaction already
answered, and every command runs twice. Discord does not refuse the second connection,
so the shared database does: a process takes a lease on each of its shards before it
connects and renews it while it runs, and a second process asking for a held shard stops
at start-up naming the setting. A process that dies leaves its leases to run out
(:data:`SHARD_LEASE`); restarted on the same host and in the same pid namespace, it takes
them back at once, as the process that held them is gone (or had the very pid it has now,
as a restarted container's first process may).

Automatic sharding (no shard settings) runs every shard in one process, however many
Discord recommends: it holds one lease for all of them. A process with shard settings
beside one without is not detected (the count of the automatic one is only known once
it has connected); docs/deploy.md says not to mix them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.config import BadSetting, Shards
from bot.processes.holders import stopped_here
from bot.store import CannotSave, Store, StoreFault

#: how long a shard stays with a process that stopped renewing it
SHARD_LEASE = timedelta(seconds=90)
#: how often a running process renews its shards' leases (well inside SHARD_LEASE)
RENEW_EVERY = 30.0
#: how long one renewal may take before it counts as failed (a server that does not answer)
RENEW_TIMEOUT = 10.0
#: the wait before a failed renewal is tried again, doubled after each failure up to
#: RETRY_MOST: many tries inside one lease, so a short outage at any moment stops nothing
RETRY_FIRST = 1.0
RETRY_MOST = 8.0

#: how :func:`keep` waits: ``asyncio.sleep``, or a test's clock
Sleep = Callable[[float], Awaitable[None]]

log = logging.getLogger(__name__)


class ShardLost(RuntimeError):
    """Another process took one of this process's shards: it must stop connecting it."""


def lease_names(shards: Shards) -> list[str]:
    """The leases a process running ``shards`` holds: one per shard of a known count."""
    if shards.count is None:
        return ["shards: automatic"]
    ids = shards.ids if shards.ids is not None else range(shards.count)
    return [f"shard {n} of {shards.count}" for n in ids]


async def claim(store: Store, shards: Shards, holder: str) -> None:
    """Take every lease of ``shards`` for ``holder``, or none: raises :class:`BadSetting`
    naming the first shard another process runs."""
    until = store.clock() + SHARD_LEASE
    for name in lease_names(shards):
        if await store.take_lease(name, holder, until):
            continue
        gone = await store.lease_holder(name)
        if gone is not None and stopped_here(gone):
            log.info("%s was held by %s, no longer running here: taking it", name, gone)
            await store.drop_lease(name, gone)
            if await store.take_lease(name, holder, until):
                continue
        await release(store, shards, holder)  # the ones taken so far
        raise BadSetting(_refusal(shards, name))


async def keep(store: Store, shards: Shards, holder: str, *, sleep: Sleep = asyncio.sleep) -> None:
    """Renew the leases every :data:`RENEW_EVERY` seconds, until cancelled. Raises
    :class:`ShardLost` if another process has taken one meanwhile (this one stalled past
    :data:`SHARD_LEASE`), or if no renewal got through for a whole lease (the database
    away, or cut off from this process alone: another may have the shards by now), so two
    processes never keep running one shard.

    A renewal that fails is tried again soon (:data:`RETRY_FIRST`, doubling up to
    :data:`RETRY_MOST`), not at the next regular renewal: a database away for seconds,
    however often and whenever, stops nothing. ``sleep`` waits that many seconds (a
    test's drives the store's clock)."""
    names = lease_names(shards)
    held_until = store.clock() + SHARD_LEASE
    wait, retry = RENEW_EVERY, RETRY_FIRST
    while True:
        await sleep(wait)
        now = store.clock()
        left = (held_until - now).total_seconds()
        if left <= 0:
            raise ShardLost(
                f"could not renew the leases on {shards.describe()} for "
                f"{int(SHARD_LEASE.total_seconds())} s; stopping this process"
            )
        until = now + SHARD_LEASE
        try:
            async with asyncio.timeout(min(RENEW_TIMEOUT, left)):
                kept = [await store.take_lease(name, holder, until) for name in names]
        except (CannotSave, StoreFault, TimeoutError) as exc:
            left = max(0.0, (held_until - store.clock()).total_seconds())
            wait, retry = min(retry, left), min(retry * 2, RETRY_MOST)
            log.warning(
                "could not renew the leases on %s (held %d s more; trying again in %g s): %r",
                shards.describe(), left, wait, exc,
            )  # fmt: skip
            continue
        for name, taken in zip(names, kept, strict=True):
            if not taken:
                raise ShardLost(f"{name} was taken by another process; stopping this one")
        held_until = until
        wait, retry = RENEW_EVERY, RETRY_FIRST


async def release(store: Store, shards: Shards, holder: str) -> None:
    """Let the shards go at once, so a restart need not wait for the leases to run out;
    with the database away, leave them to run out (never hiding why the process stops)."""
    try:
        for name in lease_names(shards):
            await store.drop_lease(name, holder)
    except (CannotSave, StoreFault) as exc:
        log.warning("could not let go of %s; its leases will run out: %r", shards.describe(), exc)


def _refusal(shards: Shards, name: str) -> str:
    seconds = int(SHARD_LEASE.total_seconds())
    if shards.count is None:
        return (
            "Another process already runs this bot on this database with automatic sharding "
            "(no BRIDGEKEEPER_SHARDS / BRIDGEKEEPER_SHARD_COUNT): two would answer every "
            "command twice. Stop the other one, or give each process its own "
            f"BRIDGEKEEPER_SHARDS of one BRIDGEKEEPER_SHARD_COUNT. A process that stopped "
            f"without letting go holds its shards for {seconds} s."
        )
    setting = shards.describe()
    return (
        f"BRIDGEKEEPER_SHARDS: {name} is already connected by another process on this "
        f"database (this one was given {setting}); two would answer its commands twice. "
        "Give each process its own shards, or stop the other one. A process that stopped "
        f"without letting go holds its shards for {seconds} s."
    )
