"""A database as a community leaves it after a while, built through the real service:
all five games played to the end (rated, one with a rematch asked for) and all five in
the middle of play, one on a clock with a take-back in its log, one with a take-back
request waiting; a lobby with an AI seat; settings and a vacation; notices queued and not
yet delivered; a daily challenge played and announced; a league season half way through,
its organiser role set; someone who typed at the terminal.

It fills every table of the schema (:func:`tables_left_empty` says which it does not): a
copy of it exercises every column of every table, and a table a future migration adds
fails the tests that use it until something here fills it too."""

from __future__ import annotations

import io
import itertools
import random
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import engine
from bot.domain.clocks import Clocks
from bot.service import Caller, Service, Table
from bot.service.timers import Posted
from bot.store import SQLiteStore, Store
from bot.terminal.session import Console
from bot.tools.selfplay import play_random, robots
from tests.bot.service.test_daily import dm, play_out
from tests.bot.service.test_league_service import HOME, MOD, PLAYERS, finish, games_in
from tests.conftest import ADA, BOB, CY, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
#: a game on a 48-hour clock, still being played: its deadline falls at T0 + 48 h
ON_THE_CLOCK = Table(channel_id=7100, guild_id=HOME.guild_id)
#: a game whose take-back request waits for the other player
UNDO_ASKED = Table(channel_id=7101, guild_id=HOME.guild_id)
LOBBY = Table(channel_id=7102, guild_id=HOME.guild_id)
FINISHED_KEYS = sorted(engine.GAMES)
FINISHED = [Table(channel_id=7000 + n, guild_id=HOME.guild_id) for n in range(len(FINISHED_KEYS))]


def service_at(store: Store) -> Service:
    """The service as both sides of a comparison run it: new games seeded 1, 2, 3..."""
    return Service(store, images=False, seed=itertools.count(1).__next__)


async def build(path: Path, clock: Clock) -> None:
    """The database at ``path``, begun at :data:`T0`; ``clock`` is left 37 hours on, its
    first reminders and warnings queued. Last, an operator changed a game's reminders by
    hand, so its wait is marked due at once (the schema's triggers store ``''``)."""
    store = await SQLiteStore.open(path, clock=clock)
    try:
        await _fill(service_at(store), clock)
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "UPDATE games SET remind_hours = 12 WHERE channel_id = ?", (UNDO_ASKED.channel_id,)
        )


async def _fill(service: Service, clock: Clock) -> None:
    rng = random.Random(20)
    for table, key in zip(FINISHED, FINISHED_KEYS, strict=True):
        players = max(2, engine.get(key).info.min_players)
        await play_random(service, table, key, players, rng)
    await service.rematch.agree(FINISHED[0], robots(2)[0])

    await service.postal.settings(
        ADA, notify="dm", timezone="Europe/Paris", quiet_start=23, quiet_end=7
    )
    terminal = Console(service, Path("boards"), io.StringIO())  # no board is drawn here
    await terminal.handle("dee: /settings timezone=Europe/Berlin")
    await service.lobby.create(ON_THE_CLOCK, ADA, "skybridge", clocks=Clocks(move_hours=48))
    await service.lobby.join(ON_THE_CLOCK, BOB)
    await service.lobby.start(ON_THE_CLOCK, ADA)
    await _play(service, ON_THE_CLOCK, rng, 3)
    mover = await _awaited(service, ON_THE_CLOCK)
    await service.play.move(
        ON_THE_CLOCK, mover, (await service.play.legal_moves(ON_THE_CLOCK, mover))[0]
    )
    await service.undo.ask(ON_THE_CLOCK, mover)  # taken back at once: an undo in the log
    await _play(service, ON_THE_CLOCK, rng, 1)

    await service.lobby.create(UNDO_ASKED, BOB, "bridge-wars")
    await service.lobby.join(UNDO_ASKED, CY)
    await service.lobby.start(UNDO_ASKED, BOB)
    await _play(service, UNDO_ASKED, rng, 4)
    asker = await _awaited(service, UNDO_ASKED)
    await service.undo.ask(UNDO_ASKED, asker)  # the other has moved since: a request waits

    for n, key in enumerate(k for k in FINISHED_KEYS if k not in ("skybridge", "bridge-wars")):
        table = Table(channel_id=7110 + n, guild_id=HOME.guild_id)
        await service.lobby.create(table, CY, key)
        await service.lobby.join(table, ADA)
        await service.lobby.start(table, CY)
        await _play(service, table, rng, 6)  # mid-game: hands, dice, windows open

    await service.lobby.create(LOBBY, CY, "skybridge")
    await service.seats.add_ai(LOBBY, CY, "easy")

    daily = service.daily
    await daily.setup(HOME, MOD)
    await daily.play(dm(CY), CY, HOME.guild_id)
    await play_out(service, dm(CY), CY, rng)
    await daily.rollover(_shown)  # as the minute's pass runs it: under the daily lease

    await service.leagues.set_role(HOME.guild_id, MOD, 555)
    await service.leagues.create(HOME, MOD, "Cup", "skybridge", "round-robin")
    for player in PLAYERS[:4]:
        await service.leagues.join(HOME.guild_id, player, "Cup")
    for table in games_in(await service.league_rounds.start(HOME.guild_id, MOD, "Cup")):
        await finish(service, table, rng)
    await service.league_rounds.tick()  # round 2 opens, its games on the league's clock

    await service.postal.vacation(BOB, 1)
    clock.at(hours=37)
    await service.timers.tick()  # reminders and warnings: queued, not delivered


async def _shown(_item: Posted) -> bool:
    """A post made: nobody reads it here."""
    return True


async def _awaited(service: Service, table: Table) -> Caller:
    row = await service.store.live_game(table.channel_id)
    seat = next(s for s in await service.store.seats(row.id) if s.awaiting)
    return Caller(seat.user_id, seat.name)


async def _play(service: Service, table: Table, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        who = await _awaited(service, table)
        await service.play.move(table, who, rng.choice(await service.play.legal_moves(table, who)))


def tables_left_empty(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [n for n in names if not db.execute(f"SELECT 1 FROM {n} LIMIT 1").fetchone()]


def dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of a SQLite file, as SQLite returns them, in order."""
    with closing(sqlite3.connect(path)) as db:
        tables = "SELECT name FROM sqlite_master WHERE type = 'table'"
        names = [n for (n,) in db.execute(tables) if n != "schema_migrations"]
        return {n: sorted(db.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}
