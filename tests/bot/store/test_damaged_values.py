"""A byte damaged inside one game's stored values, on a real SQLite file and a real
PostgreSQL row: the database's own integrity check passes it, so the bot checks the values
themselves. A damaged state is rebuilt from the move log and play goes on; where the log
is damaged too, the game is named to the operator, its players are told privately what is
wrong and who can call it off, that call works, and every other channel plays on."""

from __future__ import annotations

import asyncio
import itertools
import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.service import Caller, Refused, Service, Table
from bot.service.daily import share_line
from bot.store import Store, open_checked, open_store
from bot.store.backends import POSTGRES, backend
from bot.store.sqlite import connection as sqlite_connection
from tests.bot.discord.discord_harness import OTHER_CHANNEL_ID, Harness
from tests.bot.discord.test_commands import assert_refused
from tests.bot.hosting.test_start_up_check import damage as damage_an_index
from tests.bot.hosting.test_start_up_check import logged as logged_soon
from tests.conftest import ADA, BOB, TABLE, run_bot

OTHER = Table(channel_id=5002, guild_id=TABLE.guild_id)
MO = Caller(1009, "Mo", manager=True)  # a server manager playing in neither game
DAMAGED = r"Game #{}'s stored state is damaged, so it can't be played on; a server manager can"


def service_of(store: Store) -> Service:
    """Each game its own seed, so no two stored states are alike."""
    return Service(store, images=False, seed=itertools.count(101).__next__)


async def two_games(where) -> int:
    """A started Skybridge game in TABLE, where both players have moved (its result is
    at stake), and one in OTHER, different; returns TABLE's game id."""
    store = await open_store(where)
    try:
        service = service_of(store)
        for table, moves, pick in ((TABLE, 2, 0), (OTHER, 1, -1)):
            await service.lobby.create(table, ADA, "skybridge")
            await service.lobby.join(table, BOB)
            reply = await service.lobby.start(table, ADA)
            for _ in range(moves):
                reply = await play(service, table, reply.awaiting[0], pick)
        return (await store.live_game(TABLE.channel_id)).id
    finally:
        await store.close()


async def play(service: Service, table: Table, user_id: int, pick: int = 0):
    """A legal move by the player ``user_id``; the public reply."""
    caller = ADA if user_id == ADA.user_id else BOB
    return await service.play.move(
        table, caller, (await service.play.legal_moves(table, caller))[pick]
    )


async def awaited_in(store: Store, table: Table) -> int:
    """The player the table's game waits for."""
    _game, seats = await store.seated_live_game(table.channel_id)
    (user_id,) = [s.user_id for s in seats if s.awaiting]
    return user_id


def _flipped(value: bytes, offset: int, bit: int) -> bytes:
    return value[:offset] + bytes([value[offset] ^ bit]) + value[offset + 1 :]


#: where a damaged value sits: table, column, and the row (``{}`` the game's id)
STATE = ("games", "state", "id = {}")
FIRST_MOVE = ("moves", "action", "game_id = {} AND seq = 1")


async def damage(where, place: tuple[str, str, str], game_id: int, offset: int, bit: int = 1):
    """Flip one bit of a stored value, as a bad sector would. SQLite: in the file itself,
    the store closed, wherever the file holds those bytes (the live row, and any copy a
    freed page still keeps). PostgreSQL: the row's value rewritten, nothing else of the
    row (its checksum) touched."""
    table, column, row = place
    row = row.format(int(game_id))
    if backend(where) is POSTGRES:
        conn = await asyncpg.connect(where)
        try:
            value = (await conn.fetchval(f"SELECT {column} FROM {table} WHERE {row}")).encode()
            flipped = _flipped(value, offset, bit).decode()
            await conn.execute(f"UPDATE {table} SET {column} = $1 WHERE {row}", flipped)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(where)) as db:
        (value,) = db.execute(f"SELECT CAST({column} AS BLOB) FROM {table} WHERE {row}").fetchone()
    data = bytearray(Path(where).read_bytes())
    if data.find(value) < 0:  # a value longer than a page: the run of bytes around the bit
        offset, value = min(offset, 32), value[max(0, offset - 32) : offset + 32]
    places = []
    while (found := data.find(value, places[-1] + 1 if places else 0)) >= 0:
        places.append(found)
    assert places, "the value is not in the file"
    for found in places:
        data[found + offset] ^= bit
    Path(where).write_bytes(bytes(data))


async def stored_state(where, game_id: int) -> str:
    store = await open_store(where)
    try:
        return (await store.game(game_id)).state
    finally:
        await store.close()


def stock_digit(state: str) -> int:
    """Where a piece count sits in a Skybridge state: one flipped bit there ('4' to '5')
    leaves valid JSON and a valid state, only a wrong one."""
    return state.index('"stock":[[') + len('"stock":[[')


async def reopened(where) -> Store:
    """The store as the bot opens it: its integrity check (SQLite's on the file) passes."""
    store = await open_checked(where)
    if backend(where) is not POSTGRES:
        assert await store.integrity() == "ok"
    return store


def logged(caplog, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


async def test_a_state_damaged_into_another_valid_one_is_caught_and_rebuilt_from_the_log(
    database, caplog
):
    game_id = await two_games(database)
    before = await stored_state(database, game_id)
    await damage(database, STATE, game_id, stock_digit(before))
    store = await reopened(database)
    try:
        service = service_of(store)
        damaged = await store.game(game_id)
        assert damaged.state != before  # a piece count changed, and JSON still parses
        with caplog.at_level(logging.INFO):
            assert await service.games.check_stored() == 1
        (said,) = logged(caplog, logging.ERROR)
        assert said.startswith(f"Game {game_id} (channel {TABLE.channel_id}) was damaged: its ")
        assert "rebuilt from its move log (2 entries) and stored again" in said
        assert not logged(caplog, logging.CRITICAL)
        assert (await store.game(game_id)).state == before
        assert await store.damaged_games() == []
        awaited = await awaited_in(store, TABLE)
        reply = await play(service, TABLE, awaited)
        assert reply.awaiting != (awaited,) and "To play:" in reply.text
    finally:
        await store.close()


@pytest.mark.parametrize("bit", [0x01, 0x80], ids=["not-json", "not-utf8"])
async def test_a_flipped_byte_in_the_sqlite_file_passes_its_integrity_check_and_is_repaired(
    tmp_path, caplog, bit
):
    """The damage as found on a real disk: the file's pages and indexes check out."""
    path = tmp_path / "bridgekeeper.db"
    game_id = await two_games(path)
    await damage(path, STATE, game_id, 1, bit)  # the quote of {"board"
    store = await reopened(path)
    try:
        service = service_of(store)
        with caplog.at_level(logging.INFO):
            reply = await service.looking.board(TABLE)  # met by a player, not at start-up
        assert "To play:" in reply.text
        (said,) = logged(caplog, logging.ERROR)
        assert f"Game {game_id} " in said and "rebuilt from its move log" in said
        assert ("not UTF-8 text" in said) == (bit == 0x80)
        assert await store.damaged_games() == []
    finally:
        await store.close()


async def test_a_game_whose_log_is_damaged_too_is_named_refused_and_can_be_called_off(
    database, caplog
):
    game_id = await two_games(database)
    state = await stored_state(database, game_id)
    await damage(database, STATE, game_id, stock_digit(state))
    await damage(database, FIRST_MOVE, game_id, 0)  # "blue …" becomes "clue …"
    store = await reopened(database)
    try:
        service = service_of(store)
        with caplog.at_level(logging.INFO):
            assert await service.games.check_stored() == 1
            version = (await store.game(game_id)).version
            refusals = []
            for ask in (
                lambda: service.play.move(TABLE, ADA, "blue tall b2"),
                lambda: service.play.legal(TABLE, ADA),
                lambda: service.looking.board(TABLE),
                lambda: service.looking.history(TABLE),
                lambda: service.undo.ask(TABLE, ADA),
                lambda: service.play.resign(TABLE, ADA),
            ):
                with pytest.raises(Refused) as refused:
                    await ask()
                refusals.append(str(refused.value))
            # the rated result is at stake: not for the creator to call off, as always
            with pytest.raises(Refused, match="ask a server manager who is not playing"):
                await service.lobby.abandon(TABLE, ADA)
        assert all(r.startswith(DAMAGED.format(game_id)) for r in refusals), refusals
        assert refusals[0].endswith("call it off with `/game abandon`.")
        assert (await store.game(game_id)).version == version  # nothing changed
        (said,) = logged(caplog, logging.CRITICAL)  # once, however often it is met
        assert said.startswith(f"Game {game_id} (Skybridge, channel {TABLE.channel_id}) is damaged")
        assert "its move log does not replay either" in said
        assert "Restore the database from a backup, or abandon the game" in said
        assert state[:30] not in "\n".join(r.getMessage() for r in caplog.records)
        # every other channel plays on
        awaited = await awaited_in(store, OTHER)
        reply = await play(service, OTHER, awaited)
        assert "To play:" in reply.text and reply.awaiting != (awaited,)
        called_off = await service.lobby.abandon(TABLE, MO)
        assert called_off.text == "Mo abandoned the game of Skybridge."
        assert (await store.game(game_id)).status == "abandoned"
        card = await service.looking.status_card(game_id)
        assert card.text == (
            "**Skybridge** (abandoned) — Ada, Bob. Its stored state is damaged, so it can't "
            "be played on."
        )
        assert "Ada opened a game" in (await service.lobby.create(TABLE, ADA, "skybridge")).text
    finally:
        await store.close()


async def test_a_state_stored_before_checksums_that_is_not_json_is_found_at_start_up(
    database, caplog
):
    game_id = await two_games(database)
    store = await open_store(database)
    async with store.transaction() as db:  # as an older Bridgekeeper left it: no checksum
        await db.execute(f"UPDATE games SET state_crc = NULL WHERE id = {game_id}")
    await store.close()
    await damage(database, STATE, game_id, 1)
    store = await reopened(database)
    try:
        assert await store.damaged_games() == [game_id]
        with caplog.at_level(logging.INFO):
            assert await service_of(store).games.check_stored() == 1
        (said,) = logged(caplog, logging.ERROR)
        assert f"Game {game_id} " in said and "does not parse" in said
        assert await store.damaged_games() == []
    finally:
        await store.close()


async def test_a_damaged_daily_game_called_off_is_a_loss_without_totals(tmp_path, caplog):
    path = tmp_path / "bridgekeeper.db"
    store = await open_store(path)
    service = service_of(store)
    dm = Table(channel_id=900_000 + ADA.user_id)
    await service.daily.play(dm, ADA, TABLE.guild_id)
    game_id = (await store.live_game(dm.channel_id)).id
    await service.play.move(dm, ADA, (await service.play.legal_moves(dm, ADA))[0])
    await store.close()
    await damage(path, STATE, game_id, 1)
    await damage(path, FIRST_MOVE, game_id, 0)
    store = await reopened(path)
    try:
        service = service_of(store)
        with caplog.at_level(logging.INFO), pytest.raises(Refused) as refused:
            await service.looking.board(dm)
        assert str(refused.value) == (
            f"Game #{game_id}'s stored state is damaged, so it can't be played on; you can "
            "call it off with `/game abandon`."
        )
        await service.lobby.abandon(dm, ADA)  # the player's own game, in their DM
        (entry,) = await store.entries(user_id=ADA.user_id)
        assert (entry.status, entry.total, entry.euler) == ("lost", None, None)
        line = share_line(entry, await service.daily.challenge(entry.day), 1)
        assert line.endswith(": Ada lost to Euler.") and "None" not in line
    finally:
        await store.close()


async def test_on_discord_the_damage_is_told_privately_and_a_manager_calls_the_game_off(
    tmp_path,
):
    path = tmp_path / "bridgekeeper.db"
    game_id = await two_games(path)
    await damage(path, STATE, game_id, 1)
    await damage(path, FIRST_MOVE, game_id, 0)
    async with Harness(path) as h:
        assert await h.service.games.check_stored() == 1  # as `python -m bot` starts
        (logged_once,) = h._errors.records  # the operator's, at CRITICAL
        assert (
            logged_once.levelno == logging.CRITICAL
            and f"Game {game_id} " in logged_once.getMessage()
        )
        h._errors.records.clear()
        told = DAMAGED.format(game_id)
        for command, options in (("move", {"notation": "blue tall b2"}), ("game", {})):
            path_ = ("board",) if command == "game" else ()
            assert_refused(await h.slash(command, *path_, user=ADA, **options), told)
        assert_refused(await h.slash("game", "abandon", user=ADA), "ask a server manager")
        player = ADA if await awaited_in(h.store, OTHER) == ADA.user_id else BOB
        notation = (await h.service.play.legal_moves(OTHER, player))[0]
        moved = await h.slash("move", notation=notation, user=player, channel=OTHER_CHANNEL_ID)
        assert moved.board.images  # the other channel plays on: its new board, for all
        gone = (await h.slash("game", "abandon", user=MO)).one
        assert not gone.ephemeral and gone.text == "Mo abandoned the game of Skybridge."
        status = h.messages[h.pinned[-1]]["content"]
        assert status.endswith("Its stored state is damaged, so it can't be played on.")
        opened = (await h.slash("game", "new", game="skybridge", user=ADA)).one
        assert "Ada opened a game of **Skybridge**" in opened.text


def test_in_the_terminal_the_session_goes_on_past_a_damaged_game(tmp_path):
    path = tmp_path / "bridgekeeper.db"
    opening = "ada: /new skybridge\nbob: /join\nada: /start\nbob: /move blue tall a1\n"
    run_bot("console", "--db", str(path), "--seed", "7", cwd=tmp_path, stdin=opening)
    asyncio.run(damage(path, STATE, 1, 1))
    asyncio.run(damage(path, FIRST_MOVE, 1, 0))
    lines = ("ada: /move red tall b1", "ada: /board", "ada: /turns", "mo: /abandon")
    typed = "\n".join((*lines, "ada: /new skybridge", ""))
    done = run_bot("console", "--db", str(path), "--manager", "mo", cwd=tmp_path, stdin=typed)
    told = DAMAGED.format(1)
    assert done.stdout.count("(only ada sees this) " + told) == 2, done.stdout  # move, board
    assert "mo abandoned the game of Skybridge." in done.stdout
    assert "ada opened a game of **Skybridge**" in done.stdout
    assert "Game 1 (Skybridge, channel 1) is damaged" in done.stderr  # said at start-up
    assert done.returncode == 1  # a replayed script with refused lines says so


async def test_a_lobby_whose_options_are_damaged_is_named_and_its_creator_calls_it_off(
    database, caplog
):
    """Options are where the log starts from: nothing rebuilds them."""
    store = await open_store(database)
    service = service_of(store)
    await service.lobby.create(TABLE, ADA, "bridge-wars", {"height": "8"})
    game_id = (await store.live_game(TABLE.channel_id)).id
    await store.close()
    await damage(database, ("games", "options", "id = {}"), game_id, 0)  # '{' becomes 'z'
    store = await reopened(database)
    try:
        service = service_of(store)
        with caplog.at_level(logging.INFO):
            assert await store.damaged_games() == [game_id]
            with pytest.raises(Refused, match=DAMAGED.format(game_id)):
                await service.lobby.join(TABLE, BOB)
        (said,) = logged(caplog, logging.CRITICAL)
        assert f"Game {game_id} (Bridge Wars, " in said and "options are not JSON" in said
        assert (
            await service.lobby.abandon(TABLE, ADA)
        ).text == "Ada abandoned the game of Bridge Wars."
    finally:
        await store.close()


async def test_a_state_rebuilt_in_a_file_that_takes_no_writes_is_shown_and_said_unsaved(
    tmp_path, caplog, monkeypatch
):
    """A failing disk damages more than one thing: here an index as well, which the
    integrity check after the start finds, and from then on nothing is written. The
    rebuilt state still answers the player; the operator hears it was not stored."""
    path = tmp_path / "bridgekeeper.db"
    game_id = await two_games(path)
    await damage(path, STATE, game_id, 1)
    damage_an_index(path)
    monkeypatch.setattr(sqlite_connection, "CHECK_BEFORE_START", 0)  # checked after the start
    store = await open_checked(path)
    try:
        await logged_soon(caplog, logging.CRITICAL)  # the integrity check's verdict
        player = ADA if await awaited_in(store, TABLE) == ADA.user_id else BOB
        with caplog.at_level(logging.INFO):
            reply = await service_of(store).play.legal(TABLE, player)
        assert reply.text.startswith("Your ") and "legal moves" in reply.text
        (said,) = logged(caplog, logging.ERROR)
        assert f"Game {game_id} " in said and "it could not be stored again: the database" in said
        assert "rebuilt from its move log (2 entries);" in said
        assert (await store.game(game_id)).damage  # as it was: nothing written
    finally:
        await store.close()
