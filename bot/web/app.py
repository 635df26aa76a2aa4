"""The web front end's routes: a game's page, its boards, its exports and its live stream.

Every route is a GET that changes nothing (logging in and out, :mod:`bot.web.login`,
is the one exception: its cookies), and every answer carries the same strict headers
(:func:`_headers`): a Content-Security-Policy that runs only our own script and style
files, ``nosniff``, no referrer (a page's address is its key). An address that is not a
page is a plain 404, whether no game has that id or its token is wrong; a request that
breaks is a plain 500, logged, never a traceback sent to the reader. A browser gets
each error's sentence as a small page of its own, which a screen reader can read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from importlib.resources import files

from aiohttp import web

from bot.config import Login
from bot.service import Service
from bot.service.changes import Heard
from bot.service.games import Loaded
from bot.service.pages import record_json, record_text
from bot.service.pictures import Board
from bot.web import login as logging_in
from bot.web.html import Reader, error_page, game_page, home_page
from bot.web.keys import LOGIN, SERVICE
from bot.web.listings import daily_page, league_page, player_page, server_page

log = logging.getLogger(__name__)

#: what a page may load: its own script, style and pictures, and its live stream; its
#: one form (logging out) posts to the site itself
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: a request's body, at most: pages take none, the logout form a few dozen bytes
BODY_LIMIT = 1024
#: seconds between the comments that keep an idle live stream open through proxies
KEEP_ALIVE = 20.0
#: ``/g/<game id>-<token>``: an id a database can hold, and a token's 16 characters
GAME = r"/g/{game:[1-9][0-9]{0,17}}-{token:[a-z2-7]{16}}"
#: a league's, a player's and a server's pages: ``/<kind>/<number>-<token>``; the daily
#: challenge's one page ``/d/<token>``
NUMBERED = r"{number:[1-9][0-9]{0,19}}-{token:[a-z2-7]{16}}"
STATIC = {
    name: (files("bot.web").joinpath("static", name).read_bytes(), kind)
    for name, kind in (
        ("page.js", "text/javascript"),
        ("page.css", "text/css"),
        ("icon.svg", "image/svg+xml"),
    )
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def app(service: Service, login: Login | None = None) -> web.Application:
    """The pages of ``service``'s games, as an aiohttp application; with ``login``, its
    players log in with Discord to see their own hands there."""
    application = web.Application(middlewares=[_plain_errors], client_max_size=BODY_LIMIT)
    application[SERVICE] = service
    if login is not None:
        logging_in.routes(application, login)
    application.on_response_prepare.append(_headers)
    application.on_shutdown.append(_end_streams)
    application.router.add_get("/", _home)
    application.router.add_get("/static/{name}", _static)
    application.router.add_get("/favicon.ico", _icon)
    application.router.add_get(GAME, _game_page)
    application.router.add_get(GAME + "/board.png", _latest_board)
    application.router.add_get(GAME + "/board/{ply:[0-9]{1,6}}.png", _past_board)
    application.router.add_get(GAME + "/game.gif", _animation)
    application.router.add_get(GAME + "/hand.png", _hand)
    application.router.add_get(GAME + "/record.txt", _record_text)
    application.router.add_get(GAME + "/record.json", _record_json)
    application.router.add_get(GAME + "/events", _events)
    application.router.add_get("/l/" + NUMBERED, _league)
    application.router.add_get("/p/" + NUMBERED, _player)
    application.router.add_get("/s/" + NUMBERED, _server)
    application.router.add_get("/d/{token:[a-z2-7]{16}}", _daily)
    return application


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)


async def _end_streams(application: web.Application) -> None:
    """The server is stopping: end every live stream, so none holds the stop up."""
    application[SERVICE].context.changes.close()


@web.middleware
async def _plain_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every error a short plain sentence: aiohttp's own (404, 405, 413) and ours; a
    browser gets it as a small page (:func:`_error`)."""
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        reason = NOT_FOUND if exc.status == 404 else f"{exc.status} {exc.reason}\n"
        return _error(request, exc.status, reason, _allowed(exc))
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:
        log.exception("the page %s failed", request.path)
        return _error(request, 500, "500 Something went wrong on our side.\n")


NOT_FOUND = "404 There is no page here. A game's page is reached by the link the bot gives.\n"


def _error(
    request: web.Request, status: int, sentence: str, headers: dict[str, str] | None = None
) -> web.Response:
    """An error's sentence: a page of its own for a browser (which asks for HTML, and
    whose reader needs the page's language, title and a way back), plain text for
    anything else (a script, ``curl``)."""
    if "text/html" in request.headers.get("Accept", ""):
        return web.Response(
            status=status,
            text=error_page(sentence),
            content_type="text/html",
            charset="utf-8",
            headers=headers,
        )
    return web.Response(status=status, text=sentence, headers=headers)


def _allowed(exc: web.HTTPException) -> dict[str, str]:
    """A 405 says which methods the address takes (GET)."""
    allow = exc.headers.get("Allow")
    return {"Allow": allow} if allow else {}


async def _home(request: web.Request) -> web.Response:
    return _html(home_page())


async def _static(request: web.Request) -> web.Response:
    found = STATIC.get(request.match_info["name"])
    if found is None:
        raise web.HTTPNotFound()
    body, kind = found
    return web.Response(
        body=body, content_type=kind, headers={"Cache-Control": "public, max-age=3600"}
    )


async def _icon(request: web.Request) -> web.Response:
    """Browsers ask for it whatever the page says."""
    raise web.HTTPMovedPermanently("/static/icon.svg")


async def _opened(request: web.Request) -> tuple[Service, Loaded, str]:
    """The game the address opens, with its page's path; 404 for any other address."""
    service = request.app[SERVICE]
    game_id, token = int(request.match_info["game"]), request.match_info["token"]
    game = await service.pages.opened(game_id, token)
    if game is None:
        raise web.HTTPNotFound()
    return service, game, f"/g/{game_id}-{token}"


async def _game_page(request: web.Request) -> web.Response:
    """The game's page; a player logged in also sees their own hand on it, and then the
    page is theirs alone: no cache keeps it (``private, no-store``)."""
    service, game, path = await _opened(request)
    page = await service.pages.page(game)
    session = await logging_in.reader(request)
    if session is None:
        response = _html(game_page(page, path, Reader(login=LOGIN in request.app)))
    else:
        hand = await service.pages.hand(game, session.user_id)
        guard = await service.sessions.guard(request.cookies[logging_in.SESSION])
        response = _html(game_page(page, path, Reader(True, session.name, guard, hand)))
        response.headers["Cache-Control"] = PRIVATE
    response.headers["Vary"] = "Cookie"
    return response


#: what may keep an answer meant for one reader: nobody
PRIVATE = "private, no-store"


async def _hand(request: web.Request) -> web.Response:
    """The picture of the reader's own hand: theirs only (404 for anyone else)."""
    service, game, _ = await _opened(request)
    session = await logging_in.reader(request)
    hand = None if session is None else await service.pages.hand(game, session.user_id)
    if hand is None or hand.png is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=hand.png,
        content_type="image/png",
        headers={"Cache-Control": PRIVATE, "Vary": "Cookie"},
    )


async def _latest_board(request: web.Request) -> web.Response:
    service, game, _ = await _opened(request)
    return _board(request, await service.pages.board(game))


async def _past_board(request: web.Request) -> web.Response:
    service, game, _ = await _opened(request)
    return _board(request, await service.pages.board(game, int(request.match_info["ply"])))


async def _animation(request: web.Request) -> web.Response:
    service, game, _ = await _opened(request)
    gif = await service.pages.animation(game)
    return _board(request, gif, "image/gif", f"{game.row.game_key}-{game.row.id}.gif")


def _board(
    request: web.Request,
    board: Board | None,
    kind: str = "image/png",
    name: str | None = None,
) -> web.Response:
    """A board's picture, named by its position (an ETag): a browser that has it is told
    so in a few bytes, and asks again each time, since a move taken back changes what
    its address shows."""
    if board is None:
        raise web.HTTPNotFound()
    tag = f'"{board.tag}"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if name is not None:
        headers["Content-Disposition"] = f'inline; filename="{name}"'
    if tag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    return web.Response(body=board.png, content_type=kind, headers=headers)


async def _record_text(request: web.Request) -> web.Response:
    service, game, _ = await _opened(request)
    page = await service.pages.page(game)
    return web.Response(
        text=record_text(page),
        content_type="text/plain",
        headers=_download(f"{game.row.game_key}-{game.row.id}.txt"),
    )


async def _record_json(request: web.Request) -> web.Response:
    service, game, _ = await _opened(request)
    page = await service.pages.page(game)
    return web.Response(
        text=json.dumps(record_json(page), ensure_ascii=False, indent=1),
        content_type="application/json",
        headers=_download(f"{game.row.game_key}-{game.row.id}.json"),
    )


def _download(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "no-cache"}


async def _events(request: web.Request) -> web.StreamResponse:
    """The game's live stream (Server-Sent Events): its version now, then each version
    it moves to, as :class:`~bot.service.changes.Changes` hears of it (from any process
    on a shared database). ``X-Accel-Buffering: no`` asks a proxy in front (nginx) to
    pass each event on at once."""
    service, game, _ = await _opened(request)
    stream = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await stream.prepare(request)
    with service.context.changes.watch(game.row.id) as heard, suppress(ConnectionResetError):
        await stream.write(f"retry: 1000\ndata: {game.row.version}\n\n".encode())
        while (version := await _next(heard)) is not None:  # None: the server is stopping
            event = f"data: {version}\n\n" if version >= 0 else ": still here\n\n"
            await stream.write(event.encode())
    return stream


async def _next(heard: asyncio.Queue[Heard]) -> Heard:
    """The next version heard, or -1 when a while has passed without one."""
    try:
        return await asyncio.wait_for(heard.get(), KEEP_ALIVE)
    except TimeoutError:
        return -1


async def _league(request: web.Request) -> web.Response:
    number, token = _numbered(request)
    page = await request.app[SERVICE].listings.league(number, token)
    return _found(None if page is None else league_page(page))


async def _player(request: web.Request) -> web.Response:
    number, token = _numbered(request)
    page = await request.app[SERVICE].listings.player(number, token)
    return _found(None if page is None else player_page(page))


async def _server(request: web.Request) -> web.Response:
    number, token = _numbered(request)
    page = await request.app[SERVICE].listings.server(number, token)
    return _found(None if page is None else server_page(page))


async def _daily(request: web.Request) -> web.Response:
    page = await request.app[SERVICE].listings.daily_page(request.match_info["token"])
    return _found(None if page is None else daily_page(page))


def _numbered(request: web.Request) -> tuple[int, str]:
    return int(request.match_info["number"]), request.match_info["token"]


def _found(text: str | None) -> web.Response:
    """The page, or the plain 404 of any address that is not one."""
    if text is None:
        raise web.HTTPNotFound()
    return _html(text)


def _html(text: str) -> web.Response:
    """A page: asked again on each visit, as its game moves on."""
    return web.Response(
        text=text, content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-cache"}
    )
