"""A league's, the daily challenge's, a player's and a server's pages, over real sockets
on 127.0.0.1: what each shows and links, that a token opens only its own kind of page,
that a server's page is not there until its managers turn it on, and that today's daily
games stay unlinked until the day is over."""

from __future__ import annotations

import itertools
import random
import re

import aiohttp
import pytest

from bot.config import Web
from bot.service import Caller, Refused, Service, Table
from bot.store import SQLiteStore
from bot.web.app import POLICY
from bot.web.serving import serving
from tests.bot.discord.discord_harness import GUILD_ID, Harness
from tests.bot.discord.test_commands import assert_refused
from tests.bot.service.test_daily import MONDAY, dm, play_out
from tests.bot.service.test_league_service import HOME, MOD, PLAYERS, finish, games_in
from tests.bot.web.test_pages import Site
from tests.conftest import ADA, BOB, Clock


@pytest.fixture
async def site(tmp_path):
    clock = Clock(MONDAY)
    store = await SQLiteStore.open(tmp_path / "pages.db", clock=clock)
    service = Service(store, images=False, seed=itertools.count(1).__next__)
    async with serving(service, Web(port=0)) as served, aiohttp.ClientSession() as http:
        site = Site(service, served.listening, http)
        site.clock = clock  # type: ignore[attr-defined]
        yield site
    await store.close()


def links(page: str) -> dict[str, str]:
    """Each link's words and where it leads."""
    return {text: href for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', page)}


async def page_of(site: Site, path: str) -> str:
    status, headers, body = await site.get(path)
    assert status == 200, path
    assert headers["Content-Security-Policy"] == POLICY
    return body.decode()


async def a_round_robin(site: Site) -> int:
    """A round robin of four in Skybridge, its first round played; the league's id."""
    service = site.service
    await service.leagues.create(HOME, MOD, "Cup", "skybridge", "round-robin")
    for p in PLAYERS[:4]:
        await service.leagues.join(HOME.guild_id, p, "Cup")
    posted = await service.league_rounds.start(HOME.guild_id, MOD, "Cup")
    rng = random.Random(2)
    for table in games_in(posted):
        await finish(service, table, rng)
    await service.league_rounds.tick()
    league = await service.store.league(HOME.guild_id, "Cup")
    return league.id


async def test_a_leagues_page_has_standings_results_and_every_match_linked(site):
    league_id = await a_round_robin(site)
    path = await site.service.pages.path(league_id, "league")
    assert re.fullmatch(r"/l/\d+-[a-z2-7]{16}", path)
    page = await page_of(site, path)
    standing = await site.service.league_tables.standings(HOME.guild_id, "Cup")
    assert "<h1>Cup</h1>" in page and "standings after round 1 of 3" in page
    order = re.findall(r"^\d\. (\w+) —", standing.text, re.M)
    table = page[page.index("Standings") : page.index("Results")]
    assert [n for n in re.findall(r">(Ada|Bob|Cy|Dee)</a>", table)] == order
    matches = await site.service.store.matches(league_id)
    assert len(matches) == 4, "two rounds drawn of two tables each"
    linked = links(page)
    for m in matches:
        assert linked[f"Game #{m.game_id}"] == await site.service.pages.path(m.game_id)
    assert page.count(">playing</td>") == 2, "round 2 under way"
    assert "<li>R3: " in page and "<li>R2: " not in page, "the round to come"
    for name in ("Ada", "Bob", "Cy", "Dee"):
        assert linked[name].startswith("/p/")
    # and a match's game links back to its league and its players
    game = links(await page_of(site, linked[f"Game #{matches[0].game_id}"]))
    names = {p.user_id: p.name for p in PLAYERS}
    assert game["Cup"] == path
    assert all(game[names[p]] == linked[names[p]] for p in matches[0].players)


async def test_a_token_opens_only_its_own_kind_of_page(site):
    league_id = await a_round_robin(site)
    pages = site.service.pages
    league = (await pages.path(league_id, "league")).rpartition("-")[2]
    as_player = (await pages.path(PLAYERS[0].user_id, "player")).rpartition("-")[2]
    for path in (f"/p/{league_id}-{league}", f"/s/{league_id}-{league}",
                 f"/g/{league_id}-{league}", f"/d/{league}", f"/l/{league_id + 1}-{league}",
                 f"/l/{PLAYERS[0].user_id}-{as_player}", f"/p/{league_id}-{'a' * 16}",
                 f"/p/{99}-{await pages.token(99, 'player')}"):  # fmt: skip
        status, headers, body = await site.get(path)
        assert status == 404 and b"no page here" in body, path
        assert headers["Content-Security-Policy"] == POLICY
    async with site.http.post(site.base + await pages.path(league_id, "league")) as resp:
        assert resp.status == 405


async def test_a_players_page_has_ratings_games_linked_and_time_to_move(site):
    league_id = await a_round_robin(site)
    await site.service.listings.set_server_page(HOME, MOD, True)
    ada = PLAYERS[0]
    path = await site.service.pages.path(ada.user_id, "player")
    page = await page_of(site, path)
    assert "<h1>Ada</h1>" in page
    assert re.search(r"<td[^>]*>Skybridge</td><td>[\d.-]+\?</td><td>1</td>", page), "one rated game"
    played = await site.service.store.played_games(ada.user_id)
    linked = links(page)
    for g in played:
        title = next(t for t in linked if re.match(f"Skybridge #{g.game_id}( |$)", t))
        assert linked[title] == await site.service.pages.path(g.game_id)
    playing = page[page.index("Playing") : page.index("Finished")]
    assert f"Skybridge #{played[0].game_id}" in playing, "round 2's game"
    assert "to move on average" in page
    assert league_id


async def test_a_players_page_lists_no_game_its_reader_was_not_shown(site):
    """A game's address goes to those who see its channel; a player's page, linked from any
    of their games, lists only what anyone may find anyway: games on a server whose page
    its managers turned on. Others are counted, never named or linked."""
    service = site.service
    await a_round_robin(site)
    ada = PLAYERS[0]
    played = await service.store.played_games(ada.user_id)
    path = await service.pages.path(ada.user_id, "player")
    hidden = await page_of(site, path)
    for g in played:
        assert f"#{g.game_id}" not in hidden and await service.pages.path(g.game_id) not in hidden
    assert f"And {len(played)} more games not listed here" in hidden
    assert re.search(r"<td[^>]*>Skybridge</td>", hidden), "ratings still shown"
    await service.listings.set_server_page(HOME, MOD, True)
    shown = await page_of(site, path)
    for g in played:
        assert f'href="{await service.pages.path(g.game_id)}"' in shown
    assert "not listed here" not in shown


async def test_a_players_wait_to_move_is_from_their_turns_start(site):
    service, clock = site.service, site.clock
    table = Table(channel_id=5, guild_id=1)
    await service.lobby.create(table, ADA, "skybridge")
    await service.lobby.join(table, BOB)
    await service.lobby.start(table, ADA)
    for minutes in (0, 30, 90, 120, 180):  # Ada waits 30 then 30; Bob 60 then 60
        clock.at(minutes=minutes)
        game = await service.games.active(table)
        who = ADA if game.seats[sorted(game.position.awaited)[0]].user_id == ADA.user_id else BOB
        await service.play.move(table, who, (await service.play.legal_moves(table, who))[0])
    pages = [await page_of(site, await service.pages.path(p.user_id, "player")) for p in (ADA, BOB)]
    waits = [re.search(r"Takes (.+?) to move on average \(over their last (\d) ", p) for p in pages]
    assert sorted((w[1], w[2]) for w in waits) == [("30 minutes", "2"), ("60 minutes", "2")]


async def test_the_daily_page_hides_todays_games_until_the_day_is_over(site):
    service, clock = site.service, site.clock
    await service.daily.play(dm(ADA), ADA, None)
    await play_out(service, dm(ADA), ADA, random.Random(1))
    await service.daily.settle()
    (entry,) = await service.store.entries(user_id=ADA.user_id)
    path = await service.pages.path(0, "daily")
    assert re.fullmatch(r"/d/[a-z2-7]{16}", path)
    page = await page_of(site, path)
    board = await service.daily.leaderboard()
    assert f"1. Ada {entry.margin:+d}" in board.text
    today = page[page.index("Today, by margin") : page.index("Past days")]
    assert f'<td class="name">Ada</td><td>{entry.margin:+d}</td>' in today
    game = await service.pages.path(entry.game_id)
    assert game not in page, "today's game: no link"
    ada_page = await page_of(site, await service.pages.path(ADA.user_id, "player"))
    assert game not in ada_page and "its page opens tomorrow" in ada_page
    clock.at(days=1)
    page = await page_of(site, path)
    past = page[page.index("Past days") : page.index("All time")]
    assert "<h3>2026-11-02</h3>" in past and f'href="{game}"' in past
    assert "No finished games yet today." in page
    assert f'href="{game}"' in await page_of(site, await service.pages.path(ADA.user_id, "player"))


async def test_a_servers_page_is_there_only_once_its_managers_turn_it_on(site):
    service = site.service
    table = Table(channel_id=31, guild_id=HOME.guild_id)
    await service.lobby.create(table, ADA, "skybridge")
    await service.lobby.join(table, BOB)
    await service.lobby.start(table, ADA)
    path = await service.pages.path(HOME.guild_id, "server")
    off = await site.get(path)
    assert off[0] == 404 and off[2] == (await site.get("/s/1-" + "a" * 16))[2], "as unknown"
    with pytest.raises(Refused, match="server manager"):
        await service.listings.set_server_page(table, ADA, True)
    with pytest.raises(Refused, match="server manager"):
        await service.listings.set_server_page(Table(channel_id=2), MOD, True)
    reply = await service.listings.set_server_page(table, MOD, True)
    assert reply.private and f"at {site.base}{path}. " in reply.text
    page = await page_of(site, path)
    game = (await service.games.active(table)).row.id
    assert links(page)[f"Skybridge #{game}"] == await service.pages.path(game)
    assert "Ada, Bob" in page and "To play:" in page
    other = await site.get(await service.pages.path(HOME.guild_id + 1, "server"))
    assert other[0] == 404, "another server's page stays off"
    await service.listings.set_server_page(table, Caller(1, "Mod", manager=True), False)
    assert (await site.get(path))[0] == 404


async def test_managers_turn_the_servers_page_on_with_settings_in_discord(tmp_path):
    """Layer 2: ``/settings server_page:on`` by a manager, privately given the address;
    anyone else refused, and the player's own settings never mixed in."""
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        mod = Caller(7, "Mod", manager=True)
        assert_refused(await h.slash("settings", server_page="on", user=ADA), "server manager")
        assert not await h.service.store.server_page(GUILD_ID)
        assert_refused(
            await h.slash("settings", server_page="on", heads_up="on", user=mod), "on its own"
        )
        reply = (await h.slash("settings", server_page="on", user=mod)).one
        assert reply.ephemeral and "page of games in progress is on" in reply.text
        assert await h.service.store.server_page(GUILD_ID)
        await h.slash("settings", server_page="off", user=mod)
        assert not await h.service.store.server_page(GUILD_ID)
