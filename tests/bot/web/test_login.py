"""Logging in with Discord on a game's page, over HTTP, through the fake Discord OAuth2
(fake_discord_oauth.py): a seated player sees their own hand there and nobody else's;
a cookie that is forged, tampered with or ended reads as nobody; a login whose
``state`` is not this browser's is refused; logging out is a guarded POST."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import aiohttp
import pytest

from bot.config import BadSetting, Login, Web, load_settings
from bot.service import Service
from bot.service.sessions import SESSION_SECONDS
from bot.store.sqlite import SQLiteStore
from bot.web.login import SESSION, STATE
from bot.web.serving import serving
from tests.bot.web.fake_discord_oauth import fake_oauth
from tests.bot.web.test_pages import move
from tests.conftest import ADA, BOB, CY, TABLE

HAND = re.compile(r"Your hand: [^<.]+\.")


async def seven_cities(service: Service) -> int:
    """Ada and Bob in a game of Battle for Seven Cities, played until both hold cards."""
    await service.lobby.create(TABLE, ADA, "seven-cities")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    for _ in range(60):
        hands = [(await service.play.hand(TABLE, c)).text for c in (ADA, BOB)]
        if all(HAND.search(h) for h in hands) and hands[0] != hands[1]:
            break
        await move(service)
    else:
        raise AssertionError("nobody drew a card in 60 moves")
    return (await service.games.active(TABLE)).row.id


@dataclass
class Site:
    service: Service
    link: str
    fake: object

    def browser(self) -> aiohttp.ClientSession:
        """A reader of its own, with cookies (kept for 127.0.0.1 too)."""
        return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def log_in(self, http: aiohttp.ClientSession, who) -> str:
        """Log ``who`` in from the game's page, following every redirect; the page."""
        self.fake.user = (who.user_id, who.name)
        path = self.link.split("/", 3)[3]
        base = self.link[: -len(path) - 1]
        async with http.get(f"{base}/login?then=/{path}") as answer:
            assert answer.status == 200 and str(answer.url) == self.link
            return await answer.text()


@pytest.fixture
async def site(store):
    service = Service(store, seed=lambda: 5)
    game_id = await seven_cities(service)
    async with fake_oauth() as fake, serving(service, Web(port=0, login=fake.login)) as served:
        yield Site(service, await served.link(game_id), fake)


def hand_line(text: str) -> str:
    found = HAND.search(text)
    assert found, text
    return found[0]


async def test_a_player_logged_in_sees_their_own_hand_and_nobody_elses(site):
    ada = hand_line((await site.service.play.hand(TABLE, ADA)).text)
    bob = hand_line((await site.service.play.hand(TABLE, BOB)).text)
    async with site.browser() as http:
        async with http.get(site.link) as public:
            page = await public.text()
            assert 'id="login"' in page and "Your hand" not in page
        page = await site.log_in(http, ADA)
        assert ada in page and bob not in page
        assert "Logged in with Discord as <strong>Ada</strong>" in page
        async with http.get(site.link) as again:
            assert again.headers["Cache-Control"] == "private, no-store"
            assert "Cookie" in again.headers["Vary"]
        async with http.get(f"{site.link}/hand.png") as picture:
            assert picture.status == 200
            assert picture.headers["Cache-Control"] == "private, no-store"
            assert await picture.read() == (await site.service.play.hand(TABLE, ADA)).image
        mine = {e: await _read(http, site.link + e) for e in EXPORTS}
    async with site.browser() as http:
        await site.log_in(http, BOB)
        page = await _text(http, site.link)
        assert bob in page and ada not in page
    async with aiohttp.ClientSession() as http:
        anyone = {e: await _read(http, site.link + e) for e in EXPORTS}
        async with http.get(f"{site.link}/hand.png") as picture:
            assert picture.status == 404
    assert mine == anyone, "the board, the GIF and the exports are the same for everyone"


EXPORTS = ("/board.png", "/game.gif", "/record.txt", "/record.json")


async def _read(http: aiohttp.ClientSession, url: str) -> bytes:
    async with http.get(url) as answer:
        assert answer.status == 200, url
        return await answer.read()


async def _text(http: aiohttp.ClientSession, url: str) -> str:
    return (await _read(http, url)).decode()


async def test_a_forged_tampered_or_ended_cookie_gets_the_public_page(site, tmp_path):
    sessions = site.service.sessions
    good = await sessions.issue(BOB.user_id, "Bob", time.time())
    fields, signature = good.rsplit(".", 1)
    tampered = f"{ADA.user_id}.{fields.split('.', 1)[1]}.{signature}"
    ended = await sessions.issue(ADA.user_id, "Ada", time.time() - SESSION_SECONDS - 1)
    other = await SQLiteStore.open(tmp_path / "other.db")  # another database's secret
    try:
        forged = await Service(other).sessions.issue(ADA.user_id, "Ada", time.time())
    finally:
        await other.close()
    ada = hand_line((await site.service.play.hand(TABLE, ADA)).text)
    for cookie in (tampered, ended, forged, "1001", ""):
        async with aiohttp.ClientSession() as http:
            async with http.get(site.link, headers={"Cookie": f"{SESSION}={cookie}"}) as answer:
                page = await answer.text()
            assert answer.status == 200 and 'id="login"' in page, cookie
            assert ada not in page and "Logged in" not in page, cookie
            hand = f"{site.link}/hand.png"
            async with http.get(hand, headers={"Cookie": f"{SESSION}={cookie}"}) as answer:
                assert answer.status == 404
    async with site.browser() as http:  # the good one, to show the others could have
        http.cookie_jar.update_cookies({SESSION: good})
        assert "Logged in with Discord as <strong>Bob</strong>" in await _text(http, site.link)


async def test_a_login_whose_state_is_not_this_browsers_is_refused(site):
    base = site.link.split("/g/")[0]
    site.fake.user = (ADA.user_id, ADA.name)
    async with site.browser() as http:
        async with http.get(f"{base}/login?then=/", allow_redirects=False) as started:
            assert started.status == 302
            authorize = started.headers["Location"]
        state = re.search(r"state=([^&]+)", authorize)[1]
    async with site.browser() as other:  # another browser, sent this one's callback
        async with other.get(f"{base}/login?then=/", allow_redirects=False):
            pass  # it has a state of its own
        async with other.get(authorize, allow_redirects=False) as back:
            callback = back.headers["Location"]
        assert f"state={state}" in callback
        async with other.get(callback, allow_redirects=False) as refused:
            text = await refused.text()
        assert refused.status == 400 and "not started from this browser" in text
        assert SESSION not in refused.cookies
        assert "Logged in" not in await _text(other, site.link)
    async with aiohttp.ClientSession() as none:  # no state cookie at all
        refused = await none.get(f"{base}/login/callback?code=x&state={state}")
        assert refused.status == 400
        refused.release()


async def test_a_login_is_followed_once_and_only_back_to_our_pages(site):
    base = site.link.split("/g/")[0]
    site.fake.user = (ADA.user_id, ADA.name)
    async with site.browser() as http:
        address = f"{base}/login?then=https://elsewhere.example/g/1-aaaaaaaaaaaaaaaa"
        async with http.get(address, allow_redirects=False) as started:
            authorize = started.headers["Location"]
        async with http.get(authorize, allow_redirects=False) as back:
            callback = back.headers["Location"]
        async with http.get(callback, allow_redirects=False) as done:
            assert done.status == 303 and done.headers["Location"] == "/"
            assert done.cookies[SESSION]["httponly"] and done.cookies[SESSION]["samesite"] == "Lax"
            assert not done.cookies[SESSION]["secure"], "plain http: a Secure cookie is lost"
        async with http.get(callback, allow_redirects=False) as replayed:
            assert replayed.status == 400, "its state went with it"
    assert STATE not in [c.key for c in http.cookie_jar]


async def test_a_player_not_seated_sees_the_public_page(site):
    async with site.browser() as http:
        page = await site.log_in(http, CY)
        assert "Logged in with Discord as <strong>Cy</strong>" in page
        assert "Your hand" not in page and not HAND.search(page)
        async with http.get(f"{site.link}/hand.png") as picture:
            assert picture.status == 404


async def test_logging_out_is_a_guarded_post(site):
    base = site.link.split("/g/")[0]
    async with site.browser() as http:
        page = await site.log_in(http, ADA)
        guard = re.search(r'name="guard" value="([^"]+)"', page)[1]
        async with http.get(f"{base}/logout") as answer:
            assert answer.status == 405
        forged = ("y" if guard[0] == "x" else "x") + guard[1:]  # one character wrong
        async with http.post(f"{base}/logout", data={"guard": forged}) as answer:
            assert answer.status == 403 and "nothing changed" in await answer.text()
        assert "Logged in" in await _text(http, site.link)
        then = site.link[len(base) :]
        async with http.post(f"{base}/logout", data={"guard": guard, "then": then}) as answer:
            assert answer.status == 200 and str(answer.url) == site.link
            page = await answer.text()
        assert "Logged in" not in page and "Your hand" not in page and 'id="login"' in page


async def test_no_login_is_offered_where_none_is_set_up(store):
    service = Service(store, seed=lambda: 5)
    game_id = await seven_cities(service)
    async with serving(service, Web(port=0)) as served, aiohttp.ClientSession() as http:
        page = await _text(http, await served.link(game_id))
        assert "Log in" not in page
        async with http.get(f"{served.listening}/login") as answer:
            assert answer.status == 404


def test_the_login_settings_are_both_or_neither(tmp_path):
    env = {"BRIDGEKEEPER_OAUTH_CLIENT_ID": "12", "BRIDGEKEEPER_OAUTH_CLIENT_SECRET": "s3"}
    web = load_settings(env, tmp_path / ".env").web
    assert web is not None and web.login == Login("12", "s3")
    assert "s3" not in repr(web)
    for alone in ("BRIDGEKEEPER_OAUTH_CLIENT_ID", "BRIDGEKEEPER_OAUTH_CLIENT_SECRET"):
        with pytest.raises(BadSetting, match="both"):
            load_settings({alone: "x"}, tmp_path / ".env")
    assert load_settings({}, tmp_path / ".env").web.login is None
