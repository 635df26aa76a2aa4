"""Several real bot processes on one PostgreSQL database (the service, the store and the
minute's pass, without Discord: ``bot.tools.worker``): moves racing from two processes,
timers ticked by both at once, and a process SIGKILLed in the middle of its tick.

Each process is a fresh interpreter with its own connection pool and its own locks, as
two shard processes on two hosts would be; only the database is shared."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.domain.clocks import Clocks
from bot.service import Caller, Service, Table
from bot.service.play import ANNOUNCE_AFTER
from bot.store import iso, open_store
from tests.conftest import Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
GUILD = 9001
PLAYERS = (Caller(1001, "Ada"), Caller(1002, "Bob"))
WAIT = 120  # seconds any one answer may take, on a loaded machine


class Process:
    """One ``python -m bot.tools.worker`` on the shared database."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.events: list[dict[str, Any]] = []  # posts and notices, in the order written

    @classmethod
    async def start(cls, url: str, lease: float = 300.0) -> Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.tools.worker",
            "--db",
            url,
            "--lease",
            str(lease),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(proc)

    async def ask(self, **request: Any) -> dict[str, Any]:
        """Send one request; the answer (posts and notices on the way are kept)."""
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        await self.proc.stdin.drain()
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(), WAIT)
            assert line, f"the worker died answering {request}"
            answer = json.loads(line)
            if "event" not in answer:
                return answer
            self.events.append(answer)

    async def drain(self) -> None:
        """What a killed process wrote before it died (a line cut short is not kept)."""
        for line in (await self.proc.stdout.read()).splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                self.events.append(json.loads(line))

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.stdin.write(b'{"op": "quit"}\n')
            await self.proc.stdin.drain()
            await asyncio.wait_for(self.proc.wait(), WAIT)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)

    def posts(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == "post"]

    def notices(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == "notice"]


@pytest.fixture
async def processes(postgres_url):
    """Start workers on the test's database: ``await processes(2, lease=3)``."""
    started: list[Process] = []

    async def start(count: int, lease: float = 300.0) -> list[Process]:
        more = [await Process.start(postgres_url, lease) for _ in range(count)]
        started.extend(more)
        return more

    yield start
    for process in started:
        if process.proc.returncode is None:
            process.kill()
        await process.proc.wait()


@pytest.fixture
async def service(postgres_url):
    """The test's own view of the shared database, with a clock standing at T0."""
    store = await open_store(postgres_url, clock=Clock(T0))
    yield Service(store, images=False, seed=lambda: 12345)
    await store.close()


async def open_games(service: Service, count: int, clocks: Clocks | None = None) -> list[Table]:
    tables = [Table(channel_id=8000 + n, guild_id=GUILD) for n in range(count)]
    for table in tables:
        await service.lobby.create(table, PLAYERS[0], "skybridge", clocks=clocks)
        await service.lobby.join(table, PLAYERS[1])
        await service.lobby.start(table, PLAYERS[0])
    return tables


async def at(moment: datetime, *processes: Process) -> None:
    for process in processes:
        assert await process.ask(op="clock", at=iso(moment)) == {"ok": True}


async def column(service: Service, sql: str) -> list:
    return [row[0] for row in await service.store.rows(sql)]


async def test_of_moves_racing_from_two_processes_exactly_one_wins(service, processes):
    one, two = await processes(2)
    tables = await open_games(service, 12)
    for _ in range(3):  # three moves a game, each raced by both processes at once
        for table in tables:
            row, seats = await service.store.seated_live_game(table.channel_id)
            (seat,) = [s for s in seats if s.awaiting]
            caller = Caller(seat.user_id, seat.name)
            moves = await service.play.legal_moves(table, caller)
            first, second = await asyncio.gather(
                *(
                    process.ask(
                        op="move",
                        channel=table.channel_id,
                        guild=GUILD,
                        user=caller.user_id,
                        name=caller.name,
                        text=text,
                        expect=[row.id, row.version],
                    )
                    for process, text in zip((one, two), (moves[0], moves[-1]), strict=True)
                )
            )
            assert sorted(("ok" in first, "ok" in second)) == [False, True], (first, second)
            refused = first.get("refused") or second.get("refused")
            assert "moved on" in refused or "same moment" in refused, refused
    logged = Counter(await column(service, "SELECT game_id FROM moves"))
    assert sorted(logged.values()) == [3] * len(tables), "three moves each, none lost or doubled"


async def test_two_processes_ticking_at_once_fire_every_timer_once(service, processes):
    one, two = await processes(2)
    tables = await open_games(service, 16, Clocks(move_hours=1))
    await at(T0 + timedelta(minutes=46), one, two)  # every game's warning is due
    for _ in range(3):
        await asyncio.gather(one.ask(op="tick"), two.ask(op="tick"))
    warnings = await column(service, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert sorted(warnings) == sorted(set(warnings)) and len(warnings) == len(tables)
    sent = [n["id"] for n in one.notices() + two.notices()]
    assert sorted(sent) == sorted(set(sent)) and len(sent) == len(tables), "each sent once"

    await at(T0 + timedelta(minutes=61), one, two)  # every deadline
    for _ in range(3):
        await asyncio.gather(one.ask(op="tick"), two.ask(op="tick"))
    moved = Counter(await column(service, "SELECT game_id FROM moves WHERE user_id > 0"))
    assert len(moved) == len(tables) and set(moved.values()) == {1}, "one deadline move each"
    posted = Counter(p["game"] for p in one.posts() + two.posts())
    assert len(posted) == len(tables) and set(posted.values()) == {1}, "each announced once"


async def test_a_process_killed_mid_tick_loses_no_timer_and_fires_none_twice(service, processes):
    lease = 3.0
    one, two = await processes(2, lease=lease)
    tables = await open_games(service, 120, Clocks(move_hours=1))
    await at(T0 + timedelta(minutes=46), two)
    await two.ask(op="tick")  # the warnings, out of the way
    deadlines = T0 + timedelta(minutes=61)
    await at(deadlines, one, two)
    ticking = asyncio.ensure_future(one.ask(op="tick"))
    sql = "SELECT count(*) FROM moves WHERE user_id > 0"
    while (await column(service, sql))[0] < 10:  # some of its deadline moves are made
        assert not ticking.done(), "the tick ended before it could be killed mid-way"
        await asyncio.sleep(0.01)
    one.kill()
    with pytest.raises(AssertionError, match="the worker died"):
        await ticking
    await one.drain()
    done_by_one = (await column(service, sql))[0]
    assert 10 <= done_by_one < len(tables), "killed in the middle of its tick"

    await two.ask(op="tick")  # its claims still hold: the rest of the games are two's now
    await at(deadlines + timedelta(seconds=lease), two)  # the dead process's claims run out
    await two.ask(op="tick")
    moved = Counter(await column(service, "SELECT game_id FROM moves WHERE user_id > 0"))
    assert len(moved) == len(tables) and set(moved.values()) == {1}, "none lost, none twice"
    warnings = await column(service, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert len(warnings) == len(set(warnings)) == len(tables)

    # a move the dead process stored but did not post is posted by the living one (a
    # kill between the two is rare now each move is posted as it is stored: the stand-in
    # itself is tested in test_timer_claims.py)
    await at(deadlines + ANNOUNCE_AFTER, two)
    await two.ask(op="tick")
    posted = Counter(p["game"] for p in one.posts() + two.posts())
    assert set(posted) == set(moved), "every deadline move was announced"
    assert list(posted.values()).count(2) <= 1, "at most the post cut off mid-way, twice"
