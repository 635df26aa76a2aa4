"""What a bot process does while its PostgreSQL server is away: a drill, not a test.

``python -m tests.bot.discord.outage_drill SECONDS [SECONDS ...]`` runs, for each outage length, a
throwaway PostgreSQL cluster, the fake Discord of the layer-3 tests and the bot's own
``serve`` (as ``python -m bot`` runs it, holding the lease on shard 0 of 1), with a
Skybridge game open. It crashes the server (``pg_ctl -m immediate``) and starts it again
SECONDS later. From the crash to a minute after the restart, a player asks ``/game board``
every second, and once, halfway through the outage, plays a move. Should the process stop,
it is started again once the server is back, as its supervisor would. Prints one JSON
line per event; docs/deploy.md ("When the database is away") reports what it saw.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from typing import Any

import pytest

from bot.config import Shards
from bot.discord.delivery import PLACEHOLDER
from bot.hosting.running import serve
from bot.service import Caller, Refused, Service, Table
from bot.store import open_store
from tests.bot.discord.discord_limits import text
from tests.bot.discord.fake_discord_server import CHANNEL_ID, TOKEN, FakeDiscord, FakeInteraction
from tests.bot.discord.test_protocol import ADA, BOB, NAMES
from tests.postgres_cluster import Cluster

ASK_EVERY = 1.0  # seconds between two /game board
AFTER = 60.0  # seconds of asking after the restart
ANSWER_WITHIN = 10.0  # a command not answered by then counts as unanswered

began = time.monotonic()


def say(event: str, **details: Any) -> None:
    print(json.dumps({"t": round(time.monotonic() - began, 2), "event": event, **details}))
    sys.stdout.flush()


def _said(pushed: FakeInteraction) -> list[str]:
    return [t for m in pushed.shown if (t := " ".join(text(m).split())) != PLACEHOLDER]


async def answer_of(fake: FakeDiscord, pushed: FakeInteraction) -> str:
    """What the asker saw: the first words of the answer (not the "Posting…" that stands
    in for a public one until it is out), or that none came."""
    try:
        await fake.wait_for(lambda: _said(pushed) and not pushed.loading, ANSWER_WITHIN)
    except TimeoutError:
        return "(no answer)"
    return _said(pushed)[-1][:90]


async def serving(url: str) -> str:
    try:
        await serve(url, TOKEN, Shards((0,), 1))
    except SystemExit as exc:
        return str(exc)
    return "(returned)"


async def drill(seconds: float) -> None:
    cluster = Cluster()
    cluster.start()
    assert cluster.url is not None, cluster.unavailable
    admin = await open_store(cluster.url)
    await admin.execute("CREATE DATABASE bk")
    await admin.close()
    url = cluster.database_url("bk")
    patches = pytest.MonkeyPatch()
    fake = FakeDiscord(members=NAMES)
    await fake.start()
    fake.redirect(patches)
    bot = asyncio.create_task(serving(url))
    await fake.wait_for(lambda: fake.identified, 30)
    await fake.wait_for(lambda: fake.commands, 30)
    for user, words in ((ADA, ("game", "new")), (BOB, ("game", "join")), (ADA, ("game", "start"))):
        options = {"game": "skybridge"} if words[1] == "new" else {}
        say(words[1], answer=await answer_of(fake, await fake.slash(user, *words, **options)))
    store = await open_store(url)
    game = (await store.latest_game(CHANNEL_ID)).id
    service = Service(store, images=False)
    mover, first = None, ""
    for user in (ADA, BOB):  # whoever is to play, and a move of theirs
        try:
            first = (await service.play.legal_moves(Table(CHANNEL_ID), Caller(user, NAMES[user])))[
                0
            ]
        except Refused:
            continue
        mover = user
    await store.close()
    assert mover is not None
    say("outage", seconds=seconds)
    await asyncio.to_thread(cluster.crash)
    down_at = time.monotonic()
    up_at = down_at + seconds
    restarted = moved = stopped = False
    while time.monotonic() < up_at + AFTER:
        now = time.monotonic()
        if not restarted and now >= up_at:
            await asyncio.to_thread(cluster.restart)
            restarted = True
            say("server back", after=round(time.monotonic() - down_at, 1))
        if bot.done():
            if not stopped:
                stopped = True
                say("process stopped", why=bot.result(), since_crash=round(now - down_at, 1))
            if restarted:
                stopped = False
                bot = asyncio.create_task(serving(url))
                identified = len(fake.identified)
                await fake.wait_for(lambda n=identified: len(fake.identified) > n, 60)
                say("process started again", since_crash=round(time.monotonic() - down_at, 1))
            else:  # no process has the shard: Discord would say the command failed
                await asyncio.sleep(ASK_EVERY)
                continue
        if not moved and now >= down_at + seconds / 2:
            moved = True
            played = await answer_of(fake, await fake.slash(mover, "move", notation=first))
            say("move", answer=played, since_crash=round(now - down_at, 1))
        asked = await answer_of(fake, await fake.slash(BOB, "game", "board"))
        say("board", answer=asked, since_crash=round(now - down_at, 1), up=restarted)
        await asyncio.sleep(max(0.0, ASK_EVERY - (time.monotonic() - now)))
    store = await open_store(url)
    log = await store.moves(game)
    holder = await store.lease_holder("shard 0 of 1")
    await store.close()
    say("end", moves=[m.action for m in log], lease=holder, process_alive=not bot.done())
    bot.cancel()
    await asyncio.gather(bot, return_exceptions=True)
    await fake.stop()
    patches.undo()
    cluster.stop()


def main() -> None:
    logging.basicConfig(
        level=logging.WARNING, format="%(relativeCreated)d %(levelname)s %(name)s: %(message)s"
    )
    os.environ["BRIDGEKEEPER_RENDER_PROCESSES"] = "0"
    for seconds in map(float, sys.argv[1:] or ["1", "30", "300"]):
        asyncio.run(drill(seconds))


if __name__ == "__main__":
    main()
