"""Resigning belongs to every game (the engine core's ``resign``): Seven Bridges alone,
in the daily challenge and with others, through the service, on Discord, in the terminal
and at a ``forfeit`` deadline; and every ``at_deadline`` choice is checked against what
the game can play, refused privately naming the choice and the game."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain.clocks import Clocks
from bot.service import Refused, Service
from bot.store import SQLiteStore
from tests.bot.discord.discord_harness import DM_CHANNEL_ID, Harness
from tests.conftest import ADA, BOB, CY, TABLE, Clock, run_bot

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
async def world(tmp_path):
    clock = Clock(T0)
    store = await SQLiteStore.open(tmp_path / "resign.db", clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    yield service, clock
    await store.close()


async def awaited(service: Service) -> list:
    _game, seats = await service.store.seated_live_game(TABLE.channel_id)
    return [s.user_id for s in seats if s.awaiting]


async def test_seven_bridges_with_others_the_one_who_resigns_is_out_and_finishes_last(world):
    service, _ = world
    await service.lobby.create(TABLE, ADA, "seven-bridges", {"start": "ii-2-3"})
    for player in (BOB, CY):
        await service.lobby.join(TABLE, player)
    await service.lobby.start(TABLE, ADA)
    said = await service.play.resign(TABLE, BOB)
    assert "Bob resigned." in said.text and "Game over" not in said.text
    with pytest.raises(Refused, match="You have already resigned."):
        await service.play.resign(TABLE, BOB)
    players = {p.user_id: p for p in (ADA, CY)}
    while await service.looking.is_live(TABLE):
        (user,) = await awaited(service)
        assert user != BOB.user_id, "nobody waits for a player who resigned"
        mover = players[user]
        final = await service.play.move(
            TABLE, mover, (await service.play.legal_moves(TABLE, mover))[0]
        )
    assert "**Game over.**" in final.text
    assert final.text.split("**Game over.**\n")[1].splitlines()[2].startswith("3rd Bob")
    seats = await service.store.seats(1)
    assert [s.place for s in seats if s.user_id == BOB.user_id] == [3]


async def test_seven_bridges_alone_resigning_is_a_loss_against_euler(world):
    service, _ = world
    await service.lobby.solo(TABLE, ADA, "seven-bridges", {"start": "ii-2-3"})
    final = await service.play.resign(TABLE, ADA)
    assert "Ada resigned." in final.text and "**Game over.**\n2nd Ada" in final.text
    assert "you resigned" in final.text and final.rematch
    assert not await service.looking.is_live(TABLE)


async def test_resigning_the_daily_challenge_records_the_attempt_as_a_loss(tmp_path):
    store = await SQLiteStore.open(tmp_path / "daily.db", clock=Clock(T0))
    try:
        service = Service(store, images=False)
        daily = service.daily
        dm = TABLE.__class__(channel_id=900_000 + ADA.user_id)
        await daily.play(dm, ADA, None)
        # the day's secret is new with each database: its first square may ask a bonus
        # choice before the first roll, so the first move is whatever is legal then
        await service.play.move(dm, ADA, (await service.play.legal_moves(dm, ADA))[0])
        await service.play.resign(dm, ADA)
        (entry,) = await store.entries(user_id=ADA.user_id)
        assert entry.status == "lost" and entry.total is not None and entry.euler is not None
        with pytest.raises(Refused, match=r"played today's challenge \(lost\)"):
            await daily.play(dm, ADA, None)
    finally:
        await store.close()


async def test_a_forfeit_deadline_resigns_a_seven_bridges_player(world):
    service, clock = world
    clocks = Clocks(move_hours=24, policy="forfeit")
    opened = await service.lobby.create(
        TABLE, ADA, "seven-bridges", {"start": "ii-2-3"}, clocks=clocks
    )
    assert "then the game plays their resignation" in opened.text
    for player in (BOB, CY):
        await service.lobby.join(TABLE, player)
    await service.lobby.start(TABLE, ADA)
    (late,) = await awaited(service)
    name = {p.user_id: p.name for p in (ADA, BOB, CY)}[late]
    scheduler = service.timers
    clock.at(hours=18)
    await scheduler.tick()  # the warning
    clock.at(hours=24)
    (item,) = await scheduler.tick()
    assert f"{name} ran out of time: the game played their resignation." in item.reply.text
    assert f"{name} resigned." in item.reply.text
    assert late not in await awaited(service) and await service.looking.is_live(TABLE)


@pytest.mark.parametrize("game", ["seven-bridges", "bridge-wars", "seven-cities"])
async def test_at_deadline_skip_is_refused_naming_it_and_the_game(world, game):
    service, _ = world
    with pytest.raises(Refused) as refused:
        await service.lobby.create(TABLE, ADA, game, clocks=Clocks(move_hours=24, policy="skip"))
    name = {"seven-bridges": "Seven Bridges", "bridge-wars": "Bridge Wars"}.get(game, "Battle")
    assert str(refused.value).startswith(f"at_deadline: skip is not open to {name}")
    assert str(refused.value).endswith("choose random or forfeit.")
    assert not await service.looking.is_live(TABLE), "nothing was opened"


async def test_on_discord_seven_bridges_is_resigned_and_skip_refused_privately(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        refused = (
            await h.slash(
                "game",
                "new",
                game="seven-bridges",
                time_per_move="1d",
                at_deadline="skip",
                user=ADA,
            )
        ).one
        assert refused.ephemeral and not refused.pinged
        assert "at_deadline: skip is not open to Seven Bridges" in refused.text
        await h.slash("solo", start="ii-2-3", user=ADA, channel=DM_CHANNEL_ID)
        final = (await h.slash("game", "resign", user=ADA, channel=DM_CHANNEL_ID)).public[0]
        assert "Ada resigned." in final.text and "2nd Ada" in final.text
        assert any(c.startswith("bk:again:") for c in final.custom_ids)


def test_in_the_terminal_seven_bridges_is_resigned_and_skip_refused(tmp_path):
    script = "\n".join(
        [
            "ada: /new bridges-and-boats time_per_move=1d at_deadline=skip",
            "ada: /solo seven-bridges start=ii-2-3",
            "ada: /resign",
        ]
    )
    done = run_bot("console", "--db", "t.db", "--images", "pics", cwd=tmp_path, stdin=script)
    lines = done.stdout.splitlines()
    assert "(only ada sees this) at_deadline: skip is not open to Bridges and Boats" in lines[0]
    assert "ada resigned." in done.stdout and "2nd ada" in done.stdout
    assert "can't read 'resign'" not in done.stdout
