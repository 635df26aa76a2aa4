"""Turns to connect to Discord's gateway, taken in the shared database: one identify per
bucket per turn, whatever process asks, and none once the day's starts are spent. Run on
every store (the processes of ``test_shards.py`` share PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.discord import gateway_turns
from bot.discord.gateway_turns import IdentifyTurns


async def test_a_turn_is_one_holders_until_it_runs_out(open_store):
    store = await open_store()
    assert await store.take_turn("identify: bucket 0 of 1", "A", 0.5) == 0
    wait = await store.take_turn("identify: bucket 0 of 1", "B", 0.5)
    assert 0 < wait <= 0.5, "B is told how long A's turn has left"
    assert await store.take_turn("identify: bucket 0 of 1", "A", 0.5) > 0, "A's too: one each"
    assert await store.take_turn("identify: bucket 1 of 2", "B", 0.5) == 0, "another bucket"
    await asyncio.sleep(0.6)
    assert await store.take_turn("identify: bucket 0 of 1", "B", 0.5) == 0
    assert await store.lease_holder("identify: bucket 0 of 1") == "B"


def limits(**limit: int):
    """Discord's answer to ``GET /gateway/bot``: its ``session_start_limit``."""

    async def ask() -> dict[str, int]:
        return {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1, **limit}

    return ask


async def test_shards_wait_for_their_own_bucket_only(open_store):
    store = await open_store()
    turns = IdentifyTurns(store, "A", limits(max_concurrency=2))
    await turns.take(0)
    await turns.take(1)  # bucket 1: its own turn, at once
    holders = [await store.lease_holder(f"identify: bucket {b} of 2") for b in (0, 1)]
    assert holders == ["A", "A"]
    other = IdentifyTurns(store, "B", limits(max_concurrency=2))
    with pytest.raises(TimeoutError):  # shard 2 is bucket 0's again: 5.5 s after shard 0
        await asyncio.wait_for(other.take(2), 1.0)


async def test_with_no_starts_left_today_a_shard_waits_for_the_count_to_reset(
    open_store, monkeypatch, caplog
):
    monkeypatch.setattr(gateway_turns, "BUCKET_SECONDS", 0.1)
    turns = IdentifyTurns(await open_store(), "A", limits(remaining=0, reset_after=500))
    began = time.monotonic()
    with caplog.at_level(logging.ERROR, logger="bot.discord.gateway_turns"):
        await turns.take(0)
    assert time.monotonic() - began >= 0.5
    (said,) = [r.getMessage() for r in caplog.records]
    assert "no more gateway starts today" in said and "shard 0 waits 0.5 s" in said
