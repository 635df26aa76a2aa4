"""A league's, the daily challenge's, a player's and a server's pages in a real browser
(Debian's headless Chromium through Playwright, as ``test_web_browser.py``): each reads
at 390 px without sideways scrolling, its links are reached and followed from the
keyboard, and nothing it loads is refused by its policy. Screenshots at 390 and 1280 px
go to ``BRIDGEKEEPER_SCREENS`` (``docs/screens`` to refresh the guide's)."""

from __future__ import annotations

import random

import pytest

from bot.service import Caller
from tests.bot.service.test_daily import dm, play_out
from tests.bot.service.test_league_service import HOME, MOD, PLAYERS, finish, games_in
from tests.bot.web.test_browser import DESK, PHONE, browser, screens  # noqa: F401 (fixtures)
from tests.bot.web.test_listings import Site, site  # noqa: F401 (a fixture)

#: the league's seed: its first match has the long name in it
SEASON = 2026
LONG = Caller(199, "🐉 Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausen")


@pytest.fixture
async def listed(site, monkeypatch):  # noqa: F811
    """A round robin with a long name in it, its first round played (the long name in
    its finished match), a daily challenge played yesterday and today, and the server's
    page on: each page's address."""
    monkeypatch.setattr("bot.service.leagues.signup.secrets.randbits", lambda bits: SEASON)
    service, clock = site.service, site.clock
    await service.daily.play(dm(LONG), LONG, None)
    await play_out(service, dm(LONG), LONG, random.Random(4))
    clock.at(days=1)
    for who, seed in ((LONG, 5), (PLAYERS[0], 6)):
        await service.daily.play(dm(who), who, None)
        await play_out(service, dm(who), who, random.Random(seed))
    await service.daily.settle()
    await service.leagues.create(HOME, MOD, "Autumn Cup", "skybridge", "round-robin")
    for p in [*PLAYERS[:3], LONG]:
        await service.leagues.join(HOME.guild_id, p, "Autumn Cup")
    posted = await service.league_rounds.start(HOME.guild_id, MOD, "Autumn Cup")
    tables = games_in(posted)
    await finish(service, tables[0], random.Random(2))
    first = (await service.store.matches(1))[0]
    assert LONG.user_id in first.players, "a season whose finished match has the long name"
    await service.league_rounds.tick()  # the match settled: its result in the table
    await service.listings.set_server_page(HOME, MOD, True)
    league = await service.store.league(HOME.guild_id, "Autumn Cup")
    pages = service.pages
    return {
        "league": site.base + await pages.path(league.id, "league"),
        "daily": site.base + await pages.path(0, "daily"),
        "player": site.base + await pages.path(LONG.user_id, "player"),
        "server": site.base + await pages.path(HOME.guild_id, "server"),
    }


async def opened(browser, url: str, viewport: dict):  # noqa: F811
    page = await browser.new_page(viewport=viewport)
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    answer = await page.goto(url)
    assert answer.status == 200, url
    return page, problems


@pytest.mark.parametrize("kind", ["league", "daily", "player", "server"])
async def test_each_page_reads_on_a_phone_and_its_links_work_from_the_keyboard(
    browser,  # noqa: F811
    listed,
    screens,  # noqa: F811
    kind,
):
    url = listed[kind]
    for name, viewport in (("390", PHONE), ("1280", DESK)):
        page, problems = await opened(browser, url, viewport)
        await page.screenshot(path=screens / f"{kind}-page-{name}.png", full_page=True)
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{kind}: {wide} px wide at {viewport['width']}"
        assert not problems, problems
    # Tab reaches a game's link; Enter follows it to the game's page
    for _ in range(60):
        await page.keyboard.press("Tab")
        href = await page.evaluate("document.activeElement.getAttribute('href') || ''")
        if href.startswith("/g/"):
            break
    else:
        pytest.fail(f"no game's link reached with Tab on the {kind} page")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/g/**")
    assert await page.locator("h1").inner_text() != ""
