"""A write whose COMMIT goes unanswered because the PostgreSQL server crashed at that
moment: the player is told what was actually stored. A proxy between the store and a real
server lets the COMMIT through, holds the server's answer back, crashes the server
(``pg_ctl -m immediate``) and only then cuts the store's connection, so the store sees
exactly what it sees when a server dies between committing and answering.

On SQLite there is no such moment: a COMMIT is a call into the library in the bot's own
process, which returns how it went (a failed one is rolled back, and said so:
``test_storage_faults.py``); a crash there takes the bot down with it, and nobody is told
anything."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.service import Service
from bot.store import CannotSave, open_store
from bot.store.faults import CommitUnknown
from bot.store.postgres import connection
from tests.conftest import ADA, Table
from tests.postgres_cluster import Cluster

SOLO = Table(channel_id=900_001)
#: the first bytes of a startup packet that is not the startup message itself
_SSL_OR_GSS = {80877103, 80877104}

Action = Callable[[], Awaitable[None]]


class CommitCutter:
    """A TCP proxy in front of the server. Once :meth:`arm`\\ ed, it watches for the next
    COMMIT a client sends: it passes it to the server and reads the server's answer (the
    transaction has committed then), holds that answer back, runs the action (crash the
    server, say), and then cuts the client's connection. With ``drop``, the COMMIT itself
    is held back instead: the server never gets it."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._action: Action | None = None
        self._drop = False
        self._statement: bytes | None = None
        self._parsed = self._bound = False
        self.cut = asyncio.Event()
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()

    def arm(self, action: Action, *, drop: bool = False, statement: bytes | None = None) -> None:
        """Act on the next COMMIT; or, given ``statement`` (a part of its text), on the
        next run of the statement that holds it, which commits by itself: its Sync."""
        self._action, self._drop, self._statement = action, drop, statement
        self._bound = False
        self.cut.clear()

    def _acts_on(self, kind: bytes, packet: bytes) -> bool:
        """Whether ``packet`` (a message of ``kind``) is the armed COMMIT, or the Sync
        that ends a run (Bind, Execute) of the armed statement once it was parsed."""
        if self._statement is None:
            return kind == b"Q" and packet[5:11] == b"COMMIT"
        if kind == b"P" and self._statement in packet:
            self._parsed = True
        elif kind == b"B" and self._parsed:
            self._bound = True
        return kind == b"S" and self._bound

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter):
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_w.transport.abort()
            return
        holding = asyncio.Event()  # the COMMIT went through: the answer is held back
        answered = asyncio.Event()  # the server has answered it (ReadyForQuery)
        back = asyncio.create_task(self._answers(server_r, client_w, holding, answered))
        try:
            await self._requests(client_r, server_w, client_w, holding, answered)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            back.cancel()
            server_w.transport.abort()
            client_w.transport.abort()

    async def _requests(self, client_r, server_w, client_w, holding, answered) -> None:
        """The client's messages, passed on one by one; the armed COMMIT acted on."""
        started = False
        while True:
            if not started:  # untyped: SSL/GSS requests, then the startup message
                head = await client_r.readexactly(8)
                length, code = struct.unpack("!ii", head)
                packet = head + await client_r.readexactly(length - 8)
                started = code not in _SSL_OR_GSS
            else:
                head = await client_r.readexactly(5)
                length = struct.unpack("!i", head[1:])[0]
                packet = head + await client_r.readexactly(length - 4)
                action = self._action
                if action is not None and self._acts_on(head[:1], packet):
                    self._action = None
                    holding.set()
                    if not self._drop:
                        server_w.write(packet)
                        await server_w.drain()
                        await answered.wait()
                    await action()
                    self.cut.set()
                    return
            server_w.write(packet)
            await server_w.drain()

    async def _answers(self, server_r, client_w, holding, answered) -> None:
        """The server's answers, passed on until a COMMIT is held: then read to its
        ReadyForQuery and kept."""
        pending = b""
        while chunk := await server_r.read(65536):
            if not holding.is_set():
                client_w.write(chunk)
                await client_w.drain()
                continue
            pending += chunk
            while len(pending) >= 5:
                length = struct.unpack("!i", pending[1:5])[0]
                if len(pending) < 1 + length:
                    break
                if pending[:1] == b"Z":
                    answered.set()
                pending = pending[1 + length :]
        if not holding.is_set():  # the server went away: so does the client's connection
            client_w.transport.abort()


def _through(url: str, port: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{parts.netloc.rpartition(':')[0]}:{port}"))


@pytest.fixture
async def world(crashable: Cluster, crashable_url: str):
    """A solo Seven Bridges game against Euler, on a store that reaches the crashable
    server through a :class:`CommitCutter`."""
    cutter = CommitCutter(urlsplit(crashable_url).port)
    await cutter.start()
    store = await open_store(_through(crashable_url, cutter.port))
    service = Service(store, images=False, seed=lambda: 12345)
    await service.lobby.solo(SOLO, ADA, "seven-bridges")
    yield cutter, service
    await store.close()
    await cutter.stop()


def crash_and(cluster: Cluster, *, restart: bool) -> Action:
    async def act() -> None:
        await asyncio.to_thread(cluster.crash)
        if restart:
            await asyncio.to_thread(cluster.restart)

    return act


async def stored(service: Service) -> list[str]:
    game = await service.store.latest_game(SOLO.channel_id)
    return [m.action for m in await service.store.moves(game.id)]


async def test_a_move_committed_as_the_server_crashed_is_answered_as_played(crashable, world):
    cutter, service = world
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=True))
    reply = await service.play.move(SOLO, ADA, pick)  # the answer lost; the server back
    assert cutter.cut.is_set(), "the COMMIT was cut off"
    assert reply.seq == 1 and "Ada rolls" in reply.text, "answered as the move it was"
    assert await stored(service) == [pick]
    # the turn goes on from there: the next step, not the same one again
    after = await service.play.legal_moves(SOLO, ADA)
    played = await service.play.move(SOLO, ADA, after[0])
    assert played.seq == 2 and await stored(service) == [pick, after[0]]


async def test_a_move_whose_commit_never_reached_the_server_is_answered_as_not_saved(
    crashable, world
):
    cutter, service = world
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=True), drop=True)
    with pytest.raises(CannotSave) as refused:
        await service.play.move(SOLO, ADA, pick)
    assert not isinstance(refused.value, CommitUnknown)
    assert "nothing you asked for was done" in str(refused.value)
    assert await stored(service) == []


async def test_a_move_committed_as_the_server_crashed_for_good_is_told_as_unknown(
    crashable, world, monkeypatch
):
    cutter, service = world
    monkeypatch.setattr(connection, "SETTLE_WITHIN", 1.0)
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=False))
    try:
        with pytest.raises(CommitUnknown) as unknown:
            await service.play.move(SOLO, ADA, pick)
    finally:
        await asyncio.to_thread(crashable.restart)
    message = str(unknown.value)
    assert "may or may not have been saved" in message and "`/game board`" in message
    assert "nothing you asked for was done" not in message
    assert await stored(service) == [pick], "it was: the player is told to look first"


#: a part of the text of the statement that is a whole move (:mod:`bot.store.postgres.moves`)
ONE_STATEMENT = b"FOR UPDATE OF g0, s"


async def test_a_one_statement_move_committed_as_the_server_crashed_is_answered_as_played(
    crashable, world
):
    """A move this store can make in one statement commits by itself: its answer lost
    with the server, the store asks, once the server is back and the connection's
    backend gone, whether its log entry is there."""
    cutter, service = world
    first = (await service.play.legal_moves(SOLO, ADA))[0]
    await service.play.move(SOLO, ADA, first)
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=True), statement=ONE_STATEMENT)
    reply = await service.play.move(SOLO, ADA, pick)
    assert cutter.cut.is_set(), "the statement's answer was cut off"
    assert reply.seq == 2 and await stored(service) == [first, pick]


async def test_a_one_statement_move_that_never_committed_is_made_again(crashable, world):
    """The statement's Sync never reached the server, so it never committed: the store
    finds no log entry and makes the move the four-trip way, once the server is back."""
    cutter, service = world
    first = (await service.play.legal_moves(SOLO, ADA))[0]
    await service.play.move(SOLO, ADA, first)
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=True), drop=True, statement=ONE_STATEMENT)
    reply = await service.play.move(SOLO, ADA, pick)
    assert cutter.cut.is_set()
    assert reply.seq == 2 and await stored(service) == [first, pick], "stored once"


async def test_a_one_statement_move_as_the_server_crashed_for_good_is_told_as_unknown(
    crashable, world, monkeypatch
):
    cutter, service = world
    monkeypatch.setattr(connection, "SETTLE_WITHIN", 1.0)
    first = (await service.play.legal_moves(SOLO, ADA))[0]
    await service.play.move(SOLO, ADA, first)
    pick = (await service.play.legal_moves(SOLO, ADA))[0]
    cutter.arm(crash_and(crashable, restart=False), statement=ONE_STATEMENT)
    try:
        with pytest.raises(CommitUnknown):
            await service.play.move(SOLO, ADA, pick)
    finally:
        await asyncio.to_thread(crashable.restart)
    assert await stored(service) == [first, pick], "it was: the player is told to look first"
