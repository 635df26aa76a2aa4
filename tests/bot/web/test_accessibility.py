"""Every kind of page, in a real browser (Debian's headless Chromium through Playwright,
as ``test_browser.py``), checked by axe-core (the ``axe-playwright-python`` package
bundles its script: nothing is fetched at test time) at 390 and 1280 px, and on a 390 px
phone set to dark: no serious or critical violation, and no page wider than its window
(sideways scrolling). The kinds: each game's page live and finished, a step back in a
live game's replay, a player logged in with their own hand, the error pages a browser
can land on (404, a refused login's 400), the site's root, and a league's, the daily
challenge's, a player's and a server's pages. Screenshots of a finished game, a replay
step and the 404 go to ``BRIDGEKEEPER_SCREENS`` (``docs/screens`` to refresh the guide's)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.config import Web
from bot.service import Service, Table
from bot.tools.selfplay import play_random, robots
from bot.web.serving import serving
from tests.bot.web.fake_discord_oauth import fake_oauth
from tests.bot.web.test_browser import DESK, PHONE, browser, screens, until  # noqa: F401 (fixtures)
from tests.bot.web.test_listings import site  # noqa: F401 (a fixture)
from tests.bot.web.test_listings_browser import listed  # noqa: F401 (a fixture)

axe = pytest.importorskip("axe_playwright_python.async_playwright", reason="pip install -e .[test]")
#: what fails a page: axe's two worst impacts (the others, moderate and minor, are advice)
SERIOUS = ("serious", "critical")
#: moves into each live game: enough for a replay to step back through
LIVE_MOVES = 6
#: the windows each page is read in: a phone, a desk, and a phone set to dark
WINDOWS = ((PHONE, "light"), (DESK, "light"), (PHONE, "dark"))
BOARD_IN = "(b => !b || (b.complete && b.naturalWidth))(document.getElementById('board'))"


@dataclass
class Findings:
    """What the pages broke, by page and width: axe's serious and critical violations,
    and each page wider than its window."""

    screens: Path | None = None
    violations: list[str] = field(default_factory=list)
    sideways: list[str] = field(default_factory=list)

    async def check(self, page, label: str) -> None:
        """Run axe over ``page`` as it is now, and measure its width."""
        width = page.viewport_size["width"]
        scheme = await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        label = f"{label}, {'dark' if scheme else 'light'}"
        results = await axe.Axe().run(page)
        for v in results.response["violations"]:
            if v["impact"] not in SERIOUS:
                continue
            where = "; ".join(
                f"{' '.join(n['target'])}: {n.get('failureSummary', '').splitlines()[-1]}"
                for n in v["nodes"][:4]
            )
            self.violations.append(f"{label} at {width} px: {v['id']} ({v['impact']}) {where}")
        wide = await page.evaluate("document.scrollingElement.scrollWidth")
        if wide > width:
            self.sideways.append(f"{label}: {wide} px wide in a {width} px window")

    async def visit(
        self,
        browser,  # noqa: F811
        url: str,
        label: str,
        status: int = 200,
        then: Callable[[Any], Awaitable[None]] | None = None,
        shot: str | None = None,
    ) -> None:
        """Check the page at ``url`` in each window, once ``then`` (keys pressed, a
        login) is done to it; its light windows' screenshots go to ``shot``-<width>.png
        in :attr:`screens`."""
        for viewport, scheme in WINDOWS:
            page = await browser.new_page(viewport=viewport, color_scheme=scheme)
            answer = await page.goto(url)
            assert answer.status == status, (label, url)
            if then is not None:
                await then(page)
            await until(page, BOARD_IN)
            await self.check(page, label)
            if shot and self.screens and scheme == "light":
                name = f"{shot}-{viewport['width']}.png"
                await page.screenshot(path=self.screens / name, full_page=True)
            await page.close()

    def assert_none(self) -> None:
        """Fail naming every violation and every page too wide, one a line."""
        said = []
        if self.violations:
            said += ["axe-core found:", *self.violations]
        if self.sideways:
            said += ["wider than the window (sideways scrolling):", *self.sideways]
        if said:
            pytest.fail("\n".join(said), pytrace=False)


async def game_of(service: Service, n: int, key: str, finished: bool) -> int:
    """A game of ``key`` at a table of its own, played out, or ``LIVE_MOVES`` in; its id."""
    rules = engine.get(key)
    players = max(rules.info.min_players, 2 if rules.info.max_players > 1 else 1)
    table = Table(channel_id=700 + n, guild_id=1)
    if finished:
        await play_random(service, table, key, players, random.Random(n))
    else:
        seats = robots(players)
        await service.lobby.create(table, seats[0], key)
        for caller in seats[1:]:
            await service.lobby.join(table, caller)
        reply = await service.lobby.start(table, seats[0])
        rng = random.Random(n)
        by_id = {c.user_id: c for c in seats}
        for _ in range(LIVE_MOVES):
            caller = by_id[rng.choice(reply.awaiting)]
            reply = await service.play.move(
                table, caller, rng.choice(await service.play.legal_moves(table, caller))
            )
    return (await service.store.latest_game(table.channel_id)).id


async def back_to_move_one(page) -> None:
    await page.keyboard.press("Home")
    await page.keyboard.press("ArrowRight")


async def test_every_game_page_passes_axe_and_reads_on_a_phone(browser, store, screens):  # noqa: F811
    service = Service(store, seed=lambda: 7)
    found = Findings(screens)
    async with fake_oauth() as fake, serving(service, Web(port=0, login=fake.login)) as served:
        games = {}
        for n, key in enumerate(sorted(engine.GAMES)):
            for finished in (False, True):
                label = f"{key} {'finished' if finished else 'live'}"
                games[label] = await served.link(
                    await game_of(service, 2 * n + finished, key, finished)
                )
        for label, url in games.items():
            shot = "game-finished-page" if label == "skybridge finished" else None
            await found.visit(browser, url, f"{label} game page", shot=shot)
            if label.endswith("live"):  # a step back: the same page, another board and caption
                shot = "game-replay-page" if label == "skybridge live" else None
                await found.visit(
                    browser, url, f"{label} replay at move 1", then=back_to_move_one, shot=shot
                )

        async def log_in(page) -> None:
            await page.click("#login")
            await until(page, "!!document.getElementById('hand')")

        # a seated player logged in, with their own hand on the page
        fake.user = (robots(1)[0].user_id, robots(1)[0].name)
        await found.visit(browser, games["seven-cities live"], "logged in with a hand", then=log_in)
        base = served.listening
        await found.visit(browser, base + "/", "the site's root")
        await found.visit(browser, base + "/g/1-aaaaaaaaaaaaaaaa", "404", 404, shot="error-page")
        await found.visit(browser, base + "/login/callback?state=x", "400", 400)
    found.assert_none()


async def test_every_listing_page_passes_axe_and_reads_on_a_phone(browser, listed):  # noqa: F811
    found = Findings()
    for kind, url in listed.items():
        await found.visit(browser, url, f"{kind} page")
    found.assert_none()
