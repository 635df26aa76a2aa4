"""A small fake of Discord's OAuth2 for the pages' login: the authorization page, the
token endpoint and ``/users/@me``, on 127.0.0.1 at a port the OS picks.

Its authorization page asks nothing: it sends the browser straight back to the
``redirect_uri`` with a code for :attr:`FakeOAuth.user` (whom the test logs in as) and
the ``state`` it was given, as Discord does once a user clicks Authorize. It enforces
what the real one does and a test should trip over: the client's id and secret (in the
form), a code used once, for the ``redirect_uri`` it was given for, and the
``identify`` scope; every request is kept in :attr:`FakeOAuth.requests`.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlencode

from aiohttp import web

from bot.config import Login

HOST = "127.0.0.1"
CLIENT_ID = "424200000000000001"
CLIENT_SECRET = "fake-client-secret"


@dataclass
class FakeOAuth:
    user: tuple[int, str] | None = None  # (id, name): who clicks Authorize
    url: str = ""
    codes: dict[str, tuple[tuple[int, str], str]] = field(default_factory=dict)
    tokens: dict[str, tuple[int, str]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    @property
    def login(self) -> Login:
        return Login(CLIENT_ID, CLIENT_SECRET, self.url)

    async def authorize(self, request: web.Request) -> web.Response:
        query = request.query
        if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code":
            raise web.HTTPBadRequest(text="unknown client or response type")
        if query.get("scope") != "identify" or self.user is None:
            raise web.HTTPBadRequest(text="only identify, for a user the test names")
        code = secrets.token_hex(8)
        self.codes[code] = (self.user, query["redirect_uri"])
        back = urlencode({"code": code, "state": query.get("state", "")})
        raise web.HTTPFound(f"{query['redirect_uri']}?{back}")

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if (form.get("client_id"), form.get("client_secret")) != (CLIENT_ID, CLIENT_SECRET):
            return web.json_response({"error": "invalid_client"}, status=401)
        given = self.codes.pop(str(form.get("code")), None)  # a code is good once
        if given is None or given[1] != form.get("redirect_uri"):
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_hex(16)
        self.tokens[access] = given[0]
        return web.json_response(
            {"access_token": access, "token_type": "Bearer", "expires_in": 604800}
        )

    async def me(self, request: web.Request) -> web.Response:
        bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user = self.tokens.get(bearer)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        user_id, name = user
        return web.json_response(
            {"id": str(user_id), "username": name.lower(), "global_name": name}
        )


@web.middleware
async def _kept(request: web.Request, handler):
    request.app[FAKE].requests.append(f"{request.method} {request.path}")
    return await handler(request)


FAKE = web.AppKey("fake", FakeOAuth)


@asynccontextmanager
async def fake_oauth() -> AsyncIterator[FakeOAuth]:
    fake = FakeOAuth()
    application = web.Application(middlewares=[_kept])
    application[FAKE] = fake
    application.router.add_get("/oauth2/authorize", fake.authorize)
    application.router.add_post("/api/v10/oauth2/token", fake.token)
    application.router.add_get("/api/v10/users/@me", fake.me)
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, HOST, 0)
    await site.start()
    fake.url = f"http://{HOST}:{runner.addresses[0][1]}"
    try:
        yield fake
    finally:
        await runner.cleanup()
