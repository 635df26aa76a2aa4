"""After the game: a summary of how it went, and the same players again once all agree,
the loser first; through the service, and through the fake Discord's Rematch button."""

from __future__ import annotations

import pytest

from bot.clocks import Clocks
from bot.marks import for_discord
from bot.service import Refused
from tests.bot.discord_harness import Harness
from tests.conftest import ADA, BOB, CY, TABLE


async def finished(service, players=(ADA, BOB), resigners=(BOB,)) -> object:
    """A Skybridge game with a clock, ended by ``resigners`` after one move: its final reply."""
    await service.create(TABLE, players[0], "skybridge", clocks=Clocks(move_hours=48))
    for player in players[1:]:
        await service.join(TABLE, player)
    awaited = (await service.start(TABLE, players[0])).awaiting
    mover = next(p for p in players if p.user_id in awaited)
    await service.move(TABLE, mover, (await service.legal_moves(TABLE, mover))[0])
    for resigner in resigners:
        final = await service.resign(TABLE, resigner)
    return final


async def test_the_final_board_says_how_long_it_took_and_offers_a_rematch(service):
    final = await finished(service)
    assert final.rematch and not final.playable
    assert "**Game over.**" in final.text
    assert final.text.endswith("Played in 1 move, in less than a day.")


async def test_a_rematch_starts_when_every_player_agrees_the_loser_first(service):
    await finished(service, (ADA, BOB, CY), resigners=(CY, BOB))
    asked = await service.rematch(TABLE, ADA)
    said = "Ada wants a rematch. It starts when Bob, Cy click **Rematch** too."
    assert for_discord(asked.text) == said
    assert not await service.is_live(TABLE), "nothing opens until all agree"
    again = await service.rematch(TABLE, ADA)  # asking twice counts once
    assert "Bob, Cy" in again.text
    with pytest.raises(Refused, match="Only the game's players"):
        await service.rematch(TABLE, type(ADA)(1099, "Zed"))
    await service.rematch(TABLE, BOB)
    started = await service.rematch(TABLE, CY)
    assert started.text.startswith("**Rematch!** **Skybridge** begins.") and started.playable
    new = await service.store.live_game(TABLE.channel_id)
    seats = [s.name for s in await service.store.seats(new.id)]
    assert seats == ["Bob", "Cy", "Ada"], "the last placed first (Bob and Cy tie), the winner last"
    assert (await service.store.clocks(new.id)).move_hours == 48, "the same clocks"
    with pytest.raises(Refused, match="Only a finished game can be played again"):
        await service.rematch(TABLE, ADA)


async def test_the_rematch_button_on_discord(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as h:
        await h.slash("game", "new", game="skybridge", user=ADA)
        await h.slash("game", "join", user=BOB)
        await h.slash("game", "start", user=ADA)
        final = (await h.slash("game", "resign", user=BOB)).public[0]
        (button,) = [c for c in final.custom_ids if c.startswith("bk:again:")]
        asked = (await h.click(button, user=BOB)).public[0]
        assert "Bob wants a rematch" in asked.text and "Ada" in asked.text
        started = (await h.click(button, user=ADA)).public[0]
        assert started.text.startswith("**Rematch!**") and started.images
        assert any(c.startswith("bk:play:") for c in started.custom_ids)
        assert [s.name for s in await h.store.seats(2)][0] == "Bob", "the loser first"
