"""The service layer over a real SQLite file: lobby, moves, races, take-backs, endings."""

from __future__ import annotations

import asyncio
import gc
import random
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.service import Caller, Refused, Reply, Service, Table, effective_moves
from bot.store import SQLiteStore
from tests.conftest import ADA, BOB, CY, DEE, PLAYERS, TABLE

SKY = engine.get("skybridge")
MOD = Caller(1099, "Mod", manager=True)
EVE = Caller(1005, "Eve")
OTHER = Table(channel_id=5002, guild_id=9001)
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
SEAT_COLOUR = {
    2: ("red", "blue"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


# -- helpers ---------------------------------------------------------------------------


async def open_game(service: Service, callers, table: Table = TABLE) -> Reply:
    await service.lobby.create(table, callers[0], "skybridge")
    for caller in callers[1:]:
        await service.lobby.join(table, caller)
    return await service.lobby.start(table, callers[0])


async def live(service: Service, table: Table = TABLE):
    row = await service.store.live_game(table.channel_id)
    assert row is not None
    return row


async def awaited(service: Service, table: Table = TABLE) -> Caller:
    """The one player the game waits for, read from the seats' awaiting flags."""
    row = await live(service, table)
    users = [s.user_id for s in await service.store.seats(row.id) if s.awaiting]
    assert len(users) == 1, users
    return next(c for c in (*PLAYERS, EVE) if c.user_id == users[0])


async def snapshot(service: Service, table: Table = TABLE):
    row = await service.store.latest_game(table.channel_id)
    return row, await service.store.moves(row.id), await service.store.seats(row.id)


async def refused(coro, *words: str) -> str:
    with pytest.raises(Refused) as caught:
        await coro
    message = str(caught.value)
    for word in words:
        assert word.lower() in message.lower(), message
    return message


def replay_log(row, log, players: int):
    standing = effective_moves(log)
    return SKY.replay(players, row.options, row.seed, [(m.seat, m.action) for m in standing])


async def play_out(service: Service, rnd: random.Random, table: Table = TABLE) -> Reply:
    reply = None
    while await service.store.live_game(table.channel_id) is not None:
        who = await awaited(service, table)
        moves = await service.play.legal_moves(table, who)
        assert moves
        reply = await service.play.move(table, who, rnd.choice(moves))
        assert reply.version == (await service.store.latest_game(table.channel_id)).version
    return reply


# -- lobby -----------------------------------------------------------------------------


async def test_no_game_here(service):
    await refused(service.lobby.join(TABLE, BOB), "no game here")
    await refused(service.lobby.start(TABLE, ADA), "no game here")
    await refused(service.play.move(TABLE, ADA, "red tall a1"), "no game here")
    await refused(service.lobby.leave(TABLE, BOB), "no game here")
    await refused(service.lobby.abandon(TABLE, ADA), "no game here")


async def test_unknown_game_key_lists_known_games(service):
    message = await refused(service.lobby.create(TABLE, ADA, "chess"), "chess")
    for key in engine.GAMES:
        assert key in message
    assert await service.store.live_game(TABLE.channel_id) is None


async def test_bad_options_are_refused(service):
    await refused(service.lobby.create(TABLE, ADA, "skybridge", {"speed": "blitz"}), "options")
    assert await service.store.count_games() == 0


async def test_channel_busy(service):
    reply = await service.lobby.create(TABLE, ADA, "skybridge")
    assert "Skybridge" in reply.text and reply.game_id
    await refused(service.lobby.create(TABLE, BOB, "skybridge"), "already has a game")
    await service.lobby.create(OTHER, BOB, "skybridge")  # another channel is free
    assert await service.store.count_games() == 2


async def test_join_twice_and_full_at_four(service):
    await service.lobby.create(TABLE, ADA, "skybridge")
    await refused(service.lobby.join(TABLE, ADA), "already in")
    reply = await service.lobby.join(TABLE, BOB)
    assert "Ada, Bob" in reply.text
    await refused(service.lobby.join(TABLE, BOB), "already in")
    await service.lobby.join(TABLE, CY)
    await service.lobby.join(TABLE, DEE)
    await refused(service.lobby.join(TABLE, EVE), "full", "4")
    row = await live(service)
    assert [s.user_id for s in await service.store.seats(row.id)] == [c.user_id for c in PLAYERS]


async def test_start_rules(service):
    await service.lobby.create(TABLE, ADA, "skybridge")
    await refused(service.lobby.start(TABLE, ADA), "at least 2")
    await service.lobby.join(TABLE, BOB)
    await refused(service.lobby.start(TABLE, BOB), "only the player who opened")
    assert (await live(service)).status == "lobby"
    reply = await service.lobby.start(TABLE, MOD)  # a server manager may start it
    assert "begins" in reply.text
    assert reply.playable and reply.mentions
    assert (await live(service)).status == "active"
    await refused(service.lobby.start(TABLE, ADA), "already started")


async def test_the_start_says_what_each_seat_plays_as(service):
    """A player learns their colours (or side) from the first board, not from /legal."""
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.join(TABLE, CY)
    reply = await service.lobby.start(TABLE, ADA)
    assert (
        "Seats: 1. Ada (red, with neutral green), 2. Bob (blue, with neutral green), "
        "3. Cy (yellow, with neutral green)." in reply.text
    )
    await service.lobby.create(OTHER, BOB, "bridges-and-boats")
    await service.lobby.join(OTHER, ADA)
    reply = await service.lobby.start(OTHER, BOB)
    assert "Seats: 1. Bob (attacker), 2. Ada (defender)." in reply.text


async def test_leave_rules(service):
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.join(TABLE, CY)
    await refused(service.lobby.leave(TABLE, ADA), "abandon")
    await refused(service.lobby.leave(TABLE, DEE), "not in this game")
    reply = await service.lobby.leave(TABLE, BOB)
    assert "Ada, Cy" in reply.text
    row = await live(service)
    assert [(s.seat, s.user_id) for s in await service.store.seats(row.id)] == [
        (0, ADA.user_id),
        (1, CY.user_id),
    ]
    await service.lobby.start(TABLE, ADA)
    await refused(service.lobby.join(TABLE, BOB), "already started")
    await refused(service.lobby.leave(TABLE, CY), "resign")


async def test_moves_before_start_are_refused(service):
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await refused(service.play.move(TABLE, ADA, "red tall a1"), "not started")
    await refused(service.play.resign(TABLE, ADA), "not started")


# -- whole games -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_whole_game_to_the_end(service, players):
    callers = PLAYERS[:players]
    start = await open_game(service, callers)
    game_id = start.game_id
    final = await play_out(service, random.Random(players))
    assert final is not None and "Game over" in final.text
    assert not final.playable and final.mentions == ()

    row, log, seats = await snapshot(service)
    assert row.id == game_id and row.status == "finished"
    state = replay_log(row, log, players)
    assert SKY.to_json(state) == row.state
    assert SKY.is_over(state)
    result = SKY.result(state)
    assert [(s.place, s.score) for s in seats] == list(
        zip(result.places, result.scores, strict=True)
    )
    assert not any(s.awaiting for s in seats)

    # the reply ranks every player, best first
    ranking = final.text.split("Game over.**", 1)[1].strip().splitlines()
    lines = [
        f"{ORDINAL[result.places[s]]} {callers[s].name} — {result.scores[s]}"
        for s in sorted(range(players), key=lambda s: (result.places[s], s))
    ]
    assert ranking[:players] == lines

    # the channel is free again
    await refused(service.play.move(TABLE, callers[0], "red tall a1"), "finished")
    reply = await service.lobby.create(TABLE, callers[-1], "skybridge")
    assert reply.game_id != game_id


# -- whose turn, and what is legal -----------------------------------------------------


async def test_only_the_awaited_player_may_move(service):
    await open_game(service, (ADA, BOB, CY))
    who = await awaited(service)
    before = await snapshot(service)
    for other in (ADA, BOB, CY):
        if other != who:
            await refused(service.play.move(TABLE, other, "red tall a1"), "not your turn", who.name)
            await refused(service.play.legal_moves(TABLE, other), "not your turn")
    await refused(service.play.move(TABLE, DEE, "red tall a1"), "not playing")
    await refused(service.play.legal_moves(TABLE, DEE), "not playing")
    assert await snapshot(service) == before


async def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(service):
    await open_game(service, (ADA, BOB))
    first = await awaited(service)
    seat_first = 0 if first == ADA else 1
    await service.play.move(TABLE, first, f"{SEAT_COLOUR[2][seat_first]} tall a1")
    second = await awaited(service)
    colour = SEAT_COLOUR[2][1 - seat_first]
    before = await snapshot(service)
    await refused(service.play.move(TABLE, second, f"{colour} tall a1"), "Lowest-tower rule", "a1")
    await refused(service.play.move(TABLE, second, f"{colour} bridge a1-b1"), "empty foundation")
    await refused(service.play.move(TABLE, second, f"{colour} bridge a1-b2"), "diagonal")
    await refused(service.play.move(TABLE, second, "hello there"), "can't read")
    await refused(
        service.play.move(TABLE, second, f"{SEAT_COLOUR[2][seat_first]} tall b1"), "don't play"
    )
    assert await snapshot(service) == before
    reply = await service.play.move(TABLE, second, f"{colour} tall b1")
    assert reply.version == before[0].version + 1
    assert len((await snapshot(service))[1]) == 2


async def test_stale_button_is_refused(service):
    start = await open_game(service, (ADA, BOB))
    assert start.game_id is not None and start.version is not None
    old = (start.game_id, start.version)
    assert (await live(service)).version == start.version
    who = await awaited(service)
    moves = await service.play.legal_moves(TABLE, who, expect=old)
    reply = await service.play.move(TABLE, who, moves[0], expect=old)
    nxt = await awaited(service)
    before = await snapshot(service)
    first = (await service.play.legal_moves(TABLE, nxt))[0]
    await refused(service.play.move(TABLE, nxt, first, expect=old), "moved on")
    await refused(service.play.legal_moves(TABLE, nxt, expect=old), "moved on")
    await refused(service.play.move(TABLE, nxt, "x", expect=(start.game_id + 1, reply.version)),
                  "moved on")  # fmt: skip
    assert await snapshot(service) == before
    fresh = (reply.game_id, reply.version)
    moves = await service.play.legal_moves(TABLE, nxt, expect=fresh)
    await service.play.move(TABLE, nxt, moves[0], expect=fresh)


# -- races -----------------------------------------------------------------------------


async def race(*coros):
    results = await asyncio.gather(*coros, return_exceptions=True)
    for r in results:
        assert isinstance(r, Reply | Refused), r
    return [r for r in results if isinstance(r, Reply)], [
        r for r in results if isinstance(r, Refused)
    ]


@pytest.mark.parametrize("same", [True, False], ids=["same-move", "different-moves"])
async def test_concurrent_moves_by_the_awaited_player_one_wins(service, same):
    await open_game(service, (ADA, BOB, CY))
    for _ in range(4):
        who = await awaited(service)
        moves = await service.play.legal_moves(TABLE, who)
        a, b = (moves[0], moves[0]) if same else (moves[0], moves[-1])
        count = len((await snapshot(service))[1])
        version = (await live(service)).version
        won, lost = await race(service.play.move(TABLE, who, a), service.play.move(TABLE, who, b))
        assert len(won) == 1 and len(lost) == 1
        log = (await snapshot(service))[1]
        assert len(log) == count + 1
        assert (await live(service)).version == version + 1
    row, log, _ = await snapshot(service)
    assert SKY.to_json(replay_log(row, log, 3)) == row.state


async def test_a_channel_keeps_its_lock_only_while_a_move_needs_it(service):
    """A bot runs for months over thousands of channels: quiet ones must cost nothing."""
    await open_game(service, (ADA, BOB))
    who = await awaited(service)
    moves = await service.play.legal_moves(TABLE, who)
    won, lost = await race(
        service.play.move(TABLE, who, moves[0]), service.play.move(TABLE, who, moves[0])
    )
    assert len(won) == 1 and len(lost) == 1  # while both waited, they shared one lock
    gc.collect()
    assert len(service.context._locks) == 0


async def test_two_processes_racing_one_wins(service, tmp_path):
    other_store = await SQLiteStore.open(tmp_path / "bridgekeeper.db")
    other = Service(other_store, images=False, seed=lambda: 12345)
    try:
        await open_game(service, (ADA, BOB))
        for i in range(6):
            who = await awaited(service)
            moves = await service.play.legal_moves(TABLE, who)
            count = len((await snapshot(service))[1])
            a, b = moves[0], moves[-1] if i % 2 else moves[0]
            won, lost = await race(service.play.move(TABLE, who, a), other.play.move(TABLE, who, b))
            assert len(won) == 1 and len(lost) == 1, lost
            assert len((await snapshot(service))[1]) == count + 1
        row, log, _ = await snapshot(service)
        assert len(log) == 6
        assert SKY.to_json(replay_log(row, log, 2)) == row.state
        assert (await other_store.game(row.id)).state == row.state
    finally:
        await other_store.close()


# -- take-backs ------------------------------------------------------------------------


async def test_mover_takes_back_alone_until_the_next_player_acts(service):
    start = await open_game(service, (ADA, BOB))
    row0 = await live(service)
    first = await awaited(service)
    second = BOB if first == ADA else ADA
    await refused(service.undo.ask(TABLE, second), "no move to take back")
    move = (await service.play.legal_moves(TABLE, first))[0]
    await service.play.move(TABLE, first, move)
    reply = await service.undo.ask(TABLE, first)
    assert "Taken back" in reply.text and move in reply.text
    row, log, _ = await snapshot(service)
    assert row.state == row0.state, "the board is back where it was"
    assert row.version == start.version + 2
    assert [(m.kind, m.action) for m in log] == [("move", move), ("undo", "1")]
    assert await awaited(service) == first


async def test_a_move_that_rolled_or_drew_cannot_be_taken_back_alone(service):
    """Seeing a die or the next domino and then taking the move back would let a player
    play around what chance brought: refused, while a move that drew nothing may go."""
    await service.lobby.solo(TABLE, ADA, "seven-bridges", {"start": "ii-2-3"})
    await service.play.move(TABLE, ADA, "roll")
    before = await snapshot(service)
    await refused(service.undo.ask(TABLE, ADA), "`roll` rolled or drew something", "cannot")
    assert await snapshot(service) == before
    pick = (await service.play.legal_moves(TABLE, ADA))[0]
    await service.play.move(TABLE, ADA, pick)
    assert "Taken back" in (await service.undo.ask(TABLE, ADA)).text

    await service.lobby.create(OTHER, ADA, "bridges-and-boats")
    await service.lobby.join(OTHER, BOB)
    await service.lobby.start(OTHER, ADA)
    attacker = await awaited(service, OTHER)
    await service.play.move(OTHER, attacker, "buy")
    await refused(service.undo.ask(OTHER, attacker), "`buy` rolled or drew something")


async def test_a_player_who_resigned_earlier_is_not_asked_to_agree_to_an_undo(service):
    await open_game(service, (ADA, BOB, CY, DEE))
    quitter = await awaited(service)
    await service.play.resign(TABLE, quitter)
    first = await awaited(service)
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    second = await awaited(service)
    await service.play.move(TABLE, second, (await service.play.legal_moves(TABLE, second))[0])
    ask = await service.undo.ask(TABLE, first)
    (third,) = {ADA, BOB, CY, DEE} - {quitter, first, second}
    assert set(ask.mentions) == {second.user_id, third.user_id}, "not the one who resigned"
    assert quitter.name not in ask.text
    await service.undo.ask(TABLE, third)
    done = await service.undo.ask(TABLE, second)
    assert "Taken back" in done.text


async def test_after_the_next_player_acts_everyone_else_must_agree(service):
    await open_game(service, (ADA, BOB, CY))
    first = await awaited(service)
    m1 = (await service.play.legal_moves(TABLE, first))[0]
    await service.play.move(TABLE, first, m1)
    row_after_m1 = await live(service)
    second = await awaited(service)
    await service.play.move(TABLE, second, (await service.play.legal_moves(TABLE, second))[0])
    third = await awaited(service)

    before = await snapshot(service)
    ask = await service.undo.ask(TABLE, first)
    assert "asks to take back" in ask.text and m1 in ask.text
    assert set(ask.mentions) == {second.user_id, third.user_id}
    assert await snapshot(service) == before, "a request alone changes nothing"
    await refused(service.undo.ask(TABLE, first), "already asked")

    agree = await service.undo.ask(TABLE, third)
    assert "agrees" in agree.text and second.name in agree.text
    assert await snapshot(service) == before

    done = await service.undo.ask(TABLE, second)
    assert "Taken back" in done.text
    row, log, _ = await snapshot(service)
    assert [m.kind for m in log] == ["move", "move", "undo"]
    assert log[-1].action == "2"
    assert log[-1].user_id == first.user_id, "the take-back is the asker's, not the last to agree"
    history = await service.looking.history(TABLE)
    assert f"{first.name} took back 2 move(s)" in history.text
    assert effective_moves(log) == []
    assert row.version == before[0].version + 1
    assert await awaited(service) == first
    assert row.state != row_after_m1.state
    assert SKY.to_json(replay_log(row, log, 3)) == row.state


async def test_a_move_cancels_the_take_back_request(service):
    await open_game(service, (ADA, BOB))
    first = await awaited(service)
    second = BOB if first == ADA else ADA
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    await service.play.move(TABLE, second, (await service.play.legal_moves(TABLE, second))[0])
    # it is ``first``'s turn again; they ask to take back their move and second's
    ask = await service.undo.ask(TABLE, first)
    assert "asks" in ask.text
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    before = await snapshot(service)
    # second's /game undo is no longer an agreement: nothing is taken back
    reply = await service.undo.ask(TABLE, second)
    assert "Taken back" not in reply.text
    after = await snapshot(service)
    assert after[0].state == before[0].state and after[1] == before[1]
    assert [m.kind for m in after[1]] == ["move", "move", "move"]


async def test_history_lists_moves_and_take_backs(service):
    await refused(service.looking.history(TABLE), "no game")
    await open_game(service, (ADA, BOB))
    assert "No moves" in (await service.looking.history(TABLE)).text
    first = await awaited(service)
    m1 = (await service.play.legal_moves(TABLE, first))[0]
    await service.play.move(TABLE, first, m1)
    await service.undo.ask(TABLE, first)
    m2 = (await service.play.legal_moves(TABLE, first))[-1]
    await service.play.move(TABLE, first, m2)
    text = (await service.looking.history(TABLE)).text
    assert text.splitlines() == [
        f"1. {first.name}: {m1}",
        f"2. {first.name} took back 1 move(s)",
        f"3. {first.name}: {m2}",
    ]


async def test_move_log_with_take_backs_replays_to_the_stored_state(service):
    await open_game(service, (ADA, BOB, CY))
    rnd = random.Random(8)
    for step in range(25):
        who = await awaited(service)
        await service.play.move(TABLE, who, rnd.choice(await service.play.legal_moves(TABLE, who)))
        if step % 5 == 4:
            await service.undo.ask(TABLE, who)
        row, log, _ = await snapshot(service)
        assert SKY.to_json(replay_log(row, log, 3)) == row.state
    assert sum(m.kind == "undo" for m in log) == 5


# -- resign and abandon ----------------------------------------------------------------


async def test_resign_in_a_two_player_game_ends_it(service):
    await open_game(service, (ADA, BOB))
    first = await awaited(service)
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    reply = await service.play.resign(TABLE, first)  # not their turn: resigning is any time
    assert "Game over" in reply.text
    assert reply.text.index(f"1st {(BOB if first == ADA else ADA).name}") < reply.text.index(
        f"2nd {first.name}"
    )
    row, log, seats = await snapshot(service)
    assert row.status == "finished"
    assert log[-1].action == "resign"
    by_user = {s.user_id: s.place for s in seats}
    assert by_user[first.user_id] == 2
    await service.lobby.create(TABLE, ADA, "skybridge")


async def test_resign_in_a_three_player_game_goes_on(service):
    await open_game(service, (ADA, BOB, CY))
    who = await awaited(service)
    quitter = next(c for c in (ADA, BOB, CY) if c != who)
    await service.play.resign(TABLE, quitter)
    assert await awaited(service) == who
    await refused(service.play.resign(TABLE, quitter), "already resigned")
    await refused(service.play.resign(TABLE, DEE), "not playing")
    reply = await play_out(service, random.Random(3))
    row, _, seats = await snapshot(service)
    assert row.status == "finished" and "Game over" in reply.text
    assert {s.user_id: s.place for s in seats}[quitter.user_id] == 3


async def test_abandon_by_creator_or_manager_only(service):
    await open_game(service, (ADA, BOB))
    await refused(service.lobby.abandon(TABLE, BOB), "only the player who opened")
    assert (await live(service)).status == "active"
    reply = await service.lobby.abandon(TABLE, ADA)
    assert "abandoned" in reply.text
    row, _, seats = await snapshot(service)
    assert row.status == "abandoned"
    assert not any(s.awaiting for s in seats)
    await refused(service.play.move(TABLE, ADA, "red tall a1"), "abandoned")

    await service.lobby.create(TABLE, BOB, "skybridge")
    await refused(service.lobby.abandon(TABLE, ADA), "only the player who opened")
    await service.lobby.abandon(TABLE, MOD)
    assert (await service.store.latest_game(TABLE.channel_id)).status == "abandoned"


# -- my turns --------------------------------------------------------------------------


async def test_my_turns_lists_games_across_channels_oldest_first(tmp_path):
    store = await SQLiteStore.open(tmp_path / "turns.db", clock=Clock())
    service = Service(store, images=False, seed=lambda: 12345)
    first_table, second_table = TABLE, OTHER
    try:
        assert "No game" in (await service.looking.my_turns(ADA)).text
        await open_game(service, (ADA, BOB), first_table)
        await open_game(service, (ADA, CY), second_table)
        for table in (first_table, second_table):  # make both wait for Ada
            who = await awaited(service, table)
            if who != ADA:
                await service.play.move(table, who, (await service.play.legal_moves(table, who))[0])
            assert await awaited(service, table) == ADA
        # in the first game Ada and then Bob move: it waits for Ada again, but since later
        for who in (ADA, BOB):
            await service.play.move(
                first_table, who, (await service.play.legal_moves(first_table, who))[0]
            )
        assert await awaited(service, first_table) == ADA

        text = (await service.looking.my_turns(ADA)).text
        first_at = text.index(f"channel {first_table.channel_id}")
        second_at = text.index(f"channel {second_table.channel_id}")
        assert second_at < first_at, "the game waiting longest comes first"
        assert text.count("Skybridge") == 2
        assert "No game" in (await service.looking.my_turns(BOB)).text
        assert "No game" in (await service.looking.my_turns(CY)).text

        # the same in the second game: now the first game has waited longest
        for who in (ADA, CY):
            await service.play.move(
                second_table, who, (await service.play.legal_moves(second_table, who))[0]
            )
        text = (await service.looking.my_turns(ADA)).text
        assert text.index(f"channel {first_table.channel_id}") < text.index(
            f"channel {second_table.channel_id}"
        )

        await service.play.move(
            second_table, ADA, (await service.play.legal_moves(second_table, ADA))[0]
        )
        text = (await service.looking.my_turns(ADA)).text
        assert f"channel {first_table.channel_id}" in text
        assert f"channel {second_table.channel_id}" not in text
        assert f"channel {second_table.channel_id}" in (await service.looking.my_turns(CY)).text
    finally:
        await store.close()


async def test_a_long_list_of_legal_moves_says_how_many_more_the_play_button_offers(service):
    """Bridge Wars offers thousands of characters of moves at times: /game legal lists one
    message's worth, in order, and says how many it left out instead of cutting silently."""
    await service.lobby.create(TABLE, ADA, "bridge-wars")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    rng = random.Random(3)
    by_id = {c.user_id: c for c in (ADA, BOB)}
    for _ in range(60):
        mover = by_id[(await service.games.live(TABLE)).awaited_users()[0]]
        moves = await service.play.legal_moves(TABLE, mover)
        if len(", ".join(f"`{m}`" for m in moves)) > 2000:
            break
        await service.play.move(TABLE, mover, rng.choice(moves))
    else:
        raise AssertionError("no position with a long list of moves")
    said = (await service.play.legal(TABLE, mover)).text
    assert said.startswith(f"Your {len(moves)} legal moves: `{moves[0]}`")
    assert len(said) <= 2000
    listed = said.count("`") // 2
    assert said.endswith(f" and {len(moves) - listed} more (the **Play** button offers them all)")
    assert f"`{moves[listed - 1]}`" in said and f"`{moves[listed]}`" not in said


async def test_one_legal_move_and_one_rated_game_are_said_as_people_say_them(service):
    """A count of one reads as people say it, not "1 legal moves" or "1 rated game(s)"."""
    await service.lobby.create(TABLE, ADA, "seven-bridges")
    await service.lobby.start(TABLE, ADA)
    assert (await service.play.legal(TABLE, ADA)).text == "Your 1 legal move: `roll`"
    await service.lobby.abandon(TABLE, ADA)
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)
    await service.play.resign(TABLE, ADA)
    said = (await service.ratings.rating(TABLE.guild_id, ADA, "skybridge")).text
    assert said.endswith("#2 of 2, 1 rated game\n(? = provisional: fewer than 5 rated games)")
