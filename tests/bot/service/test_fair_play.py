"""Fair play in rated games: nobody bends a game they are playing in.

A game's creator used to be able to hand an opponent's seat to their own second account
(which then resigned), to push their own deadline out without end, and to call off a rated
game they were losing. Each rule here is tested for the wrong person (refused, with the
reason, and nothing in the database changed) and for the right one (done, and said in
public). Real service, real SQLite file.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.clocks import Clocks
from bot.service import Caller, Refused, Service
from bot.store import SQLiteStore, StaleGame, parse_time
from tests.conftest import ADA, BOB, CY, DEE, TABLE

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
MOD = Caller(1099, "Mod", manager=True)  # a server manager with no seat
ADA_ALT = Caller(1066, "Ada's alt")  # a second account of the creator's
ADA_MOD = Caller(ADA.user_id, ADA.name, manager=True)  # Ada, if she managed the server


@pytest.fixture
async def service(tmp_path):
    """Ada opens every game here, and with this seed Ada moves first."""
    store = await SQLiteStore.open(tmp_path / "fair.db", clock=lambda: T0)
    yield Service(store, images=False, seed=lambda: 12345)
    await store.close()


async def start(service: Service, *, rated: bool = True, hours: float | None = 24) -> None:
    await service.lobby.create(
        TABLE, ADA, "skybridge", clocks=Clocks(move_hours=hours), rated=rated
    )
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)


async def play(service: Service, *players: Caller) -> None:
    """Each player in turn plays their first legal move."""
    for player in players:
        await service.play.move(TABLE, player, (await service.play.legal_moves(TABLE, player))[0])


async def everything(service: Service) -> dict[str, list[tuple]]:
    """Every row a refused request could have touched."""
    tables = ("games", "seats", "moves", "ratings", "outbox")
    async with service.store.transaction() as db:
        return {
            t: [tuple(r) for r in await db.execute_fetchall(f"SELECT * FROM {t}")] for t in tables
        }


async def refused(service: Service, request, *words: str) -> None:
    """``request`` is refused with a sentence holding ``words``, and nothing changes."""
    before = await everything(service)
    with pytest.raises(Refused) as caught:
        await request
    for word in words:
        assert word in str(caught.value)
    assert await everything(service) == before


async def seated(service: Service) -> list[int]:
    return [s.user_id for s in await service.store.seats(1)]


async def deadline(service: Service, player: Caller) -> datetime:
    seat = next(s for s in await service.store.seats(1) if s.user_id == player.user_id)
    return parse_time(seat.deadline)


# -- replacing a seat ----------------------------------------------------------------------


async def test_the_creator_cannot_hand_an_opponents_seat_to_a_second_account(service):
    """The griefing seen: Ada gives Bob's seat to her alt, which resigns, and she wins."""
    await start(service)
    for creator in (ADA, ADA_MOD):  # not even a creator who manages the server
        await refused(
            service,
            service.postal.replace_player(TABLE, creator, BOB.user_id, ADA_ALT),
            "a seat is its player's",
            "server manager who is not playing",
        )
    await play(service, ADA, BOB)
    await refused(
        service, service.postal.replace_player(TABLE, ADA, BOB.user_id, ADA_ALT), "its player's"
    )
    await refused(service, service.play.resign(TABLE, ADA_ALT), "not playing")
    assert await seated(service) == [ADA.user_id, BOB.user_id]
    assert await service.store.ratings(TABLE.guild_id, "skybridge") == []


async def test_a_player_may_hand_on_their_own_seat_and_a_manager_any_seat(service):
    await start(service)
    await play(service, ADA)  # Bob has not moved: nothing is at stake yet
    mine = await service.postal.replace_player(TABLE, BOB, BOB.user_id, CY)
    assert not mine.private and mine.text == "Cy takes over seat 2 from Bob."
    assert mine.mentions == (CY.user_id,) and mine.changed == (1,)
    await refused(
        service, service.postal.replace_player(TABLE, MOD, CY.user_id, ADA), "already has"
    )
    by_mod = await service.postal.replace_player(TABLE, MOD, CY.user_id, DEE)
    assert not by_mod.private
    assert by_mod.text == "Dee takes over seat 2 from Cy. Mod made the change."
    assert await seated(service) == [ADA.user_id, DEE.user_id]


async def test_once_every_player_moved_a_rated_seat_is_handed_on_only_by_a_manager(service):
    """A loser handing their seat to a spare account would pass the loss to it."""
    await start(service)
    await play(service, ADA, BOB)
    await refused(
        service,
        service.postal.replace_player(TABLE, BOB, BOB.user_id, CY),
        "rated game is under way",
        "/game resign",
        "server manager who is not playing",
    )
    await service.postal.replace_player(TABLE, MOD, BOB.user_id, CY)
    assert await seated(service) == [ADA.user_id, CY.user_id]


async def test_in_a_casual_game_a_player_hands_on_their_seat_at_any_time(service):
    await start(service, rated=False)
    await play(service, ADA, BOB)
    await service.postal.replace_player(TABLE, BOB, BOB.user_id, CY)
    assert await seated(service) == [ADA.user_id, CY.user_id]


async def test_before_the_start_the_creator_still_fills_the_lobby(service):
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await refused(
        service, service.postal.replace_player(TABLE, CY, BOB.user_id, DEE), "Only the player"
    )
    swapped = await service.postal.replace_player(TABLE, ADA, BOB.user_id, CY)
    assert swapped.text == "Cy takes over seat 2 from Bob. Ada made the change."
    assert await seated(service) == [ADA.user_id, CY.user_id]


# -- extending a deadline ------------------------------------------------------------------


async def test_nobody_extends_their_own_clock(service):
    await start(service)  # Ada's turn, and her game
    for me in (ADA, ADA_MOD):
        await refused(
            service, service.postal.extend(TABLE, me, 24), "Nobody can extend their own clock"
        )
    given = await service.postal.extend(TABLE, MOD, 24)
    assert not given.private and given.text.startswith("Mod gave Ada 24 hours more: due ")
    assert await deadline(service, ADA) == T0 + timedelta(hours=48)
    await play(service, ADA)
    await service.postal.extend(TABLE, ADA, 24)  # Bob's turn: his opponent may give him time
    assert await deadline(service, BOB) == T0 + timedelta(hours=48)


async def test_one_turn_gets_at_most_seven_days_more_however_often_asked(service):
    """The griefing seen: 50 extensions of 60 days each were accepted."""
    await start(service)
    for _ in range(50):
        await refused(
            service,
            service.postal.extend(TABLE, MOD, 24 * 60),
            "`by:60 days` is too much",
            "at most 7 days more",
            "this turn has had none yet",
        )
    for _ in range(7):
        await service.postal.extend(TABLE, MOD, 24)
    await refused(service, service.postal.extend(TABLE, MOD, 1), "has had 7 days already")
    assert await deadline(service, ADA) == T0 + timedelta(days=8)
    await play(service, ADA)  # a new turn starts with no extension
    await service.postal.extend(TABLE, MOD, 24 * 7)
    assert await deadline(service, BOB) == T0 + timedelta(days=8)


async def test_a_long_time_per_move_allows_as_long_an_extension(service):
    await start(service, hours=24 * 30)
    await service.postal.extend(TABLE, MOD, 24 * 30)
    await refused(service, service.postal.extend(TABLE, MOD, 1), "at most 30 days more")
    assert await deadline(service, ADA) == T0 + timedelta(days=60)


async def test_an_extension_meant_for_a_turn_that_just_ended_is_not_given(service):
    """A creator's `/game extend` for Bob, racing Bob's move, must not land on the turn
    that follows, which is the creator's own."""
    await start(service)
    await play(service, ADA)
    bobs_turn = (await service.store.game(1)).version
    await play(service, BOB)
    before = await everything(service)
    with pytest.raises(StaleGame):
        await service.store.extend_turn(1, bobs_turn, 24, 24 * 7)
    assert await everything(service) == before


# -- abandoning ----------------------------------------------------------------------------


async def test_the_creator_cannot_abandon_a_rated_game_under_way(service):
    """The griefing seen: calling off a rated game one is losing, with no rating effect.
    Before every player has moved, or in a casual game, the creator still may."""
    await start(service)
    await play(service, ADA, BOB)
    for player in (ADA, ADA_MOD, BOB):
        await refused(
            service,
            service.lobby.abandon(TABLE, player),
            "rated game is under way",
            "`/game resign` (a loss for you alone)",
            "server manager who is not playing",
        )
    gone = await service.lobby.abandon(TABLE, MOD)
    assert not gone.private and gone.text == "Mod abandoned the game of Skybridge."
    assert await service.store.ratings(TABLE.guild_id, "skybridge") == []

    await start(service)
    await play(service, ADA)  # Bob never moved: Ada is not stuck with a game he left
    await service.lobby.abandon(TABLE, ADA)
    await start(service, rated=False)
    await play(service, ADA, BOB)
    await service.lobby.abandon(TABLE, ADA)
    assert [(await service.store.game(n)).status for n in (1, 2, 3)] == ["abandoned"] * 3


async def test_a_league_match_seat_is_handed_on_only_by_a_manager(service):
    """The league's pairings name its members: a player cannot send in a stand-in, and
    the match's first player (its creator) cannot swap the opponent either."""
    await service.leagues.create(TABLE, MOD, "Cup", "skybridge", "swiss", rounds=1)
    for player in (ADA, BOB):
        await service.leagues.join(TABLE.guild_id, player, "Cup")
    posted = await service.league_rounds.start(TABLE.guild_id, MOD, "Cup")
    (match,) = [p.table for p in posted if p.reply.playable]
    row = await service.store.live_game(match.channel_id)
    first, second = [Caller(s.user_id, s.name) for s in await service.store.seats(row.id)]
    for caller, seat in ((first, first), (first, second), (second, second)):
        await refused(
            service,
            service.postal.replace_player(match, caller, seat.user_id, CY),
            "league match",
            "server manager who is not playing",
        )
    await service.postal.replace_player(match, MOD, second.user_id, CY)
    assert [s.user_id for s in await service.store.seats(row.id)] == [first.user_id, CY.user_id]
