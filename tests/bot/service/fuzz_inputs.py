"""Fuzz what people type, through the console and straight into the service.

    .venv/bin/python -m tests.bot.service.fuzz_inputs --inputs 20000 [--db postgresql://...]

Each input is a console line (odd unicode, huge numbers, nan, inf, negatives, very long
strings, ``=`` soup, and well-formed commands so that games really get played) or a
service call with arbitrary values (clocks, extensions, vacations, settings, leagues).
An input may be taken or refused; a refused one must leave the database's logical
content exactly as it was, and none may raise anything but a refusal, on SQLite and on
PostgreSQL alike (``--db``: an empty scratch database; the fuzzed games stay in it). The script
prints how many inputs were tried, refused, accepted and unhandled (the target: 0);
``test_fuzz_inputs.py`` runs the same checks, fewer of them, in the test suite.
Not collected by pytest itself (its name does not start with ``test_``).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import sqlite3
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import engine
from bot.domain.clocks import Clocks
from bot.service import Caller, Refused, Service, Table
from bot.service.inputs import (
    LEAGUE_MOVE_TIME,
    REACTION_WINDOW,
    REMIND_EVERY,
    REMINDERS,
    ROUND_TIME,
    TIME_PER_MOVE,
    Span,
    parse_timezone,
)
from bot.store import Target, open_store
from bot.store.backends import POSTGRES, backend
from bot.terminal.session import Console

ACCEPTED, REFUSED = "accepted", "refused"
ADA, BOB, MOD = Caller(1, "ada"), Caller(2, "bob"), Caller(3, "Mod", manager=True)
TABLES = (Table(7001, 1), Table(7002, 1), Table(7003, None))
NAMED = Table(7004, 1)  # where a player of any name opens a game (and calls it off)
GAME_KEYS = sorted(engine.GAMES)

ODD = [
    "0", "-0", "-1", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e308", "-1e308",
    "1e-308", "10000000d", "9" * 400, "0x10", "1_000", "", " ", "\t", "\0", "٣h", "１２h",
    "1w", "2 days", "90m", "1.5h", "3d", "12h", "1d 12h", ".5d", "61d", "0.0001h", "1d1d1d",
    "=", "==", "a=", "=b", "a=b=c", ",,,", "Europe/Berlin", "Mars/Olympus", "../../etc/passwd",
    "A" * 10_000, "2026-12-01 18:00", "9999-12-31", "0001-01-01", "ii-2-3", "on", "off",
    "red tall b2", "forfeit", "skip", "random", "pass", "resign", "🂡", "\u202e", "'", "`",
    "²", "9" * 5000, "1" + "0" * 400, "a\0b", "\ud800", "x\udfffy", "<t:999999999999>",
    "<t:-999999999999>", "<t:1796148000>", "<t:1796148000:R>", "<t:0>", "253402300800",
    "{t:999999999999:R}",
]  # fmt: skip
#: one character, many times over: far past any length a value may have
LONG = st.builds(
    lambda part, times: part * times,
    st.sampled_from(["A", "9", "1d ", "=", "é", "Europe/", "a=b "]),
    st.integers(min_value=1, max_value=20_000),
)
ODDITIES = st.sampled_from(ODD)
WORDS = st.one_of(
    ODDITIES,
    ODDITIES,
    ODDITIES,
    st.text(max_size=30),
    st.from_regex(r"-?[0-9]{1,12}(\.[0-9]{1,8})?(e[+-]?[0-9]{1,4})?\s?[a-z]{0,7}", fullmatch=True),
    st.floats().map(repr),
    st.integers().map(str),
    st.text(alphabet="=, abc09.-", max_size=30),
    st.text(st.characters(exclude_categories=()), max_size=20),  # lone surrogates too
    LONG,
)
OPTION_NAMES = st.one_of(
    st.sampled_from(
        ["time_per_move", "at_deadline", "remind_every", "reaction_window", "start", "clock"]
    ),
    st.text(max_size=12),
)
OPTIONS = st.lists(st.tuples(OPTION_NAMES, WORDS), max_size=4).map(
    lambda pairs: " ".join(f"{k}={v}" for k, v in pairs)
)
COMMAND_NAMES = [
    *("new", "solo", "join", "leave", "start", "move", "legal", "hand", "board", "snooze"),
    *("vacation", "status", "history", "undo", "resign", "abandon", "turns", "rating"),
    *("leaderboard", "games", "rules", "help", "game", "nope"),
]
COMMANDS = st.sampled_from(COMMAND_NAMES)
LEAGUE_SUBS = ["join", "leave", "start", "standings", "schedule", "results", "list"]
#: lines that really play, so the fuzzing meets lobbies, games in play and finished ones
PLAY = st.sampled_from(
    [
        "ada: /new skybridge",
        "ada: /new skybridge time_per_move=2d at_deadline=forfeit",
        "bob: /join",
        "ada: /start",
        "ada: /abandon",
        "ada: /solo",
    ]
)
LINES = st.one_of(
    PLAY,
    st.builds(
        lambda user, command, game, args: f"{user}: /{command} {game} {args}",
        st.one_of(st.sampled_from(["ada", "bob", "a\0da", "b\ud800b"]), st.text(max_size=12)),
        COMMANDS,
        st.one_of(st.sampled_from(GAME_KEYS), WORDS),
        st.one_of(OPTIONS, WORDS),
    ),
    st.builds(lambda u, c, w: f"{u}: /{c} {w}", st.sampled_from(["ada", "bob"]), COMMANDS, WORDS),
    st.builds(lambda sub, name: f"ada: /league {sub} {name}", st.sampled_from(LEAGUE_SUBS), WORDS),
    st.text(max_size=200),
)

NUMBERS = st.one_of(
    st.floats(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 24, 60 * 24, 0.5, -1]),
)
MAYBE_TEXT = st.one_of(st.none(), WORDS)
CLOCKS = st.builds(
    Clocks,
    move_hours=st.one_of(st.none(), NUMBERS),
    policy=st.one_of(st.sampled_from(["random", "skip", "forfeit"]), WORDS),
    remind_hours=NUMBERS,
    reminder_limit=st.one_of(st.integers(), st.sampled_from([0, 3])),
    reaction_hours=NUMBERS,
)
CALLS = st.one_of(
    st.tuples(
        st.just("create"),
        st.sampled_from(TABLES),
        st.one_of(st.sampled_from(GAME_KEYS), WORDS),
        st.dictionaries(OPTION_NAMES, WORDS, max_size=3),
        CLOCKS,
    ),
    st.tuples(st.just("extend"), NUMBERS),
    st.tuples(st.just("vacation"), NUMBERS),
    st.tuples(
        st.just("settings"),
        MAYBE_TEXT,
        MAYBE_TEXT,
        st.one_of(st.none(), st.integers()),
        st.one_of(st.none(), st.integers()),
        MAYBE_TEXT,
        st.one_of(st.none(), st.integers()),
    ),
    st.tuples(
        st.just("league"),
        WORDS,
        st.one_of(st.sampled_from(GAME_KEYS), WORDS),
        st.one_of(st.sampled_from(["swiss", "round-robin", "rotating"]), WORDS),
        st.fixed_dictionaries(
            {},
            optional={
                "table_size": st.integers(),
                "rounds": st.one_of(st.none(), st.integers()),
                "points": MAYBE_TEXT,
                "round_hours": NUMBERS,
                "move_hours": st.one_of(st.none(), NUMBERS),
                "starts": MAYBE_TEXT,
                "bye": st.one_of(st.none(), st.integers()),
            },
        ),
    ),
    st.tuples(st.just("board"), st.one_of(st.none(), st.integers())),
    st.tuples(st.just("snooze"), st.integers(min_value=-1, max_value=10), WORDS),
    st.tuples(st.sampled_from(["named", "member"]), WORDS),
    st.tuples(st.sampled_from(["join", "start"])),
)
INPUTS = st.one_of(LINES.map(lambda line: ("line", line)), CALLS)


#: numbers a front end could hand the service, at and past every edge
EDGES = (0, -1, 0.5, 1, 24, 1440, 1441, 10**30, 1e308, -1e308, math.inf, -math.inf, math.nan)
CLOCK_FIELDS = ("move_hours", "remind_hours", "reaction_hours")
TYPED_FIELDS = ("time_per_move", "at_deadline", "remind_every", "reaction_window")
LEAGUE_FIELDS = ("starts", "points")
LEAGUE_HOURS = ("round_hours", "move_hours")


def sweep() -> list[tuple]:
    """Every odd value in every place it can be typed, once: what random picks may miss.

    Starts a game with a clock on the service's table and one in the console, so that
    ``/board``, ``/move``, ``extend`` and the like meet a game in play.
    """
    items: list[tuple] = [
        ("create", TABLES[0], "skybridge", {}, Clocks(move_hours=24)),
        ("join",),
        ("start",),
        *(("line", line) for line in ("ada: /new skybridge", "bob: /join", "ada: /start")),
    ]
    items += [("line", f"ada: /{command} {odd}") for command in COMMAND_NAMES for odd in ODD]
    items += [("line", f"ada: /new skybridge {f}={odd}") for f in TYPED_FIELDS for odd in ODD]
    items += [("settings", odd, None, None, None, None, None) for odd in ODD]
    items += [("settings", None, None, None, None, odd, None) for odd in ODD]
    items += [("settings", None, None, None, None, "digest", e) for e in (-1, 0, 23, 24, 10**30)]
    items += [("line", f"ada: /settings reminders={odd}") for odd in ODD]
    items += [("line", f"ada: /settings reminders=digest digest_hour={odd}") for odd in ODD]
    items += [
        ("league", "Cup", "skybridge", "swiss", {field: odd})
        for field in LEAGUE_FIELDS
        for odd in ODD
    ]
    items += [
        ("league", "Cup", "skybridge", "swiss", {field: edge})
        for field in LEAGUE_HOURS
        for edge in EDGES
    ]
    items += [(kind, edge) for kind in ("extend", "vacation") for edge in EDGES]
    items += [("line", f"{odd}: /join") for odd in ODD]  # the player's own name
    items += [("league", odd, "skybridge", "swiss", {}) for odd in ODD]
    items += [("line", f"ada: /league {sub} {odd}") for sub in ("join", "results") for odd in ODD]
    items += [("snooze", 1, odd) for odd in ODD]
    items += [(kind, odd) for kind in ("named", "member") for odd in ODD]
    items += [
        ("create", TABLES[1], "skybridge", {}, Clocks(**{field: edge}))
        for field in CLOCK_FIELDS
        for edge in EDGES
    ]
    return items


Rows = Callable[[str], list[tuple]]


def out_of_range(rows: Rows) -> list[str]:
    """Stored values no check should have let in: clocks, league timing, time zones."""
    games = rows("SELECT id, move_hours, remind_hours, reaction_hours, reminder_limit FROM games")
    leagues = rows("SELECT id, round_hours, move_hours, rounds, table_size FROM leagues")
    zones = rows("SELECT user_id, timezone FROM user_settings")
    cadences = rows("SELECT user_id, remind_hours, digest_hour, digest_at FROM user_settings")
    spans = (TIME_PER_MOVE, REMIND_EVERY, REACTION_WINDOW)
    bad = [
        f"game {row[0]}: {span.option}={value!r}"
        for row in games
        for span, value in zip(spans, row[1:4], strict=True)
        if not (value is None and span is TIME_PER_MOVE or _inside(value, span))
    ]
    bad += [f"game {row[0]}: reminder_limit={row[4]!r}" for row in games if not 0 <= row[4] <= 10]
    for league, round_hours, move_hours, rounds, size in leagues:
        if not _inside(round_hours, ROUND_TIME) or not (
            move_hours is None or _inside(move_hours, LEAGUE_MOVE_TIME)
        ):
            bad.append(f"league {league}: round {round_hours!r} h, move {move_hours!r} h")
        if not (rounds is None or 1 <= rounds <= 50) or not 2 <= size <= 6:
            bad.append(f"league {league}: {rounds!r} rounds at tables of {size!r}")
    for user, zone in zones:
        try:
            parse_timezone(zone)
        except Refused:
            bad.append(f"user {user}: time zone {zone[:40]!r}")
    for user, hours, hour, due in cadences:
        if hours is not None and not _inside(hours, REMINDERS) or hour not in (None, *range(24)):
            bad.append(f"user {user}: reminders every {hours!r} h, digest at {hour!r}")
        if (hour is None) != (due is None):
            bad.append(f"user {user}: a digest at {hour!r} due {due!r}")
    return bad


def _inside(value: object, span: Span) -> bool:
    return isinstance(value, int | float) and span.low <= value <= span.high


class Rig:
    """A real database (a SQLite file, or the PostgreSQL database ``where`` names), the
    service, organiser and console over it, and one loop."""

    def __init__(self, folder: Path, where: Target | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.where = folder / "fuzz.db" if where is None else where
        self.store = self.loop.run_until_complete(open_store(self.where))
        self.service = Service(self.store, images=False, seed=lambda: 12345)
        self.console = Console(self.service, folder / "images", io.StringIO())
        self._reader: asyncpg.Connection | None = None  # PostgreSQL's: a connection of its own
        self._tables: list[str] = []
        if backend(self.where) is POSTGRES:
            self._reader = self.loop.run_until_complete(asyncpg.connect(self.where))
            tables = self.rows(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
            self._tables = sorted(name for (name,) in tables)

    def close(self) -> None:
        if self._reader is not None:
            self.loop.run_until_complete(self._reader.close())
        self.loop.run_until_complete(self.store.close())
        self.loop.close()

    def rows(self, sql: str) -> list[tuple]:
        """A query's rows, through a connection of the rig's own, not the store's."""
        if self._reader is None:
            with closing(sqlite3.connect(self.where)) as db:
                return db.execute(sql).fetchall()
        return [tuple(r) for r in self.loop.run_until_complete(self._reader.fetch(sql))]

    def dump(self) -> list[str]:
        """The database's logical content: reading leaves it as it was, and neither a WAL
        checkpoint nor the order PostgreSQL hands rows over in can make it differ."""
        if self._reader is None:
            with closing(sqlite3.connect(self.where)) as db:
                return list(db.iterdump())
        every = ", ".join(
            f"(SELECT COALESCE(string_agg(t::text, E'\\n' ORDER BY t::text), '') FROM {name} t)"
            for name in self._tables
        )
        return list(self.rows(f"SELECT {every}")[0])

    def feed(self, item: tuple) -> str:
        """Run one input: ``accepted`` or ``refused``. A refusal that changed the database
        fails an assertion; any other exception is let through, as a bug."""
        before = self.dump()
        outcome = self.loop.run_until_complete(self._run(item))
        if outcome == REFUSED:
            assert self.dump() == before, f"the refused {item!r:.300} changed the database"
        else:
            assert not (bad := out_of_range(self.rows)), f"{item!r:.300} stored {bad}"
        return outcome

    async def _run(self, item: tuple) -> str:
        kind, *args = item
        if kind == "line":
            self.console.out = io.StringIO()  # the console's answers are not kept
            refused = self.console.refused
            await self.console.handle(args[0])
            return REFUSED if self.console.refused > refused else ACCEPTED
        try:
            await self._call(kind, args)
        except Refused as refusal:
            if kind == "create" and "already has a game" in str(refusal):  # no other fault
                assert await self.store.live_game(args[0].channel_id), f"{item!r:.300}: {refusal}"
            return REFUSED
        return ACCEPTED

    async def _call(self, kind: str, args: list[Any]) -> None:
        table, s = TABLES[0], self.service
        if kind == "create":
            where, game, options, clocks = args
            await s.lobby.create(where, ADA, game, options, clocks=clocks)
        elif kind == "extend":
            await s.postal.extend(table, ADA, args[0])
        elif kind == "vacation":
            await s.postal.vacation(BOB, args[0])
        elif kind == "settings":
            zone, notify, start, end, reminders, hour = args
            await s.postal.settings(
                BOB, timezone=zone, notify=notify, quiet_start=start, quiet_end=end,
                reminders=reminders, digest_hour=hour,
            )  # fmt: skip
        elif kind == "league":
            name, game, fmt, options = args
            await self.service.leagues.create(table, MOD, name, game, fmt, **options)
        elif kind == "join":
            await s.lobby.join(table, BOB)
        elif kind == "start":
            await s.lobby.start(table, ADA)
        elif kind == "snooze":
            await s.postal.snooze_turn(args[0], BOB, args[1])
        elif kind == "named":  # a player of that name opens a game, and calls it off
            player = Caller(4, args[0])
            await s.lobby.create(NAMED, player, "skybridge")
            await s.lobby.abandon(NAMED, player)
        elif kind == "member":  # a player of that name joins the league the sweep opened
            await self.service.leagues.join(table.guild_id, Caller(5, args[0]), "Cup")
        else:
            await s.looking.board(table, args[0])


def fuzz(total: int, where: Target | None = None) -> Counter:
    """Feed the sweep, then random inputs up to ``total``, to a fresh rig (on a new SQLite
    file, or on the PostgreSQL database ``where``); count outcomes."""
    tally: Counter = Counter()
    failures: list[str] = []
    items = sweep()
    with tempfile.TemporaryDirectory() as folder:
        rig = Rig(Path(folder), where)

        def feed(item: tuple) -> None:
            tally["tried"] += 1
            try:
                tally[rig.feed(item)] += 1
            except Exception as exc:
                tally["broken" if isinstance(exc, AssertionError) else "unhandled"] += 1
                if len(failures) < 5:
                    failures.append(f"{item!r:.300}\n{traceback.format_exc(limit=4)}")

        @settings(
            max_examples=max(1, total - len(items)),
            database=None,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(INPUTS)
        def generate(item: tuple) -> None:
            feed(item)

        try:
            for item in items:
                feed(item)
            generate()
        finally:
            rig.close()
    for failure in failures:
        print(failure, file=sys.stderr)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=20_000, help="how many to try in all")
    parser.add_argument("--db", help="an empty PostgreSQL database's URL (default: SQLite)")
    args = parser.parse_args(argv)
    tally = fuzz(args.inputs, args.db)
    print(
        f"fuzzed inputs: {tally['tried']} tried, {tally[REFUSED]} refused, "
        f"{tally[ACCEPTED]} accepted, {tally['unhandled']} unhandled, "
        f"{tally['broken']} broke a rule (a refusal that changed the database, a bad value "
        "stored, a fault reported as a duplicate)"
    )
    return 1 if tally["unhandled"] or tally["broken"] else 0


if __name__ == "__main__":
    sys.exit(main())
