"""Layer 3, sharded: the unmodified bot on discord.py's sharded client against the fake
Discord, alone (automatic sharding, as ``python -m bot`` runs it with no shard settings)
and as two processes' worth of bots sharing one PostgreSQL database, each connecting its
own shard. A board one of them posts is played from the other: nothing a button needs
lives in the process that drew it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.discord import gateway_turns
from bot.discord.callers import jump_link
from bot.discord.client import Bridgekeeper
from bot.service import Service
from bot.store import open_store
from tests.bot.discord.discord_limits import text
from tests.bot.discord.fake_discord_server import (
    CHANNEL_ID,
    DM_CHANNELS,
    GUILD_ID,
    TOKEN,
    FakeDiscord,
)
from tests.bot.discord.test_protocol import (
    ADA,
    BOB,
    NAMES,
    WAIT,
    _ErrorLog,
    assert_no_rejections,
    ids_of,
    mentioned,
    private_answer,
    public_answer,
    reply_to,
    running_bot,
)


async def test_with_no_shard_settings_the_bot_shards_as_discord_recommends(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as env:
        asked = [(r.method, r.path) for r in env.fake.requests]
        assert ("GET", "/gateway/bot") in asked, "automatic sharding asks Discord first"
        assert env.fake.identified == [[0, 1]]
        assert env.bot.shard_count == 1 and env.bot.get_guild(GUILD_ID) is not None


@asynccontextmanager
async def shard_bots(url: str, monkeypatch, count: int = 2, **fake: Any) -> AsyncIterator[tuple]:
    """The fake Discord (made with ``fake``'s options) and ``count`` bots on the database
    at ``url``, bot ``n`` connecting shard ``n`` of ``count``, each with its own store, as
    separate processes would have them, started at once; all ready. Fails on anything
    logged at ERROR."""
    errors = _ErrorLog()
    logging.getLogger().addHandler(errors)
    fake = FakeDiscord(members=NAMES, **fake)
    await fake.start()
    fake.redirect(monkeypatch)
    bots, tasks, stores = [], [], []
    try:
        for shard in range(count):
            store = await open_store(url)
            stores.append(store)
            service = Service(store, link=jump_link, seed=lambda: 12345)
            bot = Bridgekeeper(
                service, shard_ids=[shard], shard_count=count, guild_ready_timeout=0.05
            )
            bots.append(bot)
            tasks.append(asyncio.create_task(bot.start(TOKEN)))
        async with asyncio.timeout(WAIT * 4):
            while not all(bot.is_ready() for bot in bots):
                for task in tasks:
                    if task.done():
                        task.result()
                await asyncio.sleep(0.01)
        yield fake, bots
    finally:
        for bot in bots:
            await bot.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await fake.stop()
        for store in stores:
            await store.close()
        logging.getLogger().removeHandler(errors)
    assert not errors.records, [r.getMessage() for r in errors.records]


async def test_a_board_one_shard_process_posts_is_played_from_another(postgres_url, monkeypatch):
    async with shard_bots(postgres_url, monkeypatch) as (fake, (home, other)):
        assert sorted(fake.identified) == [[0, 2], [1, 2]]
        assert home.get_guild(GUILD_ID) is not None, "the guild is shard 0's"
        assert other.get_guild(GUILD_ID) is None, "shard 1 never hears of it"

        # players open and start a game: their commands reach the guild's shard
        await public_answer(
            fake, await fake.slash(ADA, "game", "new", game="skybridge", time_per_move="1d")
        )
        await public_answer(fake, await fake.slash(BOB, "game", "join"))
        started = await public_answer(fake, await fake.slash(ADA, "game", "start"))
        (first,) = mentioned(started["ping"]["content"])
        second = BOB if first == ADA else ADA

        # the first player's time runs out; the other process's timer plays for them and
        # posts the board in a channel of a guild it has never seen
        store = other.service.store
        await store.execute(
            "UPDATE seats SET deadline = '2000-01-01T00:00:00+00', warned = TRUE WHERE awaiting"
        )
        seen = set(fake.messages)
        await other.get_cog("Postal").run_once()
        ping, posted = [
            m
            for i, m in fake.messages.items()
            if i not in seen
            and int(m["channel_id"]) == CHANNEL_ID
            and (mentioned(text(m)) or ids_of(m))
        ]
        assert "ran out of time" in text(posted)
        assert mentioned(ping["content"]) == [second], "pinged before the card"
        (play,) = [c for c in ids_of(posted) if c.startswith("bk:play:")]

        # the next player clicks Play under that board: the click reaches the guild's
        # shard, whose process never saw the board, and the move is made
        where = await private_answer(
            fake, await reply_to(fake, await fake.click(second, posted, play))
        )
        for _ in range(4):
            if text(where).startswith("You played `"):
                break
            clicked = await reply_to(fake, await fake.click(second, where, ids_of(where)[0]))
            where = await private_answer(fake, clicked)
        assert text(where).startswith("You played `"), text(where)
        row = await store.latest_game(CHANNEL_ID)
        log = await store.moves(row.id)
        assert [m.user_id for m in log] == [first, second], "the timer's move, then the click's"
        assert_no_rejections(fake)


async def test_processes_sharing_a_token_take_turns_to_connect(postgres_url, monkeypatch):
    """Discord takes one IDENTIFY per 5 s in a bucket (``max_concurrency`` 1: every shard
    is in bucket 0): two processes started at once connect a turn apart, through the
    database they share (a turn shortened to 2 s here)."""
    monkeypatch.setattr(gateway_turns, "BUCKET_SECONDS", 2.0)
    async with shard_bots(postgres_url, monkeypatch) as (fake, _bots):
        assert sorted(fake.identified) == [[0, 2], [1, 2]]
        first, second = sorted(fake.identified_at)
        assert second - first >= 1.5, f"identified {second - first:.2f} s apart"
        asked = [r for r in fake.requests if r.path == "/gateway/bot"]
        assert len(asked) == 2, "each asked Discord what it allows before connecting"


def _edited_since(fake: FakeDiscord, seen: int, channel: str):
    """Whether the bot edited a message of ``channel`` (a game's pinned status, say) in
    the requests after the first ``seen``."""
    status = f"/channels/{channel}/messages/"
    return lambda: any(
        r.method == "PATCH" and r.path.startswith(status) for r in fake.requests[seen:]
    )


async def _played_in_dm(fake: FakeDiscord, user: int, board: dict) -> str:
    """``user`` clicks Play under ``board`` in their DM, and on through the picker until
    a move is played and the bot is done with it (the game's pinned status brought up to
    date, its last step); what they are told privately."""
    clicked = await fake.click(user, board, ids_of(board)[0])
    where = await private_answer(fake, await reply_to(fake, clicked))
    for _ in range(4):
        seen = len(fake.requests)
        clicked = await fake.click(user, where, ids_of(where)[0])
        where = await private_answer(fake, await reply_to(fake, clicked))
        if text(where).startswith("You played `"):
            await fake.wait_for(_edited_since(fake, seen, board["channel_id"]), WAIT)
            return text(where)
    raise AssertionError(f"no move played: {text(where)!r}")


@pytest.mark.parametrize("guild_shard", [0, 1], ids=["guild-with-dms", "guild-elsewhere"])
async def test_solo_and_daily_play_in_dms_work_whichever_process_runs_the_guild(
    postgres_url, monkeypatch, guild_shard
):
    """Direct messages reach shard 0 alone. The daily challenge opened from the server
    (by the guild's shard's process) is played by clicks in the DM, which reach shard 0's
    process; a solo game is opened and played there too. Both processes share the store,
    so it makes no difference which process runs the guild."""
    guild = (guild_shard << 22) | GUILD_ID  # Discord puts it on shard (id >> 22) % 2
    async with shard_bots(postgres_url, monkeypatch, guild_id=guild) as (fake, bots):
        dms, home = bots[0], bots[guild_shard]
        assert home.get_guild(guild) is not None and (dms is home) == (guild_shard == 0)

        told = await private_answer(fake, await fake.slash(ADA, "daily", "play"))
        assert "waiting in your DMs" in text(told)
        ada_dm = str(DM_CHANNELS + ADA)
        (daily,) = [m for m in fake.messages.values() if m["channel_id"] == ada_dm and ids_of(m)]
        assert "Daily challenge" in text(daily)
        assert await _played_in_dm(fake, ADA, daily) == "You played `roll`."
        store = dms.service.store
        game = await store.latest_game(DM_CHANNELS + ADA)
        assert [m.user_id for m in await store.moves(game.id)] == [ADA]

        solo = await public_answer(fake, await fake.slash(BOB, "solo", in_dm=True))
        assert "**Seven Bridges** begins" in text(solo) and solo["channel_id"] == str(
            DM_CHANNELS + BOB
        )
        assert await _played_in_dm(fake, BOB, solo) == "You played `roll`."
        game = await store.latest_game(DM_CHANNELS + BOB)
        assert [m.user_id for m in await store.moves(game.id)] == [BOB]
        assert_no_rejections(fake)
