"""After the game: a summary of how it went, and the same players again once all agree,
the loser first; through the service on both stores and through the fake Discord's
Rematch button (a bot process killed after each commit of a rematch is
tests/bot/store/test_crash_points.py's "rematch").

A rematch is agreed once, for one new game: the old button then only says where it
went; a click refused for a busy channel notes nothing; the first ask pings the others
once, and asking again is answered privately."""

from __future__ import annotations

import json

import pytest

from bot.domain.clocks import Clocks
from bot.service import Refused, Service, Table
from bot.service.marks import for_discord
from bot.store import Rematch, open_store
from bot.store.backends import POSTGRES, backend
from bot.store.migrations import migrations
from bot.store.sqlite.units import apply_migration
from tests.bot.discord.discord_harness import Harness
from tests.conftest import ADA, BOB, CY, TABLE


@pytest.fixture
async def either(open_store):
    """The service over a fresh store of each kind in turn: SQLite, then PostgreSQL."""
    store = await open_store()
    return Service(store, images=False, seed=lambda: 12345)


async def finished(service, players=(ADA, BOB), resigners=(BOB,), table=TABLE) -> object:
    """A Skybridge game with a clock, ended by ``resigners`` after one move: its final reply."""
    await service.lobby.create(table, players[0], "skybridge", clocks=Clocks(move_hours=48))
    for player in players[1:]:
        await service.lobby.join(table, player)
    awaited = (await service.lobby.start(table, players[0])).awaiting
    mover = next(p for p in players if p.user_id in awaited)
    await service.play.move(table, mover, (await service.play.legal_moves(table, mover))[0])
    for resigner in resigners:
        final = await service.play.resign(table, resigner)
    return final


async def test_the_final_board_says_how_long_it_took_and_offers_a_rematch(service):
    final = await finished(service)
    assert final.rematch and not final.playable
    assert "**Game over.**" in final.text
    assert final.text.endswith("Played in 1 move, in less than a day.")


async def test_a_rematch_starts_when_every_player_agrees_the_loser_first(service):
    await finished(service, (ADA, BOB, CY), resigners=(CY, BOB))
    asked = await service.rematch.agree(TABLE, ADA)
    said = "Ada wants a rematch. It starts when Bob, Cy click **Rematch** too."
    assert for_discord(asked.text) == said
    assert asked.mentions == (BOB.user_id, CY.user_id), "the others are pinged, once"
    assert not await service.looking.is_live(TABLE), "nothing opens until all agree"
    with pytest.raises(Refused, match=r"^You have already asked; waiting for Bob, Cy\.$"):
        await service.rematch.agree(TABLE, ADA)
    with pytest.raises(Refused, match="Only the game's players"):
        await service.rematch.agree(TABLE, type(ADA)(1099, "Zed"))
    also = await service.rematch.agree(TABLE, BOB)
    said = "Bob wants a rematch too. It starts when Cy clicks **Rematch**."
    assert for_discord(also.text) == said
    assert also.mentions == (), "Cy was pinged already"
    started = await service.rematch.agree(TABLE, CY)
    assert started.text.startswith("**Rematch!** **Skybridge** begins.") and started.playable
    new = await service.store.live_game(TABLE.channel_id)
    seats = [s.name for s in await service.store.seats(new.id)]
    assert seats == ["Bob", "Cy", "Ada"], "the last placed first (Bob and Cy tie), the winner last"
    assert (await service.store.clocks(new.id)).move_hours == 48, "the same clocks"
    with pytest.raises(Refused, match="Only a finished game can be played again"):
        await service.rematch.agree(TABLE, ADA)


async def test_the_rematch_button_on_discord(tmp_path):
    """The ask is a plain message that pings (a card's ping would reach a phone empty);
    asking again is answered privately, posting nothing; once the rematch is open, the
    old button says where it went."""
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        await h.slash("game", "new", game="skybridge", user=ADA)
        await h.slash("game", "join", user=BOB)
        await h.slash("game", "start", user=ADA)
        final = (await h.slash("game", "resign", user=BOB)).public[0]
        (button,) = [c for c in final.custom_ids if c.startswith("bk:again:")]
        (asked,) = (await h.click(button, user=BOB)).public
        assert asked.card is None and not asked.files, "a plain message: its push has words"
        assert asked.text.startswith("Bob wants a rematch. It starts when Ada clicks")
        assert asked.pinged == {ADA.user_id}
        again = await h.click(button, user=BOB)
        assert again.public == [], "asking again posts nothing"
        assert again.one.ephemeral and "You have already asked; waiting for Ada." in again.one.text
        started = (await h.click(button, user=ADA)).board
        assert started.text.startswith("**Rematch!**") and started.images
        assert any(c.startswith("bk:play:") for c in started.custom_ids)
        assert [s.name for s in await h.store.seats(2)][0] == "Bob", "the loser first"
        old = (await h.click(button, user=BOB)).one
        assert old.ephemeral and "rematch has already been opened (#2)" in old.text
        assert await h.store.count_games() == 2


async def test_the_ask_names_who_is_left_and_pings_them_once(either):
    await finished(either)
    asked = await either.rematch.agree(TABLE, BOB)
    said = "Bob wants a rematch. It starts when Ada clicks **Rematch** too."
    assert for_discord(asked.text) == said
    assert asked.mentions == (ADA.user_id,) and asked.rematch and not asked.private
    for _ in range(2):
        with pytest.raises(Refused, match=r"^You have already asked; waiting for Ada\.$"):
            await either.rematch.agree(TABLE, BOB)
    assert (await either.store.rematch(1)).agreed == {BOB.user_id}


async def test_an_old_rematch_button_never_opens_a_second_game(either):
    """Today's defect: once the rematch had been played, one click on the first game's
    button opened a new rated game at once, the other player's clock running."""
    store = either.store
    await finished(either)
    await either.rematch.agree(TABLE, ADA)
    started = await either.rematch.agree(TABLE, BOB)
    assert started.text.startswith("**Rematch!** **Skybridge** begins.")
    new = await store.live_game(TABLE.channel_id)
    assert (await store.rematch(1)).opened == new.id
    with pytest.raises(
        Refused, match=rf"^This game's rematch has already been opened \(#{new.id}\)\.$"
    ):
        await either.rematch.agree(TABLE, ADA, 1)
    await either.play.resign(TABLE, ADA)  # the rematch is played out
    for player in (ADA, BOB):
        with pytest.raises(Refused, match=rf"already been played \(#{new.id}\)\.$"):
            await either.rematch.agree(TABLE, player, 1)
    assert not await either.looking.is_live(TABLE) and await store.count_games() == 2
    asked = await either.rematch.agree(TABLE, BOB, new.id)  # the rematch's own button asks afresh
    assert asked.text.startswith("Bob wants a rematch.") and not await either.looking.is_live(TABLE)


async def test_a_click_refused_for_a_busy_channel_notes_nothing(either):
    """Today's defect: the refused click was noted, so a later single click opened it."""
    await finished(either)
    await either.rematch.agree(TABLE, ADA)
    await either.lobby.create(TABLE, CY, "bridge-wars")  # the channel is busy again
    with pytest.raises(Refused, match="has a game going already"):
        await either.rematch.agree(TABLE, BOB, 1)
    assert (await either.store.rematch(1)).agreed == {ADA.user_id}, "nothing was noted"
    await either.lobby.abandon(TABLE, CY)
    with pytest.raises(Refused, match="You have already asked; waiting for Bob"):
        await either.rematch.agree(TABLE, ADA, 1)
    assert not await either.looking.is_live(TABLE), "one click does not open it"
    started = await either.rematch.agree(TABLE, BOB, 1)
    assert started.text.startswith("**Rematch!**") and started.playable


async def test_a_rematch_with_an_ai_opens_on_the_one_persons_click(either):
    await either.lobby.create(TABLE, ADA, "skybridge", ai=1)
    await either.lobby.start(TABLE, ADA)
    await either.play.resign(TABLE, ADA)
    started = await either.rematch.agree(TABLE, ADA)
    assert started.text.startswith("**Rematch!** **Skybridge** begins. Seats: 1. Ada")
    seats = await either.store.seats(2)
    assert [s.ai is None for s in seats] == [True, False], "the person opens it, the AI after"


async def test_agreements_an_older_version_used_up_are_dropped_and_waiting_ones_kept(database):
    """Migration 0021 (PostgreSQL's 0007): an agreement every person had given was used up
    by the rematch it opened, unrecorded; one still waiting for somebody stays."""
    # a SQLite file is made at the version before; a PostgreSQL database comes migrated
    # from the session's template, so it is taken back to before 0007
    store = await open_store(database, migrate_to=None if backend(database) is POSTGRES else 19)
    try:
        if backend(database) is POSTGRES:
            await store.execute("ALTER TABLE rematches DROP COLUMN opened")
            await store.execute("DELETE FROM schema_migrations WHERE number = 7")
        else:  # today's service stores each state's checksum (0026): the games below need it
            (checksums,) = [m for m in migrations() if m.number == 26]
            await store.write(apply_migration, checksums, store.now())
        service = Service(store, images=False, seed=lambda: 12345)
        await finished(service)
        await finished(service, table=Table(channel_id=5002, guild_id=TABLE.guild_id))
        for game_id, agreed in ((1, [ADA.user_id, BOB.user_id]), (2, [BOB.user_id])):
            await store.execute(
                "INSERT INTO rematches (game_id, agreed, created_at) VALUES "
                f"({game_id}, '{json.dumps(agreed)}', '2026-11-02T12:00:00+00:00')"
            )
    finally:
        await store.close()
    store = await open_store(database)
    try:
        assert await store.rematch(1) == Rematch(), "used up: one click must not open it"
        assert await store.rematch(2) == Rematch(frozenset({BOB.user_id}))
    finally:
        await store.close()
