"""A game's page in a real browser: Debian's headless Chromium, driven by Playwright
(``.ci/run`` installs both; without them these tests are skipped, saying why).

A reader on a phone steps through the moves with the keys, sees a move made through the
service appear without reloading, and reads it all at 390 px without sideways
scrolling. The screenshots go to a temporary folder, or to ``BRIDGEKEEPER_SCREENS``
(``docs/screens`` to refresh the guide's)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.config import Web
from bot.service import Service
from bot.web.serving import serving
from tests.bot.web.test_pages import move
from tests.conftest import ADA, BOB, TABLE

CHROMIUM = Path("/usr/bin/chromium")
playwright = pytest.importorskip("playwright.async_api", reason="pip install playwright")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="no Chromium: apt-get install chromium (.ci/run does)"
)
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}


@pytest.fixture
async def browser():
    async with playwright.async_playwright() as driver:
        chromium = await driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox"]
        )
        yield chromium
        await chromium.close()


@pytest.fixture
async def game(store):
    """Bridges and Boats, a few moves in, served: (service, the page's address)."""
    service = Service(store, seed=lambda: 5)
    await service.lobby.create(TABLE, ADA, "bridges-and-boats")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    for _ in range(4):
        await move(service)
    game_id = (await service.games.active(TABLE)).row.id
    async with serving(service, Web(port=0)) as served:
        yield service, await served.link(game_id)


@pytest.fixture
def screens(tmp_path) -> Path:
    return Path(os.environ.get("BRIDGEKEEPER_SCREENS") or tmp_path)


async def opened(browser, url: str, viewport: dict):
    """A page at ``url``, failing the test on any script error or refused resource."""
    page = await browser.new_page(viewport=viewport)
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    await page.goto(url)
    await until(page, LOADED)
    return page, problems


#: the board's picture is in: loaded, and not broken
LOADED = "(b => b.complete && b.naturalWidth)(document.getElementById('board'))"
BOARD_WIDTH = "document.getElementById('board').getBoundingClientRect().width"


async def until(page, condition: str) -> None:
    """Wait until ``condition`` holds in the page (asked from outside it: the page's own
    policy refuses script evaluated from a string, which Playwright's waits use); a
    page that never gets there fails the test after a minute."""
    async with asyncio.timeout(60):
        while not await page.evaluate(condition):
            await asyncio.sleep(0.05)


async def caption(page) -> str:
    return await page.locator("#position").inner_text()


async def test_a_reader_steps_through_the_moves_with_the_keys(browser, game, screens):
    _, url = game
    page, problems = await opened(browser, url, PHONE)
    assert "after move 4 of 4" in await caption(page) and "now" in await caption(page)
    await page.keyboard.press("ArrowLeft")
    assert "after move 3 of 4" in await caption(page)
    assert "/board/3.png" in await page.get_attribute("#board", "src")
    current = page.locator('#moves a[aria-current="step"]')
    assert await current.get_attribute("data-ply") == "3"
    await page.keyboard.press("Home")
    assert "at the start" in await caption(page)
    assert await page.locator("#prev").is_disabled()
    await page.keyboard.press("ArrowRight")
    await until(page, LOADED)
    assert "after move 1 of 4" in await caption(page)
    await page.locator("#last").click()
    assert "after move 4 of 4" in await caption(page)
    assert await page.locator("#next").is_disabled()
    await page.locator('#moves a[data-ply="2"]').click()
    assert "after move 2 of 4" in await caption(page)
    assert not problems, problems


async def test_a_move_made_through_the_service_appears_without_reloading(browser, game):
    service, url = game
    page, problems = await opened(browser, url, PHONE)
    await page.evaluate("window.kept = 'this page was not reloaded'")
    await page.keyboard.press("Home")  # a reader looking back stays where they are
    played = await move(service)
    await until(page, "document.querySelectorAll('#moves li').length === 5")
    assert played in await page.locator("#moves li").last.inner_text()
    assert await page.evaluate("window.kept") == "this page was not reloaded"
    assert "at the start" in await caption(page)
    await page.keyboard.press("End")
    assert "after move 5 of 5" in await caption(page)
    turn = (await service.pages.page(await service.games.active(TABLE))).turn
    assert await page.locator(".turn").inner_text() == turn
    assert not problems, problems


async def test_the_page_reads_on_a_phone_and_from_the_keyboard(browser, game, screens):
    _, url = game
    for name, viewport in (("390", PHONE), ("1280", DESK)):
        page, problems = await opened(browser, url, viewport)
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{wide} px wide at {viewport['width']}"
        shown = await page.evaluate(BOARD_WIDTH)
        assert shown <= viewport["width"] and shown > viewport["width"] / 3
        await page.screenshot(path=screens / f"game-page-{name}.png", full_page=True)
        assert not problems, problems
    # keyboard: every control that can act now is reached with Tab, Zoom works from Enter
    await page.keyboard.press("ArrowLeft")
    reached = set()
    for _ in range(40):
        await page.keyboard.press("Tab")
        reached.add(await page.evaluate("(e => e.id || e.tagName)(document.activeElement)"))
    assert {"frame", "first", "prev", "next", "last", "zoom"} <= reached
    await page.focus("#zoom")
    await page.keyboard.press("Enter")
    assert await page.get_attribute("#zoom", "aria-pressed") == "true"
    zoomed = await page.evaluate(BOARD_WIDTH)
    assert zoomed > 0 and await page.evaluate("document.documentElement.scrollWidth") <= 1280
    # a phone reader zooms too: the board scrolls inside its frame, the page does not
    phone, _ = await opened(browser, url, PHONE)
    await phone.click("#zoom")
    assert await phone.evaluate("document.documentElement.scrollWidth") <= 390
    button = await phone.evaluate("document.getElementById('zoom').getBoundingClientRect().bottom")
    assert button <= PHONE["height"], "the Zoom button stays in sight, to zoom back out"
    frame = await phone.evaluate("[document.getElementById('frame').scrollWidth, 390]")
    assert frame[0] > frame[1], "zoomed, the board is larger than the screen, in its frame"
    await phone.screenshot(path=screens / "game-page-390-zoomed.png")


#: the element with the focus, and whether a reader sees where it is (an outline drawn)
FOCUS = """(e => [e.id || e.getAttribute('data-ply') || e.tagName,
  getComputedStyle(e).outlineStyle !== 'none' && parseFloat(getComputedStyle(e).outlineWidth) >= 2]
)(document.activeElement)"""


async def tab_to(page, ident: str, back: bool = False) -> None:
    """Press Tab (Shift+Tab with ``back``) until ``ident`` has the focus, each stop
    showing its focus; the test fails if it is never reached."""
    for _ in range(60):
        await page.keyboard.press("Shift+Tab" if back else "Tab")
        focused, seen = await page.evaluate(FOCUS)
        assert seen or focused == "BODY", f"the focus on {focused} is not shown"
        if focused == ident:
            return
    pytest.fail(f"{ident} never reached with Tab")


async def test_a_replay_is_walked_with_the_keyboard_alone_the_focus_always_shown(browser, game):
    _, url = game
    page, problems = await opened(browser, url, PHONE)
    assert await page.evaluate("scrollY") == 0, "the page opens at its top"
    await tab_to(page, "prev")
    await page.keyboard.press("Enter")
    assert "after move 3 of 4" in await caption(page)
    await page.keyboard.press("Space")
    assert "after move 2 of 4" in await caption(page)
    assert await page.get_attribute("#board", "alt") == await caption(page)
    described = await page.get_attribute("#board", "aria-describedby")
    assert described is None, "the board in words is now's, not this move's"
    await tab_to(page, "first", back=True)
    await page.keyboard.press("Enter")
    assert "at the start" in await caption(page)
    assert (await page.evaluate(FOCUS))[0] == "first", "the focus stays on the control used"
    await page.keyboard.press("Tab")  # on from the disabled Start: the next step forward
    await tab_to(page, "next")
    await page.keyboard.press("Space")
    assert "after move 1 of 4" in await caption(page)
    await page.keyboard.press("End")
    assert "after move 4 of 4" in await caption(page)
    assert await page.get_attribute("#board", "aria-describedby") == "words"
    await tab_to(page, "zoom")
    await page.keyboard.press("Space")
    assert await page.get_attribute("#zoom", "aria-pressed") == "true"
    # the zoomed board scrolls under the arrow keys while its frame has the focus
    await tab_to(page, "frame", back=True)
    await page.keyboard.press("ArrowRight")
    await until(page, "document.getElementById('frame').scrollLeft > 0")
    assert "after move 4 of 4" in await caption(page), "the arrows scrolled, not stepped"
    # a move in the list is followed with Enter
    await tab_to(page, "2")
    await page.keyboard.press("Enter")
    assert "after move 2 of 4" in await caption(page)
    assert not problems, problems
