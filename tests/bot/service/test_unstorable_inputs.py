"""Input that used to crash instead of being refused, found by fuzzing on PostgreSQL as
well as SQLite: a Discord timestamp outside the years 1-9999, a NUL or a lone surrogate in
a name, a turn that is no moment. Each is refused privately, saying what is wrong, and
changes nothing, on both stores alike (SQLite would keep a NUL; PostgreSQL cannot)."""

from __future__ import annotations

import io

import pytest

from bot.service import Caller, Refused, Service, Table
from bot.terminal.session import Console
from tests.bot.discord.discord_harness import Harness
from tests.bot.discord.test_commands import assert_refused
from tests.conftest import ADA, BOB, TABLE

MO = Caller(1009, "Mo", manager=True)
UNKEEPABLE = [("a\0da", "U+0000"), ("b\ud800b", "U+D800")]


async def counts(store) -> tuple[int, ...]:
    """Rows of every table a refusal here could have written to."""
    tables = ("games", "seats", "leagues", "league_members")
    found = []
    for table in tables:
        (count,) = (await store.rows(f"SELECT COUNT(*) FROM {table}"))[0]
        found.append(count)
    return tuple(found)


@pytest.mark.parametrize(("name", "code"), UNKEEPABLE, ids=["nul", "surrogate"])
async def test_a_name_no_database_can_keep_is_refused_alike_on_both_stores(open_store, name, code):
    store = await open_store()
    service = Service(store, images=False, seed=lambda: 7)
    odd = Caller(1005, name)
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.leagues.create(TABLE, MO, "Cup", "skybridge", "swiss")
    before = await counts(store)
    told = f"holds a character that can't be stored ({code}); please leave it out."
    asks = {
        "Your name": (
            lambda: service.lobby.join(TABLE, odd),
            lambda: service.leagues.join(TABLE.guild_id, odd, "Cup"),
            lambda: service.lobby.create(Table(5099, TABLE.guild_id), odd, "skybridge"),
        ),
        "The new player's name": (
            lambda: service.postal.replace_player(TABLE, ADA, BOB.user_id, odd),
        ),
        "A league's name": (
            lambda: service.leagues.create(TABLE, MO, f"Cup {name}", "skybridge", "swiss"),
            lambda: service.leagues.join(TABLE.guild_id, BOB, f"Cup {name}"),
            lambda: service.league_tables.standings(TABLE.guild_id, name),
        ),
    }
    for what, calls in asks.items():
        for call in calls:
            with pytest.raises(Refused) as refused:
                await call()
            assert str(refused.value) == f"{what} {told}"
    assert await counts(store) == before


async def test_a_snooze_that_names_no_moment_is_refused_on_both_stores(open_store):
    store = await open_store()
    service = Service(store, images=False, seed=lambda: 7)
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    game_id = (await service.lobby.start(TABLE, ADA)).game_id
    for turn in ("0", "-0", "soon", "\ud800", "0001-01-01T00:00:00+14:00", "9" * 40):
        with pytest.raises(Refused, match="^That Snooze button names no turn I know"):
            await service.postal.snooze_turn(game_id, BOB, turn)


async def test_a_discord_timestamp_past_the_year_9999_is_refused_as_a_league_start(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        for stamp in ("<t:999999999999>", "<t:-999999999999>"):
            refused = await h.slash(
                "league", "create", name="Cup", game="skybridge", format="swiss",
                starts=stamp, user=MO,
            )  # fmt: skip
            assert_refused(refused, "starts must be in the future and at most 365 days away")
        assert await h.store.rows("SELECT id FROM leagues") == []


async def test_a_snooze_button_whose_turn_lies_past_the_year_9999_is_refused(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        await h.slash("game", "new", game="skybridge", user=ADA)
        await h.slash("game", "join", user=BOB)
        await h.slash("game", "start", user=ADA)
        clicked = await h.click("bk:snooze:1:999999999999999999", user=BOB)
        assert_refused(clicked, "That Snooze button names no turn I know")


async def test_the_terminal_prints_a_typed_moment_no_calendar_holds_as_typed(store, tmp_path):
    out = io.StringIO()
    console = Console(Service(store, images=False), tmp_path / "boards", out)
    await console.handle("ada: /league join {t:999999999999:R}")
    await console.handle("ada: /turns")  # and goes on
    said = out.getvalue()
    assert "There is no league called '{t:999999999999:R}'" in said
    assert "No game is waiting for you." in said
