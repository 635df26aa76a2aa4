"""Logging in with Discord (OAuth2's authorization-code flow, the ``identify`` scope
only) and out, and who reads a page: the session cookie (:mod:`bot.service.sessions`).

``GET /login?then=<a game's page>`` makes a ``state``, keeps it in a cookie of this
browser's and sends the browser to Discord's authorization page; Discord sends it back
to ``GET /login/callback`` with a ``code`` and that ``state``. A ``state`` that is not
the one this browser kept (another site's link, an old tab, a replay) is refused with a
400; the code is exchanged for a token here, on the server, the user's id read from
``/users/@me``, and the token thrown away: only the signed session cookie is kept. The
callback is the one GET that changes anything (the browser's cookies), as OAuth2 has
it; it can be followed once (its ``state`` cookie goes with it). Logging out is a POST
carrying a guard only a page read with that session holds.

Cookies: HttpOnly, SameSite=Lax (sent on the top-level navigation back from Discord,
not on another site's requests), and Secure when the pages' public address is https.
On plain ``http://`` (a laptop's 127.0.0.1) they cannot be Secure, or the browser would
not send them back.
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.config import Login
from bot.service import Service
from bot.service.sessions import SESSION_SECONDS, STATE_SECONDS, Session
from bot.web.keys import LOGIN, SERVICE

SESSION = "bk_session"
STATE = "bk_state"
#: where a login may send the browser back to: a game's page, or the site's root
THEN = re.compile(r"/g/[1-9][0-9]{0,17}-[a-z2-7]{16}")
#: seconds Discord has to answer the exchange of a code
DISCORD_WITHIN = 10.0
CALLBACK = "/login/callback"


def routes(application: web.Application, login: Login) -> None:
    """Add logging in and out to ``application``, with ``login``'s OAuth2 application."""
    application[LOGIN] = login
    application.router.add_get("/login", _login)
    application.router.add_get(CALLBACK, _callback)
    application.router.add_post("/logout", _logout)


async def reader(request: web.Request) -> Session | None:
    """Who reads this page: the session its cookie holds, or None (and always None
    where no login is set up)."""
    if LOGIN not in request.app:
        return None
    service = request.app[SERVICE]
    return await service.sessions.read(request.cookies.get(SESSION), time.time())


def _then(path: str | None) -> str:
    return path if path and THEN.fullmatch(path) else "/"


def _secure(service: Service) -> bool:
    return (service.pages.site or "").startswith("https://")


def _cookie(
    response: web.StreamResponse, service: Service, name: str, value: str, age: int
) -> None:
    response.set_cookie(
        name,
        value,
        max_age=age,
        path="/",
        httponly=True,
        secure=_secure(service),
        samesite="Lax",
    )


def _redirect_uri(service: Service) -> str:
    return f"{service.pages.site}{CALLBACK}"


async def _login(request: web.Request) -> web.Response:
    service, login = request.app[SERVICE], request.app[LOGIN]
    state = await service.sessions.state(_then(request.query.get("then")), time.time())
    query = urlencode(
        {
            "response_type": "code",
            "client_id": login.client_id,
            "scope": "identify",
            "state": state,
            "redirect_uri": _redirect_uri(service),
            "prompt": "none",
        }
    )
    response = web.Response(
        status=302, headers={"Location": f"{login.discord}/oauth2/authorize?{query}"}
    )
    _cookie(response, service, STATE, state, STATE_SECONDS)
    return response


class Unwilling(Exception):
    """Discord did not accept the login."""


async def _callback(request: web.Request) -> web.Response:
    service, login = request.app[SERVICE], request.app[LOGIN]
    now = time.time()
    then = await service.sessions.returned(
        request.query.get("state", ""), request.cookies.get(STATE), now
    )
    if then is None:
        raise web.HTTPBadRequest(
            reason="This login was not started from this browser, or it took too long: "
            "open the game's page and log in again"
        )
    if "code" not in request.query:
        raise web.HTTPBadRequest(reason="Discord did not allow the login: nothing changed")
    try:
        user_id, name = await _identify(login, request.query["code"], _redirect_uri(service))
    except Unwilling:
        raise web.HTTPBadRequest(reason="Discord did not accept this login: log in again") from None
    except (aiohttp.ClientError, TimeoutError):
        raise web.HTTPBadGateway(reason="Discord could not be reached: try again later") from None
    response = web.Response(status=303, headers={"Location": then})
    _cookie(
        response,
        service,
        SESSION,
        await service.sessions.issue(user_id, name, now),
        SESSION_SECONDS,
    )
    response.del_cookie(STATE, path="/")
    return response


async def _identify(login: Login, code: str, redirect_uri: str) -> tuple[int, str]:
    """The Discord user a ``code`` was given for: exchanged for a token, which reads
    ``/users/@me`` once and is forgotten."""
    api = f"{login.discord}/api/v10"
    timeout = aiohttp.ClientTimeout(total=DISCORD_WITHIN)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        async with http.post(
            f"{api}/oauth2/token",
            data={
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": redirect_uri,
                "client_id": login.client_id,
                "client_secret": login.client_secret,
            },
        ) as answer:
            if answer.status != 200:
                raise Unwilling
            token = (await answer.json()).get("access_token")
        if not isinstance(token, str):
            raise Unwilling
        async with http.get(f"{api}/users/@me", headers={"Authorization": f"Bearer {token}"}) as me:
            if me.status != 200:
                raise Unwilling
            user = await me.json()
    user_id = str(user.get("id", ""))
    if not user_id.isdigit():
        raise Unwilling
    return int(user_id), str(user.get("global_name") or user.get("username") or user_id)


async def _logout(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    form = await request.post()
    then = _then(str(form.get("then", "")))
    value = request.cookies.get(SESSION)
    if value is not None and not await service.sessions.guarded(value, str(form.get("guard", ""))):
        raise web.HTTPForbidden(
            reason="This logout did not come from one of our pages: nothing changed"
        )
    response = web.Response(status=303, headers={"Location": then})
    response.del_cookie(SESSION, path="/")
    return response
