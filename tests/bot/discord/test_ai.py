"""AI players through the real discord.py and the fake Discord: opened with the game, added
in the lobby, handed a seat; each moves by itself a moment after its turn begins, posted in
the channel with its board, pinging the person whose turn it is next."""

from __future__ import annotations

import asyncio

import pytest

import bot.domain.clocks
from bot.service import Caller, Table
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, Harness

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
TABLE = Table(CHANNEL_ID, GUILD_ID)


@pytest.fixture
async def h(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.domain.clocks, "AI_PAUSE", (0.05, 0.1))  # a test need not wait seconds
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def channel_posts(h: Harness, since: int) -> list:
    return [c for c in h.calls[since:] if c.path == "/channels/{channel_id}/messages"]


async def test_an_ai_player_moves_by_itself_and_pings_the_person(h):
    opened = (await h.slash("game", "new", game="skybridge", ai=1, ai_level="easy", user=ADA)).one
    assert "AI players: AI Telford (easy)" in opened.text and not opened.ephemeral
    await h.slash("game", "start", user=ADA)
    for _ in range(2):
        move = (await h.service.play.legal_moves(TABLE, ADA))[0]
        before = len(h.calls)
        await h.slash("move", notation=move, user=ADA)
        await asyncio.sleep(0.4)  # the AI's pause, then its pass
        ping, post = channel_posts(h, before)
        assert post.text.startswith("AI Telford (easy) placed")
        assert post.files and post.files[0].filename == "board.png"
        assert [int(u) for u in ping.payload["allowed_mentions"]["users"]] == [ADA.user_id]
        assert ping.text.startswith(f"<@{ADA.user_id}>, your move in **Skybridge #1** — AI ")
        assert post.payload["allowed_mentions"]["users"] == [], "the card pings nobody"
    assert await h.service.seats.waiting_ai(TABLE) is None, "the turn is the person's again"


async def test_add_ai_and_replace_by_an_ai_on_discord(h):
    await h.slash("game", "new", game="skybridge", user=ADA)
    added = (await h.slash("game", "add-ai", level="hard", user=ADA)).one
    assert "AI Telford (hard) joined" in added.text
    refused = (await h.slash("game", "add-ai", user=BOB)).one
    assert refused.ephemeral and "Only the player who opened the game" in refused.text
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    neither = (await h.slash("game", "replace", player=BOB, user=BOB)).one
    assert neither.ephemeral and "a person (`by`) or an AI player (`ai`)" in neither.text
    handed = (await h.slash("game", "replace", player=BOB, ai="easy", user=BOB)).one
    assert "AI Brunel (easy) takes over seat 3 from Bob" in handed.text
    names = [s.name for s in await h.store.seats(1)]
    assert names == ["Ada", "AI Telford (hard)", "AI Brunel (easy)"]
