"""Rematch clicks in a bot process of their own that dies by SIGKILL right after its
store's Nth commit, as a host's machine would take it down: the crash points of
tests/bot/test_rematch.py.

``python -m tests.bot.crash_after DB COMMITS GAME CHANNEL GUILD USER:NAME ...`` clicks
Rematch on ``GAME`` for each user in turn, writing one JSON line per click (what it
answered), and kills itself with SIGKILL the moment its ``COMMITS``-th transaction has
committed (every transaction of the store is one ``write``). Run to the end, it exits 0:
the commits it made were fewer.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

from bot.service import Caller, Refused, Service, Table
from bot.store import open_store, target


async def clicks(db: str, commits: int, game_id: int, table: Table, users: list[Caller]) -> None:
    store = await open_store(target(db))
    write = store.write
    made = 0

    async def committed(unit: Any, *args: Any) -> Any:
        nonlocal made
        result = await write(unit, *args)
        made += 1
        if made == commits:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    store.write = committed  # type: ignore[method-assign]
    service = Service(store, images=False, seed=lambda: 777)
    try:
        for user in users:
            try:
                reply = await service.rematch(table, user, game_id)
            except Refused as exc:
                print(json.dumps({"refused": str(exc)}), flush=True)
            else:
                print(json.dumps({"said": reply.text}), flush=True)
    finally:
        await store.close()


def main(argv: list[str]) -> None:
    db, commits, game_id, channel, guild, *users = argv
    callers = [Caller(int(u), name) for u, _, name in (user.partition(":") for user in users)]
    table = Table(int(channel), int(guild))
    asyncio.run(clicks(db, int(commits), int(game_id), table, callers))


if __name__ == "__main__":
    main(sys.argv[1:])
