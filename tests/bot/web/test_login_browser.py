"""Logging in with Discord in a real browser (Debian's headless Chromium through
Playwright, as ``test_browser.py``), through the fake Discord OAuth2 server: Ada clicks
"Log in with Discord" on a game of Battle for Seven Cities, comes back to the page and
sees her own hand (its words and its picture) and not Bob's, sees it follow a move
without reloading, reads it at 390 px, and logs out with the button. Screenshots of the
logged-in page at 390 and 1280 px go to ``BRIDGEKEEPER_SCREENS`` (``docs/screens`` to
refresh the guide's)."""

from __future__ import annotations

from bot.config import Web
from bot.service import Service
from bot.web.serving import serving
from tests.bot.web.fake_discord_oauth import fake_oauth
from tests.bot.web.test_browser import (  # noqa: F401 (fixtures)
    DESK,
    PHONE,
    browser,
    opened,
    screens,
    until,
)
from tests.bot.web.test_login import hand_line, seven_cities
from tests.bot.web.test_pages import move
from tests.conftest import ADA, BOB, TABLE

#: the hand's picture is in: loaded, and not broken
HAND_LOADED = "(b => b && b.complete && b.naturalWidth)(document.getElementById('hand-board'))"


async def test_a_player_logs_in_sees_their_own_hand_and_logs_out(browser, store, screens):  # noqa: F811
    service = Service(store, seed=lambda: 5)
    game_id = await seven_cities(service)
    ada = hand_line((await service.play.hand(TABLE, ADA)).text)
    bob = hand_line((await service.play.hand(TABLE, BOB)).text)
    async with fake_oauth() as fake, serving(service, Web(port=0, login=fake.login)) as served:
        fake.user = (ADA.user_id, ADA.name)
        url = await served.link(game_id)
        page, problems = await opened(browser, url, PHONE)
        assert await page.locator("#hand").count() == 0
        await page.click("#login")
        await until(page, HAND_LOADED)
        assert page.url == url, "back on the game's page"
        words = await page.locator("#hand-words").inner_text()
        assert ada in words and bob not in await page.content()
        assert "Ada" in await page.locator(".account").inner_text()
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], f"{wide} px wide at 390"
        await page.screenshot(path=screens / "game-page-logged-in-390.png", full_page=True)
        await page.set_viewport_size(DESK)
        await page.reload()
        await until(page, HAND_LOADED)
        await page.screenshot(path=screens / "game-page-logged-in-1280.png", full_page=True)
        await move(service)  # the hand follows the game live, as the rest of the page does
        version = (await service.games.active(TABLE)).row.version
        await until(page, f"document.getElementById('hand-board').src.endsWith('v={version}')")
        await until(page, HAND_LOADED)
        await page.click("#logout")
        await until(page, "!document.getElementById('hand') && !!document.getElementById('login')")
        assert page.url == url and ada not in await page.content()
        assert not problems, problems
