"""Layer 2: the bot says which permission it lacks, and what will not work without it.

The harness answers as Discord does when the bot lacks a permission in a channel (403,
50013) and hands each interaction the bot's permissions there (``app_permissions``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord import permissions
from bot.service import Caller
from tests.bot.discord.discord_harness import (
    ATTACH,
    BOT_PERMISSIONS,
    CHANNEL_ID,
    CREATE_THREADS,
    MANAGE_THREADS,
    PIN,
    THREAD_ID,
    Harness,
)

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
MO = Caller(1009, "Mo", manager=True)
README = Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def private_text(replies) -> str:
    assert not replies.public, "nothing public"
    return "\n".join(r.text for r in replies.messages)


async def test_no_game_opens_where_boards_cannot_be_attached(h):
    h.bot_permissions = BOT_PERMISSIONS & ~ATTACH
    said = private_text(await h.slash("game", "new", game="skybridge", user=ADA))
    assert "I can't host a game here" in said and "**Attach Files**" in said
    assert await h.store.latest_game(CHANNEL_ID) is None, "nothing was opened"


async def test_without_pin_messages_the_game_runs_and_the_starter_is_told(h):
    h.bot_permissions = BOT_PERMISSIONS & ~PIN
    opened = await h.slash("game", "new", game="skybridge", user=ADA)
    assert len(opened.public) == 1, "the game opens"
    (note,) = [r for r in opened.messages if r.ephemeral]
    assert "**Pin Messages**" in note.text
    await h.slash("game", "join", user=BOB)
    started = await h.slash("game", "start", user=ADA)
    assert started.board.images, "the board is out"
    (told,) = [r for r in started.messages if r.ephemeral]
    assert "can't pin it" in told.text and "**Pin Messages**" in told.text
    assert h.pinned == []


async def test_no_league_where_match_threads_cannot_be_opened(h):
    h.bot_permissions = BOT_PERMISSIONS & ~CREATE_THREADS
    said = private_text(
        await h.slash("league", "create", name="Cup", game="skybridge", format="swiss", user=MO)
    )
    assert "I can't run a league here" in said and "**Create Public Threads**" in said
    assert await h.store.league(9001, "Cup") is None


async def test_archiving_a_thread_without_manage_threads_is_refused_by_name(h):
    await h.slash("game", "new", game="skybridge", user=ADA, channel=THREAD_ID)
    await h.slash("game", "join", user=BOB, channel=THREAD_ID)
    await h.slash("game", "start", user=ADA, channel=THREAD_ID)
    await h.slash("game", "resign", user=BOB, channel=THREAD_ID)
    h.bot_permissions = BOT_PERMISSIONS & ~MANAGE_THREADS
    said = private_text(await h.slash("game", "archive", user=ADA, channel=THREAD_ID))
    assert "I can't archive this thread" in said and "**Manage Threads**" in said
    assert h.thread_edits == []
    h.bot_permissions = BOT_PERMISSIONS
    archived = await h.slash("game", "archive", user=ADA, channel=THREAD_ID)
    assert archived.messages and h.thread_edits == [{"archived": True}]


def test_the_readme_asks_for_every_permission_the_bot_uses():
    text = README.read_text(encoding="utf-8")
    for need in permissions.EVERY:
        assert f"*{need.name}*" in text, f"the invite does not ask for {need.name}"
    # the harness gives the bot what the invite asks for, so the tests run as a host would
    assert permissions.invite_permissions().value & ~BOT_PERMISSIONS == 0
