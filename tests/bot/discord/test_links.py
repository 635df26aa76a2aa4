"""Links everywhere: what the bot posts leads to the game's page, the league's and the
daily challenge's (``bot.service.pages``), where people elsewhere can follow them.

The pages are served for real (``bot.web.serving``) behind a public address the tests
set, as ``BRIDGEKEEPER_PUBLIC_URL`` would; Discord is the fake of ``discord_harness``.
"""

from __future__ import annotations

import pytest

from bot.config import Web
from bot.service import Caller
from bot.web.serving import serving
from tests.bot.discord.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    Call,
    Harness,
    Replies,
    components_of,
    text,
)

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
MO = Caller(1009, "Mo", manager=True)
SITE = "https://games.example.org"
PUBLIC = Web("127.0.0.1", 0, public_url=SITE)


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


async def started(h: Harness) -> Replies:
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    return await h.slash("game", "start", user=ADA)


async def test_game_link_gives_the_games_page_privately(h):
    async with serving(h.service, PUBLIC):
        await started(h)
        told = (await h.slash("game", "link", user=BOB)).one
    assert told.ephemeral and told.pinged == set()
    page = SITE + await h.service.pages.path(1)
    assert told.text == f"**Skybridge #1**: {page}"


async def test_game_link_on_this_machine_alone_says_so_and_with_no_pages_refuses(h):
    async with serving(h.service, Web("127.0.0.1", 0)) as served:
        await started(h)
        told = (await h.slash("game", "link", user=ADA)).one
    assert told.ephemeral
    assert told.text.startswith(f"**Skybridge #1**: {served.where.base}/g/1-")
    assert "Served to this machine only" in told.text and "BRIDGEKEEPER_PUBLIC_URL" in told.text
    h.service.pages.site = h.service.pages.shared = None  # as a bot with BRIDGEKEEPER_WEB=off
    off = (await h.slash("game", "link", user=ADA)).one
    assert off.ephemeral and "BRIDGEKEEPER_WEB is off" in off.text
    nothing = (await h.slash("game", "link", user=ADA, channel=CHANNEL_ID + 1)).one
    assert nothing.ephemeral and "No game has been played here yet" in nothing.text


async def league_started(h: Harness) -> list[Call]:
    """Ada and Bob's Swiss league of Skybridge, two rounds, started by Mo: what the bot
    posted then (the round's announcement, the match's board in its thread)."""
    await h.slash("league", "create", name="Cup", game="skybridge", format="swiss",
                  rounds=2, user=MO)  # fmt: skip
    for player in (ADA, BOB):
        await h.slash("league", "join", name="Cup", user=player)
    before = len(h.calls)
    await h.slash("league", "start", name="Cup", user=MO)
    return [c for c in h.calls[before:] if c.path == "/channels/{channel_id}/messages"]


def thread_of(post: Call) -> int:
    return int(post.url.split("/channels/")[1].split("/")[0])


async def test_game_link_in_a_league_match_gives_the_leagues_page_too(h):
    async with serving(h.service, PUBLIC):
        (board,) = [c for c in await league_started(h) if c.files]
        thread_id = thread_of(board)
        told = (await h.slash("game", "link", user=ADA, channel=thread_id)).one
    (league,) = await h.store.leagues(GUILD_ID)
    game = await h.store.live_game(thread_id)
    assert told.ephemeral and told.text == (
        f"**Skybridge #{game.id}**: {SITE}{await h.service.pages.path(game.id)}\n"
        f"Its league, **Cup**: {SITE}{await h.service.pages.path(league.id, 'league')}"
    )


async def test_a_leagues_round_and_standings_link_to_its_page_and_each_match_to_its_game(h):
    async with serving(h.service, PUBLIC):
        posts = await league_started(h)
        (league,) = await h.store.leagues(GUILD_ID)
        page = SITE + await h.service.pages.path(league.id, "league")
        (round_post,) = [c for c in posts if "round 1 of 2" in c.text]
        assert round_post.text.splitlines()[-1] == f"[League page](<{page}>)"
        (board,) = [c for c in posts if c.files]
        game = await h.store.live_game(thread_of(board))
        (link,) = [c for c in components_of(board.message["components"]) if c.get("url")]
        assert link["label"] == "Game page"
        assert link["url"] == SITE + await h.service.pages.path(game.id)
        standings = (await h.slash("league", "standings", name="Cup", user=BOB)).board
        assert standings.text.splitlines()[-1] == f"[League page](<{page}>)"


async def test_the_daily_posts_and_leaderboard_link_to_the_daily_page(h):
    async with serving(h.service, PUBLIC):
        page = SITE + await h.service.pages.path(0, "daily")
        await h.slash("daily", "setup", user=MO)
        await h.bot.get_cog("Postal").run_once()
        (post,) = [h.messages[m] for m in h.posted if "**Daily challenge" in text(h.messages[m])]
        assert text(post).splitlines()[-1] == f"[Daily page](<{page}>)"
        board = (await h.slash("daily", "leaderboard", user=ADA)).one
        assert board.text.splitlines()[-1] == f"[Daily page](<{page}>)"
        assert not board.ephemeral, "posted for the channel, as before"
    # once the pages are this machine's alone, no post links to them
    h.service.pages.shared = None
    alone = (await h.slash("daily", "leaderboard", user=ADA)).one
    assert "Daily page" not in alone.text
