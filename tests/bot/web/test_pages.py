"""A game's page on the web, over real sockets on 127.0.0.1: what it shows, its boards
(drawn once per position), its exports (the record replays to the same game), its
live stream, and what any other request gets: a plain 4xx, the same strict headers."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import socket
from dataclasses import dataclass

import aiohttp
import pytest
from multidict import CIMultiDict
from PIL import Image, ImageSequence

import engine
from bot.config import BadSetting, Web, read_web
from bot.service import Service, Table
from bot.service.pages import token_of
from bot.terminal.session import Console
from bot.tools.selfplay import play_random
from bot.web.app import POLICY
from bot.web.serving import CannotServe, serving
from renders import render
from tests.conftest import ADA, BOB, TABLE, run_bot


@dataclass
class Site:
    service: Service
    base: str
    http: aiohttp.ClientSession

    async def get(self, path: str, **kw) -> tuple[int, CIMultiDict, bytes]:
        async with self.http.get(self.base + path, allow_redirects=False, **kw) as resp:
            return resp.status, resp.headers.copy(), await resp.read()

    async def link(self, game_id: int) -> str:
        return await self.service.pages.path(game_id)


@pytest.fixture
async def site(store):
    service = Service(store, seed=lambda: 12345)
    async with serving(service, Web(port=0)) as served, aiohttp.ClientSession() as http:
        yield Site(service, served.listening, http)


async def skybridge(service: Service, moves: int) -> int:
    """A Skybridge game of Ada and Bob, ``moves`` first legal moves in; its id."""
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    for _ in range(moves):
        await move(service)
    return (await service.games.active(TABLE)).row.id


async def move(service: Service, table: Table = TABLE, pick: int = 0) -> str:
    game = await service.games.active(table)
    seat = sorted(game.position.awaited)[0]
    caller = ADA if game.seats[seat].user_id == ADA.user_id else BOB
    text = (await service.play.legal_moves(table, caller))[pick]
    await service.play.move(table, caller, text)
    return text


async def test_a_games_page_shows_its_turn_players_board_words_and_moves(site):
    game_id = await skybridge(site.service, 3)
    game = await site.service.games.active(TABLE)
    status, headers, body = await site.get(await site.link(game_id))
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "<h1>Skybridge #1</h1>" in page
    awaited = game.names[sorted(game.position.awaited)[0]]
    assert f"To play: {awaited}." in page
    assert "Ada" in page and "Bob" in page
    log = await site.service.store.moves(game_id)
    listed = re.findall(r'data-ply="(\d+)">([^<]+): <span class="notation">([^<]+)<', page)
    assert [(int(n), name, text) for n, name, text in listed] == [
        (m.seq, game.names[m.seat], m.action) for m in log
    ]
    assert "Tower" in page and "Empty squares" in page, "the board in words"
    assert 'src="/g/1-' in page and "board.png" in page
    for export in ("record.txt", "record.json", "board.png"):
        assert f'{await site.link(game_id)}/{export}"' in page


async def test_the_board_is_the_public_view_drawn_once_per_position(site):
    game_id = await skybridge(site.service, 2)
    link = await site.link(game_id)
    game = await site.service.games.active(TABLE)
    status, headers, now = await site.get(f"{link}/board.png")
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert now == render("skybridge", game.rules.view(game.state, None), game.names)
    boards = site.service.pages.boards
    drawn = boards.drawn
    assert (await site.get(f"{link}/board/2.png"))[2] == now, "the last ply is the board now"
    assert (await site.get(f"{link}/board.png?v=9"))[2] == now
    assert boards.drawn == drawn, "asked again, drawn again: never"
    start = game.rules.new(2, {}, 12345)
    assert (await site.get(f"{link}/board/0.png"))[2] == render(
        "skybridge", game.rules.view(start, None), game.names
    )
    status, _, _ = await site.get(f"{link}/board/3.png")
    assert status == 404, "a move not played yet"
    tag = headers["ETag"]
    status, _, body = await site.get(f"{link}/board.png", headers={"If-None-Match": tag})
    assert status == 304 and body == b""
    await move(site.service)
    status, moved, body = await site.get(f"{link}/board.png", headers={"If-None-Match": tag})
    assert status == 200 and moved["ETag"] != tag and body != now


def gif_frames(gif: bytes) -> list[Image.Image]:
    """Each frame of an animated GIF, whole, in RGB."""
    with Image.open(io.BytesIO(gif)) as animation:
        assert animation.format == "GIF"
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(animation)]


def same_picture(frame: Image.Image, png: bytes) -> bool:
    """Whether a GIF frame shows the board ``png`` (at its top left, any canvas round it)."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    return frame.crop((0, 0, *board.size)).tobytes() == board.tobytes()


async def test_the_gif_is_every_public_position_drawn_once_per_version(site):
    game_id = await skybridge(site.service, 3)
    link = await site.link(game_id)
    page = (await site.get(link))[2].decode()
    assert f'href="{link}/game.gif"' in page
    status, headers, gif = await site.get(f"{link}/game.gif")
    assert status == 200 and headers["Content-Type"] == "image/gif"
    game = await site.service.games.active(TABLE)
    rules, state = game.rules, game.rules.new(2, {}, 12345)
    positions = [state]
    for entry in await site.service.store.moves(game_id):
        state = rules.play(state, entry.seat, entry.action).state
        positions.append(state)
    frames = gif_frames(gif)
    assert len(frames) == 4, "the start and each of three moves"
    for frame, position in zip(frames, positions, strict=True):
        assert same_picture(frame, render("skybridge", rules.view(position, None), game.names))
    animations = site.service.pages.animations
    assert animations.drawn == 1
    assert (await site.get(f"{link}/game.gif"))[2] == gif
    status, _, _ = await site.get(f"{link}/game.gif", headers={"If-None-Match": headers["ETag"]})
    assert status == 304 and animations.drawn == 1, "asked again: never drawn again"
    await move(site.service)
    status, moved, longer = await site.get(f"{link}/game.gif")
    assert moved["ETag"] != headers["ETag"] and len(gif_frames(longer)) == 5
    assert animations.drawn == 2


async def test_a_taken_back_moves_board_is_not_shown_for_the_move_played_instead(site):
    game_id = await skybridge(site.service, 2)
    link = await site.link(game_id)
    await move(site.service, pick=0)
    _, first, taken = await site.get(f"{link}/board/3.png")
    game = await site.service.games.active(TABLE)
    mover = ADA if game.seats[sorted(game.position.awaited)[0]].user_id == BOB.user_id else BOB
    await site.service.undo.ask(TABLE, mover)
    assert (await site.get(f"{link}/board/3.png"))[0] == 404, "taken back"
    await move(site.service, pick=1)
    _, second, instead = await site.get(f"{link}/board/3.png")
    assert second["ETag"] != first["ETag"] and instead != taken


async def test_every_answer_carries_a_strict_policy_and_nosniff(site):
    game_id = await skybridge(site.service, 1)
    link = await site.link(game_id)
    paths = ["/", link, f"{link}/board.png", f"{link}/record.txt", f"{link}/record.json"]
    paths += ["/static/page.js", "/static/page.css", "/nothing", f"{link}/board/7.png"]
    for path in paths:
        _, headers, _ = await site.get(path)
        assert headers["Content-Security-Policy"] == POLICY, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "no-referrer", path
    assert "'unsafe-inline'" not in POLICY and "script-src 'self'" in POLICY
    page = (await site.get(link))[2].decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)", page), "no inline script"
    assert not re.search(r"\bon[a-z]+=|style=", page), "no inline handler or style"
    status, headers, _ = await site.get("/static/page.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")


async def test_an_unknown_game_and_a_wrong_token_are_the_same_plain_404(site):
    game_id = await skybridge(site.service, 1)
    link = await site.link(game_id)
    token = link.rpartition("-")[2]
    wrong = "a" * 16 if token != "a" * 16 else "b" * 16
    secret = await site.service.store.secret("pages")
    unknown = f"/g/99-{token_of(secret, 99)}"  # the right token of a game that is not
    answers = set()
    for path in [f"/g/{game_id}-{wrong}", unknown, f"/g/{game_id}-{wrong}/board.png",
                 f"/g/{game_id}-{wrong}/record.json", f"/g/{game_id}-{token[:-1]}",
                 f"/g/{'9' * 40}-{token}", "/g/../etc/passwd", f"{link}/board/-1.png"]:  # fmt: skip
        status, headers, body = await site.get(path)
        assert status == 404, path
        assert headers["Content-Type"].startswith("text/plain")
        answers.add(body)
    assert len(answers) == 1 and b"Traceback" not in answers.pop()


async def test_a_browser_lands_on_an_error_page_it_can_read(site):
    """A browser asks for HTML: its 404 is a page with a language, a title and the way
    to the site's root (what a screen reader needs); a script still gets the line."""
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    status, headers, body = await site.get("/g/1-aaaaaaaaaaaaaaaa", headers=browser)
    page = body.decode()
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == POLICY
    assert '<html lang="en">' in page and "<title>404 There is no page here — " in page
    assert "<h1>404 There is no page here</h1>" in page and '<a href="/">' in page
    status, headers, body = await site.get("/g/1-aaaaaaaaaaaaaaaa")
    assert status == 404 and headers["Content-Type"].startswith("text/plain")


async def test_nothing_but_get_and_no_request_gets_a_traceback(site):
    game_id = await skybridge(site.service, 1)
    link = await site.link(game_id)
    version = (await site.service.games.active(TABLE)).row.version
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        async with site.http.request(method, site.base + link, data=b"x" * 100) as resp:
            assert resp.status == 405 and "GET" in resp.headers["Allow"]
            assert resp.headers["Content-Security-Policy"] == POLICY
            assert "Traceback" not in await resp.text()
    async with site.http.post(site.base + link, data=b"x" * 2_000_000) as resp:
        assert resp.status in (405, 413) and "Traceback" not in await resp.text()
    host, port = site.base.removeprefix("http://").split(":")
    for raw in (b"GARBAGE\r\n\r\n", b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\n\r\n"):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(raw)
        answer = await reader.read(4096)
        writer.close()
        assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer[:80]
        assert b"Traceback" not in answer
    assert (await site.service.games.active(TABLE)).row.version == version, "nothing changed"


async def test_the_text_record_replays_to_the_same_final_state_in_every_game(tmp_path, store):
    """Whole games of random legal moves: the record's lines, played from the start
    with the game's seed, reach exactly the state stored."""
    service = Service(store, images=False, seed=lambda: 777)
    async with serving(service, Web(port=0)) as served, aiohttp.ClientSession() as http:
        for n, key in enumerate(sorted(engine.GAMES)):
            rules = engine.get(key)
            players = max(rules.info.min_players, 2 if rules.info.max_players > 1 else 1)
            table = Table(channel_id=600 + n, guild_id=1)
            await play_random(service, table, key, players, random.Random(n))
            row = await store.latest_game(table.channel_id)
            path = await service.pages.path(row.id)
            async with http.get(f"{served.listening}{path}/record.txt") as resp:
                record = await resp.text()
            seats = dict(
                (name, int(number) - 1)
                for number, name in re.findall(r"(\d+)\. ([^,\n]+)", record.split("\n")[1])
            )
            state = rules.new(players, row.options, row.seed)
            plies = [line for line in record.splitlines() if not line.startswith("#")]
            assert plies, key
            for line in plies:
                _, who, notation = re.fullmatch(r"(\d+)\. ([^:]+): (.+)", line).groups()
                if notation == "-":
                    state = rules.skip(state, seats[who]).state
                else:
                    state = rules.play(state, seats[who], notation).state
            assert rules.to_json(state) == row.state, key


async def test_the_json_export_has_seats_options_and_moves_and_no_seed(site):
    await site.service.lobby.create(TABLE, ADA, "bridge-wars", {"height": 6})
    await site.service.lobby.join(TABLE, BOB)
    await site.service.lobby.start(TABLE, ADA)
    played = [await move(site.service) for _ in range(3)]
    row = await site.service.store.latest_game(TABLE.channel_id)
    status, headers, body = await site.get(await site.link(row.id) + "/record.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    game = json.loads(body)
    assert game["game"] == "bridge-wars" and game["options"] == row.options == {"height": "6"}
    assert [s["name"] for s in game["seats"]] == ["Ada", "Bob"]
    assert [m["move"] for m in game["moves"]] == played
    text = body.decode()
    assert str(row.seed) not in text and "seed" not in text
    assert str(ADA.user_id) not in text and str(TABLE.channel_id) not in text


async def test_a_move_reaches_an_open_event_stream(site):
    game_id = await skybridge(site.service, 1)
    version = (await site.service.games.active(TABLE)).row.version
    url = site.base + await site.link(game_id) + "/events"
    async with site.http.get(url) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert await _event(stream) == version, "the version now, first"
        assert site.service.context.changes.watching == 1
        await move(site.service)
        assert await _event(stream) == version + 1
    await move(site.service)  # nobody watches now: nothing is queued for nobody
    assert site.service.context.changes.watching <= 1


async def _event(stream: aiohttp.ClientResponse) -> int:
    """The next event's data; a stream that says nothing for a minute is a failure."""
    async with asyncio.timeout(60):
        while True:
            line = (await stream.content.readline()).decode().strip()
            if line.startswith("data: "):
                return int(line.removeprefix("data: "))


async def test_a_lobby_and_a_called_off_game_keep_a_page(site):
    await site.service.lobby.create(TABLE, ADA, "skybridge")
    row = await site.service.store.latest_game(TABLE.channel_id)
    page = (await site.get(await site.link(row.id)))[2].decode()
    assert "has not started yet" in page and 'id="board"' not in page
    assert (await site.get(await site.link(row.id) + "/board.png"))[0] == 404
    await site.service.lobby.join(TABLE, BOB)
    await site.service.lobby.start(TABLE, ADA)
    await move(site.service)
    await site.service.lobby.abandon(TABLE, ADA)
    status, _, body = await site.get(await site.link(row.id))
    assert status == 200 and "called off" in body.decode() and 'id="board"' in body.decode()


def test_the_pages_address_is_a_setting_refused_clearly_when_wrong():
    assert read_web("", "") == Web("127.0.0.1", 8080)
    assert read_web("off", "") is None
    assert read_web("0.0.0.0:8000", "https://games.example.org/").base == (
        "https://games.example.org"
    )
    assert read_web(":9000", "").base == "http://127.0.0.1:9000"
    for address, url, named in (("8080", "", "BRIDGEKEEPER_WEB"),
                                ("host:99999", "", "BRIDGEKEEPER_WEB"),
                                ("", "games.example.org", "BRIDGEKEEPER_PUBLIC_URL")):  # fmt: skip
        with pytest.raises(BadSetting, match=named):
            read_web(address, url)


def test_only_links_that_people_elsewhere_can_follow_are_shared():
    """The bot's posts link to the pages only where a player on another machine gets
    there: a public address, or an address on this machine's network."""
    for address, url in (("", ""), ("0.0.0.0:8000", ""), ("localhost:8000", ""),
                         ("[::1]:8000", ""), ("127.0.0.2:8000", "")):  # fmt: skip
        assert not read_web(address, url).shared, address
    for address, url in (("", "https://games.example.org"), ("192.168.1.5:8080", ""),
                         ("games.lan:8080", "")):  # fmt: skip
        assert read_web(address, url).shared, address


async def test_a_taken_address_is_refused_naming_the_setting(store):
    service = Service(store, images=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        where = Web(port=taken.getsockname()[1])
        with pytest.raises(CannotServe, match="BRIDGEKEEPER_WEB"):
            async with serving(service, where):
                pass


def test_python_m_bot_web_says_when_pages_are_off(tmp_path):
    done = run_bot("web", cwd=tmp_path, env={"BRIDGEKEEPER_WEB": "off"})
    assert done.returncode == 2 and "BRIDGEKEEPER_WEB=off" in done.stderr
    done = run_bot("web", cwd=tmp_path, env={"BRIDGEKEEPER_WEB": "nowhere"})
    assert done.returncode == 1 and "BRIDGEKEEPER_WEB=nowhere" in done.stderr
    assert "Traceback" not in done.stderr


async def test_the_terminal_prints_a_games_page_address_once_as_it_begins(store, tmp_path):
    service = Service(store, seed=lambda: 1)
    out = io.StringIO()

    async def link(game_id: int) -> str:
        return "http://127.0.0.1:8080" + await service.pages.path(game_id)

    console = Console(service, tmp_path, out, pages=link)
    for line in ("ada: /new skybridge", "bob: /join", "ada: /start", "ada: /board"):
        await console.handle(line)
    printed = re.findall(r"\[watch it live in a browser: (\S+)\]", out.getvalue())
    assert printed == [await link(1)], out.getvalue()
    assert out.getvalue().index(printed[0]) > out.getvalue().index("To play")


async def test_the_terminal_gives_a_games_page_address_when_asked(store, tmp_path):
    service = Service(store, seed=lambda: 1)
    out = io.StringIO()
    console = Console(service, tmp_path, out)
    for line in ("ada: /new skybridge", "bob: /join", "ada: /start"):
        await console.handle(line)
    async with serving(service, Web(port=0)) as served:
        start = out.tell()
        await console.handle("bob: /link")
        said = out.getvalue()[start:]
        assert f"**Skybridge #1**: {await served.link(1)}\n" in said, said
        assert "Served to this machine only" in said
