"""A bot process without Discord, for tests and benches of several processes on one
database: the real service, store and minute's pass, driven by JSON lines.

``python -m bot.tools.worker --db URL [--lease S]`` reads one request a line on stdin and
answers each with one JSON line on stdout, in order:

- ``{"op": "clock", "at": ISO}``: the process's clock stands at that moment from now on
  (every worker of a test is set alike, so timers fall due together);
- ``{"op": "move", "channel": C, "guild": G, "user": U, "name": N, "text": T, "expect":
  [game, version]}``: a move, as a button would ask it: ``{"ok": true, "version": V}``
  or ``{"refused": "..."}``;
- ``{"op": "tick"}``: one minute's pass (timers, leagues, the daily challenge, notices):
  ``{"ok": true, "done": N}``;
- ``{"op": "quit"}``.

Everything the pass posts or sends is also written out, as it goes, one line each:
``{"event": "post", "channel": C, "game": G, "seq": S, "text": T}`` and ``{"event":
"notice", "id": I, "kind": K, "user": U, "via": V}`` — what a real bot would hand
Discord — so a test can count what reached the players, even from a process it killed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime, timedelta
from typing import Any

from bot.service import Caller, Refused, Service, Table
from bot.service.minute import MinutePass
from bot.service.timers import Posted
from bot.store import Notice, Store, open_store, parse_time, utcnow


class SetClock:
    """The store's clock: real time until a request sets it, then standing there."""

    def __init__(self) -> None:
        self.fixed: datetime | None = None

    def __call__(self) -> datetime:
        return self.fixed or utcnow()


class Worker:
    def __init__(self, store: Store, clock: SetClock, lease: timedelta) -> None:
        self.clock = clock
        self.service = service = Service(store, images=False, seed=lambda: 12345, timer_lease=lease)
        self.minute = MinutePass(service.timers, service.league_rounds, service.daily)

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "clock":
            self.clock.fixed = parse_time(request["at"])
            return {"ok": True}
        if op == "move":
            table = Table(request["channel"], request.get("guild"))
            caller = Caller(request["user"], request.get("name", "player"))
            expect = tuple(request["expect"]) if request.get("expect") else None
            try:
                reply = await self.service.play.move(table, caller, request["text"], expect)
            except Refused as exc:
                return {"refused": str(exc)}
            return {"ok": True, "version": reply.version}
        if op == "tick":
            return {"ok": True, "done": await self.minute.run(self._post, self._send)}
        raise ValueError(f"unknown op {op!r}")

    async def _post(self, item: Posted) -> bool:
        reply = item.reply
        write(
            {
                "event": "post",
                "channel": item.table.channel_id,
                "game": reply.game_id,
                "seq": reply.seq,
                "text": reply.text,
            }
        )
        return True

    async def _send(self, notice: Notice) -> None:
        if notice.kind == "board":  # posted as the bot would: the move's board, rebuilt
            await self._post(await self.minute.timers.board(notice))
        write(
            {
                "event": "notice",
                "id": notice.id,
                "kind": notice.kind,
                "user": notice.user_id,
                "via": notice.via,
            }
        )
        await self.minute.timers.sent(notice)


def write(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


async def serve(db: str, lease: timedelta) -> None:
    clock = SetClock()
    store = await open_store(db, clock=clock)
    worker = Worker(store, clock, lease)
    loop = asyncio.get_running_loop()
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            request = json.loads(line)
            if request["op"] == "quit":
                break
            write(await worker.handle(request))
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.worker", description=__doc__)
    parser.add_argument("--db", required=True, help="the database every worker shares")
    parser.add_argument("--lease", type=float, default=300.0, help="a wait's claim, seconds")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.db, timedelta(seconds=args.lease)))


if __name__ == "__main__":
    main()
