"""Typed values checked where they are parsed: durations, counts, dates, time zones.

Each bad value found by fuzzing the bot (a zero clock that forfeits on the next tick,
``nan`` read as "this channel already has a game", ``1e308`` crashing a league, a
10,000-character time zone) is refused here with a sentence naming the option, the
value and the range, and changes nothing; good values in every written form are taken.
"""

from __future__ import annotations

import io
import logging
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.clocks import Clocks
from bot.service import Refused, Service
from bot.service.inputs import (
    EXTEND_BY,
    REMIND_EVERY,
    TIME_PER_MOVE,
    format_hours,
    parse_hours,
    parse_start,
    parse_timezone,
)
from bot.store import SQLiteStore, StaleGame
from bot.terminal.commands import TABLE as CONSOLE_TABLE
from bot.terminal.session import Console
from tests.conftest import ADA, BOB, TABLE, Clock

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
MOD = ADA.__class__(1, "Mod", manager=True)


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
async def world(tmp_path, clock):
    store = await SQLiteStore.open(tmp_path / "inputs.db", clock=clock)
    yield Service(store, images=False, seed=lambda: 12345), tmp_path / "inputs.db"
    await store.close()


def dump(path) -> list[str]:
    """The database's whole logical content, read through a connection of its own."""
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


# -- durations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "hours"),
    [
        ("3d", 72),
        ("12h", 12),
        ("90m", 1.5),
        ("1w", 168),
        ("2 days", 48),
        ("1d 12h", 36),
        ("1.5h", 1.5),
        ("36", 36),  # a bare number is hours, as it always was
        (" 1 Week, 2 Hours ", 170),
        ("45 minutes", 0.75),
    ],
)
def test_every_usual_way_of_writing_a_duration_is_understood(typed, hours):
    assert parse_hours(typed, TIME_PER_MOVE) == pytest.approx(hours)


@pytest.mark.parametrize("typed", ["0", "0h", "30s", "61d", "9w", "10000000d", "0.001"])
def test_a_duration_out_of_range_names_option_range_and_value(typed):
    with pytest.raises(Refused) as refused:
        parse_hours(typed, TIME_PER_MOVE)
    assert str(refused.value) in (
        f"time_per_move must be between 1 minute and 60 days; `{typed}` is not.",
        f"time_per_move: `{typed}` is not a duration; write e.g. `3d`, `12h`, `90m` or `1w` "
        "(between 1 minute and 60 days).",
    )


@pytest.mark.parametrize(
    "typed", ["nan", "inf", "-inf", "1e308", "-1", "-1h", "", "3 fortnights", "1_0h", "٣h"]
)
def test_nan_infinity_exponents_and_negatives_are_not_durations(typed):
    with pytest.raises(Refused, match=r"^remind_every: `.*` is not a duration; .*between 1 hour"):
        parse_hours(typed, REMIND_EVERY)


def test_a_very_long_value_is_refused_and_quoted_short():
    with pytest.raises(Refused) as refused:
        parse_hours("1h " * 5000, EXTEND_BY)
    assert len(str(refused.value)) < 200 and "…" in str(refused.value)


@pytest.mark.parametrize(
    ("hours", "said"),
    [(1 / 60, "1 minute"), (1.5, "1.5 hours"), (0.75, "45 minutes"), (1, "1 hour"), (72, "3 days")],
)
def test_durations_are_written_as_people_say_them(hours, said):
    assert format_hours(hours) == said


# -- the service refuses what no front end should have let through ----------------------


@pytest.mark.parametrize(
    ("clocks", "named"),
    [
        (Clocks(move_hours=0, policy="forfeit"), "time_per_move"),
        (Clocks(move_hours=-1, policy="forfeit"), "time_per_move"),
        (Clocks(move_hours=float("inf")), "time_per_move"),
        (Clocks(move_hours=1e308), "time_per_move"),
        (Clocks(move_hours=float("nan")), "time_per_move"),
        (Clocks(remind_hours=0), "remind_every"),
        (Clocks(remind_hours=float("nan")), "remind_every"),
        (Clocks(reaction_hours=-5), "reaction_window"),
        (Clocks(reminder_limit=10**9), "reminder_limit"),
    ],
)
async def test_the_service_refuses_bad_clocks_from_any_front_end(world, clocks, named):
    service, path = world
    before = dump(path)
    with pytest.raises(Refused, match=rf"^{named} must be .*; `.*` is not\.$"):
        await service.lobby.create(TABLE, ADA, "skybridge", clocks=clocks)
    assert dump(path) == before


async def test_only_a_duplicate_channel_reads_as_a_game_already_there(world):
    """A NaN binds as NULL: the NOT NULL error it raises is a bug, not 'already a game'."""
    service, _ = world
    made = dict(guild_id=1, channel_id=7, game_key="skybridge", options={}, seed=1)
    with pytest.raises(sqlite3.IntegrityError, match="NOT NULL"):
        await service.store.create_game(
            **made, creator_id=1, creator_name="A", clocks=Clocks(remind_hours=float("nan"))
        )
    await service.store.create_game(**made, creator_id=1, creator_name="A")
    with pytest.raises(StaleGame):
        await service.store.create_game(**made, creator_id=2, creator_name="B")


async def test_extend_names_the_value_it_refuses(world):
    service, path = world
    await service.lobby.create(TABLE, ADA, "skybridge", clocks=Clocks(move_hours=24))
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    before = dump(path)
    for hours in (float("nan"), 0, -3, 1e308, 24 * 61):
        with pytest.raises(Refused, match=r"^by must be between 1 hour and 60 days; `"):
            await service.postal.extend(TABLE, MOD, hours)
    assert dump(path) == before


@pytest.mark.parametrize(
    "zone", ["A" * 10_000, "Europe/" + "x" * 300, "../../etc/passwd", "Europe/Berlin\0", "", " "]
)
async def test_a_time_zone_is_refused_by_name_and_never_raises_os_errors(world, zone):
    service, path = world
    before = dump(path)
    with pytest.raises(Refused, match="^timezone: `.*` is not a time zone I know"):
        await service.postal.settings(ADA, timezone=zone)
    assert dump(path) == before


def test_a_known_time_zone_is_kept_as_written():
    assert parse_timezone(" Europe/Berlin ") == "Europe/Berlin"


async def test_vacation_days_that_are_not_numbers_are_refused_by_value(world):
    service, _ = world
    with pytest.raises(Refused, match=r"days must be from 0 \(back early\) to 14; `nan` is not"):
        await service.postal.vacation(ADA, float("nan"))


# -- the scheduler and rows stored before values were checked ---------------------------


async def test_a_stored_zero_reminder_interval_reminds_hourly_instead_of_failing(
    world, clock, caplog
):
    service, _ = world
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    async with service.store.transaction() as db:  # as an older version could store it
        await db.execute("UPDATE games SET remind_hours = 0")
    scheduler = service.timers
    clock.now = T0 + timedelta(minutes=30)
    with caplog.at_level(logging.ERROR):
        assert await scheduler.tick() == []
        clock.now = T0 + timedelta(hours=2)
        await scheduler.tick()
        await scheduler.tick()
    assert not caplog.records, "a tick failed on the stored interval"
    async with service.store.transaction() as db:
        kinds = await db.execute_fetchall("SELECT kind FROM outbox")
    assert [k for (k,) in kinds] == ["reminder"], "one reminder after two hours, no burst"


# -- leagues ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "refusal"),
    [
        ("starts", "1e308", "starts: `1e308` is not a duration"),
        ("starts", "nan", "starts: `nan` is not a duration"),
        ("starts", "9999-12-31", "starts must be in the future and at most 365 days away"),
        ("starts", "2020-01-01", "starts must be in the future"),
        ("round_hours", -1, "round_time must be between 1 hour and 90 days; `-1` is not."),
        ("round_hours", 0, "round_time must be between 1 hour and 90 days; `0` is not."),
        ("move_hours", float("inf"), "move_time must be between 1 minute and 60 days"),
        ("rounds", 1_000_000_000, "rounds must be a whole number from 1 to 50"),
        ("points", "1000000/0", "points must be up to 6 numbers from 0 to 100"),
    ],
)
async def test_league_options_are_range_checked(world, option, value, refusal):
    service, path = world
    before = dump(path)
    with pytest.raises(Refused) as refused:
        await service.leagues.create(TABLE, MOD, "Cup", "skybridge", "swiss", **{option: value})
    assert refusal in str(refused.value)
    assert dump(path) == before


def test_a_league_start_may_be_a_date_or_a_delay():
    assert parse_start("2026-12-01 18:00", T0) == datetime(2026, 12, 1, 18, tzinfo=UTC)
    assert parse_start("2 days", T0) == T0 + timedelta(days=2)


@pytest.mark.parametrize(
    ("typed", "utc"),
    [
        ("2026-12-01 18:00", (2026, 12, 1, 17)),  # the organiser's zone: Berlin, winter
        ("2027-07-01 18:00", (2027, 7, 1, 16)),  # and summer
        ("2026-12-01 18:00 UTC", (2026, 12, 1, 18)),
        ("2026-12-01 18:00 utc-5", (2026, 12, 1, 23)),
        ("2026-12-01 18:00 GMT+05:30", (2026, 12, 1, 12, 30)),
        ("2026-12-01T18:00+01:00", (2026, 12, 1, 17)),
        ("2026-12-01 18:00Z", (2026, 12, 1, 18)),
        ("<t:1796148000>", (2026, 12, 1, 18)),  # pasted from Discord
        ("<t:1796148000:f>", (2026, 12, 1, 18)),
    ],
)
def test_a_league_start_is_read_in_the_organisers_zone_unless_it_names_one(typed, utc):
    assert parse_start(typed, T0, "Europe/Berlin") == datetime(*utc, tzinfo=UTC)


@pytest.mark.parametrize(
    "typed", ["next tuesday", "2026-12-01 18:00 UTC+15", "2026-12-01 18:00+01:00 UTC", "<t:x>"]
)
def test_a_league_start_nobody_can_read_names_every_form(typed):
    with pytest.raises(Refused) as refused:
        parse_start(typed, T0, "Asia/Tokyo")
    said = str(refused.value)
    assert said.startswith("starts: ") and "is not a duration or a date" in said
    for form in ("(Asia/Tokyo, from `/settings`)", "`2026-12-01 18:00+01:00`", "UTC-5", "<t:"):
        assert form in said


# -- the console takes the same options as Discord -------------------------------------


async def test_the_console_opens_games_with_a_clock_and_refuses_a_zero_one(world):
    service, path = world
    out = io.StringIO()
    console = Console(service, path.parent / "images", out)
    await console.handle("ada: /new skybridge time_per_move=0 at_deadline=forfeit")
    assert "time_per_move must be between 1 minute and 60 days; `0` is not." in out.getvalue()
    assert await service.store.live_game(CONSOLE_TABLE.channel_id) is None
    await console.handle(
        "ada: /new skybridge time_per_move=1w at_deadline=forfeit remind_every=90m"
    )
    assert "Time per move: 7 days; then the game plays their resignation" in out.getvalue()
    await console.handle("ada: /vacation 3")
    assert "paused for 3 days" in out.getvalue()
    assert console.refused == 1


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        ("round_time=-1", "round_time: `-1` is not a duration"),
        ("round_time=0", "round_time must be between 1 hour and 90 days; `0` is not."),
        ("move_time=inf", "move_time: `inf` is not a duration"),
    ],
)
async def test_the_console_reads_a_leagues_durations_before_the_organiser(world, typed, refusal):
    service, path = world
    out = io.StringIO()
    console = Console(service, path.parent / "images", out, managers=["mod"])
    await console.handle(f"mod: /league create name=Cup game=skybridge format=swiss {typed}")
    assert refusal in out.getvalue()
    assert console.refused == 1
    await console.handle("mod: /league create name=Cup game=skybridge format=swiss round_time=2d")
    assert "2 days per round" in out.getvalue()


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "-1", "1.5"])
async def test_the_console_refuses_a_move_number_it_cannot_read(world, typed):
    service, path = world
    out = io.StringIO()
    console = Console(service, path.parent / "images", out)
    await console.handle(f"ada: /board {typed}")
    assert "move must be a whole number from 0 to 1000000" in out.getvalue()
    assert console.refused == 1
