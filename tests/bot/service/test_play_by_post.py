"""Play by post with the clock in the test's hands: reminders, warnings, deadlines,
vacations, quiet hours, replacing a player, past boards, and doing each thing once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.domain.clocks import Clocks
from bot.service import Caller, Refused, Service, Table
from bot.service.marks import for_discord, plain
from bot.store import SQLiteStore
from engine.core import IllegalMove
from tests.conftest import ADA, BOB, CY, DEE, TABLE, Clock

SKY = engine.get("skybridge")
T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def world(tmp_path, clock):
    store = await SQLiteStore.open(tmp_path / "post.db", clock=clock)
    service = Service(store, images=False, seed=lambda: 12345)
    yield service, service.timers
    await store.close()


async def start(service: Service, clocks: Clocks | None = None, players=(ADA, BOB)):
    await service.lobby.create(TABLE, players[0], "skybridge", clocks=clocks)
    for p in players[1:]:
        await service.lobby.join(TABLE, p)
    reply = await service.lobby.start(TABLE, players[0])
    (awaited,) = reply.mentions
    return next(p for p in players if p.user_id == awaited)


async def outbox(service: Service) -> list[tuple]:
    async with service.store.transaction() as db:
        rows = await db.execute_fetchall(
            "SELECT user_id, kind, via, due_at, sent_at FROM outbox ORDER BY id"
        )
    return [tuple(r) for r in rows]


async def test_reminders_come_once_per_interval_and_stop_at_the_limit(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(remind_hours=24, reminder_limit=3))
    clock.at(hours=23, minutes=59)
    await scheduler.tick()
    assert await outbox(service) == []
    for day in (1, 2, 3, 4, 5):
        clock.at(hours=24 * day)
        await scheduler.tick()
        await scheduler.tick()  # a second tick at the same moment sends nothing more
        assert len(await outbox(service)) == min(day, 3)
    notices = await scheduler.deliveries()
    assert [(n.user_id, n.via, n.kind) for n in notices] == [
        (first.user_id, "channel", "reminder")
    ] * 3
    assert "your turn in **Skybridge #1** for 2 days" in notices[1].text
    for n in notices:
        await service.store.mark_sent(n)
    assert await scheduler.deliveries() == []


async def test_a_move_starts_a_fresh_wait_for_the_next_player(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(remind_hours=24))
    clock.at(hours=20)
    second = BOB if first == ADA else ADA
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    clock.at(hours=30)
    await scheduler.tick()
    assert await outbox(service) == [], "the second player has waited 10 hours only"
    clock.at(hours=44)
    await scheduler.tick()
    assert [(u, k) for u, k, *_ in await outbox(service)] == [(second.user_id, "reminder")]


async def test_snooze_silences_this_turn_only(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(remind_hours=24))
    other = BOB if first == ADA else ADA
    with pytest.raises(Refused, match="not your turn"):
        await service.postal.snooze(TABLE, other)
    await service.postal.snooze(TABLE, first)
    clock.at(hours=100)
    await scheduler.tick()
    assert await outbox(service) == []
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    clock.at(hours=125)
    await scheduler.tick()
    assert [u for u, *_ in await outbox(service)] == [other.user_id]


async def test_dms_wait_for_the_end_of_quiet_hours_in_the_users_time_zone(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(remind_hours=10))
    await service.postal.settings(
        first, notify="both", timezone="Europe/Berlin", quiet_start=22, quiet_end=7
    )
    clock.at(hours=10)  # 22:00 UTC = 23:00 in Berlin (CET): quiet
    await scheduler.tick()
    channel, dm = await outbox(service)
    assert channel[2] == "channel" and channel[3] == "2026-11-02T22:00:00.000000+00:00"
    assert dm[2] == "dm" and dm[3] == "2026-11-03T06:00:00.000000+00:00", "07:00 Berlin"
    (mention,) = await scheduler.deliveries()
    assert mention.via == "channel"
    await service.store.mark_sent(mention)
    clock.at(hours=18)  # 06:00 UTC = 07:00 Berlin
    assert [n.via for n in await scheduler.deliveries()] == ["dm"]


async def test_settings_are_validated_and_shown(world):
    service, _ = world
    with pytest.raises(Refused, match="not a time zone"):
        await service.postal.settings(ADA, timezone="Mars/Olympus")
    with pytest.raises(Refused, match="Notify must be one of"):
        await service.postal.settings(ADA, notify="pigeon")
    with pytest.raises(Refused, match="0 to 23"):
        await service.postal.settings(ADA, quiet_start=25)
    shown = await service.postal.settings(ADA, notify="off")
    assert shown.private and "Turn notices: none" in shown.text


async def test_warning_then_a_random_legal_move_at_the_deadline(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=48, policy="random", remind_hours=1000))
    clock.at(hours=35)
    await scheduler.tick()
    assert await outbox(service) == []
    clock.at(hours=36)  # 12 hours before: a quarter of the time per move
    await scheduler.tick()
    (warning,) = await outbox(service)
    assert warning[1] == "warning"
    due = int((T0 + timedelta(hours=48)).timestamp())
    text = for_discord((await scheduler.deliveries())[0].text)
    assert f"Your move in **Skybridge #1** is due <t:{due}:f> (<t:{due}:R>);" in text
    clock.at(hours=48)
    before = len(await service.store.moves(1))
    posted, again = await scheduler.tick(), await scheduler.tick()
    assert again == []
    (item,) = posted
    assert f"{first.name} ran out of time" in item.reply.text and item.table == TABLE
    log = await service.store.moves(1)
    assert len(log) == before + 1 and log[-1].user_id == first.user_id
    state = SKY.replay(2, {}, 12345, [])
    assert SKY.parse(log[-1].action) in SKY.legal(state, state.turn)


async def test_forfeit_at_the_deadline_ends_a_two_player_game(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=24, policy="forfeit"))
    clock.at(hours=18)
    assert await scheduler.tick() == []  # the warning, 6 hours before
    clock.at(hours=24)
    (item,) = await scheduler.tick()
    assert "resigned" in item.reply.text and "Game over" in item.reply.text
    seats = await service.store.seats(1)
    loser = next(s for s in seats if s.user_id == first.user_id)
    assert loser.place == 2
    with pytest.raises(Refused, match="finished"):
        await service.play.move(TABLE, first, "red tall a1")


async def test_vacation_pauses_clocks_and_comes_from_a_bank(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=48, remind_hours=24))
    clock.at(hours=10)
    with pytest.raises(Refused, match="14 vacation days left"):
        await service.postal.vacation(first, 15)
    reply = await service.postal.vacation(first, 3)
    assert reply.private and "11 days left" in reply.text and "1 running deadline" in reply.text
    clock.at(hours=80)  # on vacation: no reminder, no deadline, though both are overdue
    assert await scheduler.tick() == [] and await outbox(service) == []
    clock.at(hours=10 + 72 - 1)
    await service.postal.vacation(first, 0)  # back an hour early: the hour returns to the bank
    assert (await service.store.settings(first.user_id)).vacation_days == pytest.approx(11 + 1 / 24)
    clock.at(hours=48 + 72 - 1 - 0.01)
    assert await scheduler.tick() == []
    clock.at(hours=48 + 72 - 1)
    (item,) = await scheduler.tick()
    assert "ran out of time" in item.reply.text


async def test_a_manager_extends_a_deadline_and_replaces_a_player(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=24))
    other = BOB if first == ADA else ADA
    mod = Caller(1, "Mod", manager=True)
    with pytest.raises(Refused, match="Only the player who opened"):
        await service.postal.extend(TABLE, BOB, 24)
    reply = await service.postal.extend(TABLE, mod, 24)
    assert "24 hours more" in reply.text
    clock.at(hours=47)
    assert await scheduler.tick() == []

    with pytest.raises(Refused, match="already has a seat"):
        await service.postal.replace_player(TABLE, mod, first.user_id, other)
    reply = await service.postal.replace_player(TABLE, mod, first.user_id, CY)
    assert "Cy takes over seat" in reply.text and reply.mentions == (CY.user_id,)
    turns = await service.looking.my_turns(CY)
    assert "Skybridge" in turns.text
    await service.play.move(TABLE, CY, (await service.play.legal_moves(TABLE, CY))[0])
    with pytest.raises(Refused, match="not playing"):
        await service.play.move(TABLE, first, "red tall a1")


async def test_two_schedulers_on_one_database_do_each_thing_once(tmp_path, clock):
    """A restart at the wrong moment, or a second process: reminders and deadline moves
    are claimed in the database, so they still happen exactly once."""
    stores = [await SQLiteStore.open(tmp_path / "twice.db", clock=clock) for _ in range(2)]
    services = [Service(s, images=False, seed=lambda: 12345) for s in stores]
    try:
        await start(services[0], Clocks(move_hours=48, remind_hours=24))
        schedulers = [s.timers for s in services]
        clock.at(hours=24)
        await asyncio.gather(*(s.tick() for s in schedulers))
        assert len(await outbox(services[0])) == 1
        clock.at(hours=36)
        await asyncio.gather(*(s.tick() for s in schedulers))
        assert [kind for _u, kind, *_ in await outbox(services[0])] == ["reminder", "warning"]
        clock.at(hours=48)
        results = await asyncio.gather(*(s.tick() for s in schedulers))
        assert sum(len(r) for r in results) == 1
        assert len(await stores[0].moves(1)) == 1
    finally:
        for s in stores:
            await s.close()


async def test_any_past_position_as_a_board(world):
    service, _ = world
    first = await start(service)
    second = BOB if first == ADA else ADA
    m1 = (await service.play.legal_moves(TABLE, first))[0]
    await service.play.move(TABLE, first, m1)
    await service.play.move(TABLE, second, (await service.play.legal_moves(TABLE, second))[0])
    start_board = await service.looking.board(TABLE, move=0)
    assert "at the start" in start_board.text and f"To play: {first.name}." in start_board.text
    after_one = await service.looking.board(TABLE, move=1)
    assert f"after move 1 (`{m1}`)" in after_one.text
    assert f"To play: {second.name}." in after_one.text
    with pytest.raises(Refused, match="from 0 \\(the start\\) to 2"):
        await service.looking.board(TABLE, move=3)


async def test_time_per_move_is_announced_and_policies_are_checked(world):
    service, _ = world
    with pytest.raises(Refused, match="not a deadline policy"):
        await service.lobby.create(
            TABLE, ADA, "skybridge", clocks=Clocks(move_hours=24, policy="nap")
        )
    reply = await service.lobby.create(TABLE, ADA, "skybridge", clocks=Clocks(move_hours=72))
    assert "Time per move: 3 days; then the game plays a random legal move" in reply.text


async def test_after_time_away_one_reminder_catches_up_instead_of_a_burst(world, clock):
    service, scheduler = world
    await start(service, Clocks(remind_hours=24, reminder_limit=5))
    clock.at(hours=24 * 3 + 1)  # the bot was down for three days
    for _ in range(4):
        await scheduler.tick()
    assert len(await outbox(service)) == 1
    clock.at(hours=24 * 4)
    await scheduler.tick()
    assert len(await outbox(service)) == 2


async def test_skip_policy_passes_the_turn_and_the_log_still_replays(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=24, policy="skip"))
    second = BOB if first == ADA else ADA
    clock.at(hours=18)
    await scheduler.tick()  # the warning
    clock.at(hours=24)
    (item,) = await scheduler.tick()
    assert f"{first.name}'s turn was skipped" in item.reply.text
    assert f"To play: {second.name}." in item.reply.text
    log = await service.store.moves(1)
    assert [(m.kind, m.action, m.user_id) for m in log] == [("skip", "skip", first.user_id)]
    history = await service.looking.history(TABLE)
    assert f"1. {first.name}'s turn was skipped (out of time)" in history.text
    await service.play.move(TABLE, second, (await service.play.legal_moves(TABLE, second))[0])
    past = await service.looking.board(TABLE, move=1)
    assert f"To play: {second.name}." in past.text, "a past board replays the skip"
    row = await service.store.game(1)
    state = SKY.from_json(row.state)
    assert state.turn == SKY.new(2, None, 12345).turn, "back to the first player"
    assert sum(len(stack) for stack in state.board) == 1


async def test_skip_is_refused_for_games_that_cannot_lose_a_turn(world):
    service, _ = world
    refusal = "at_deadline: skip is not open to Bridges and Boats, which has no way to skip"
    with pytest.raises(Refused, match=refusal):
        await service.lobby.create(
            TABLE, ADA, "bridges-and-boats", clocks=Clocks(move_hours=24, policy="skip")
        )
    with pytest.raises(IllegalMove):
        state = SKY.new(2, None, 1)
        SKY.skip(state, 1 - state.turn)


async def deadline_of(service: Service, user_id: int) -> datetime:
    (seat,) = [s for s in await service.store.seats(1) if s.user_id == user_id]
    return datetime.fromisoformat(seat.deadline)


async def test_a_turn_that_begins_during_a_vacation_gets_its_full_time_after_it(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=48, remind_hours=1000))
    other = BOB if first == ADA else ADA
    await service.postal.vacation(other, 3)  # away until hour 72
    clock.at(hours=1)
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    assert await deadline_of(service, other.user_id) == T0 + timedelta(hours=72 + 48)
    clock.at(hours=72)  # back: nothing is due yet, least of all a move
    assert await scheduler.tick() == [] and await outbox(service) == []
    clock.at(hours=72 + 36)
    assert await scheduler.tick() == []
    assert [k for _u, k, *_ in await outbox(service)] == ["warning"]
    clock.at(hours=72 + 48)
    (item,) = await scheduler.tick()
    assert f"{other.name} ran out of time" in item.reply.text


async def test_coming_back_early_takes_back_only_the_vacation_in_a_deadline(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=48, remind_hours=1000))
    other = BOB if first == ADA else ADA
    await service.postal.vacation(other, 3)
    clock.at(hours=1)
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    clock.at(hours=71)
    back = await service.postal.vacation(other, 0)
    assert back.changed == (1,), "the game's pinned status shows the new deadline"
    assert await deadline_of(service, other.user_id) == T0 + timedelta(hours=71 + 48)
    assert await scheduler.tick() == [], "the whole time per move from the return"


async def test_a_deadline_missed_while_the_bot_was_down_is_warned_before_it_is_played(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=24, remind_hours=1000))
    clock.at(hours=30)  # the bot was down across the warning and the deadline
    assert await scheduler.tick() == []
    (warning,) = await scheduler.deliveries()
    given = int((T0 + timedelta(hours=36)).timestamp())  # six hours from the late warning
    assert warning.kind == "warning" and f"due <t:{given}:f>" in for_discord(warning.text)
    clock.at(hours=35, minutes=59)
    assert await scheduler.tick() == []
    clock.at(hours=36)
    (item,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in item.reply.text


async def test_a_turn_dm_waits_for_quiet_hours_and_lapses_if_the_player_moves(world, clock):
    service, scheduler = world
    first = await start(service)
    other = BOB if first == ADA else ADA
    await service.postal.settings(
        other, notify="dm", timezone="Europe/Berlin", quiet_start=22, quiet_end=7
    )
    clock.at(hours=10)  # 23:00 in Berlin
    reply = await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    assert reply.mentions == (), "a DM instead of a mention"
    ((user, kind, via, due_at, _),) = await outbox(service)
    assert (user, kind, via) == (other.user_id, "turn", "dm")
    assert due_at == "2026-11-03T06:00:00.000000+00:00", "07:00 in Berlin"
    assert await scheduler.deliveries() == []
    clock.at(hours=14)
    await service.play.move(TABLE, other, (await service.play.legal_moves(TABLE, other))[0])
    clock.at(hours=18)
    assert await scheduler.deliveries() == [], "the turn is over: no stale 'your turn'"


async def test_two_deliverers_on_one_database_each_get_a_notice_once(tmp_path, clock):
    """Two processes claim from one outbox: every due notice goes to exactly one of them."""
    stores = [await SQLiteStore.open(tmp_path / "outbox.db", clock=clock) for _ in range(2)]
    services = [Service(s, images=False, seed=lambda: 12345) for s in stores]
    try:
        await start(services[0], Clocks(remind_hours=1), players=(ADA, BOB, CY))
        await services[0].postal.settings(ADA, notify="both")
        await services[0].postal.settings(BOB, notify="both")
        await services[0].postal.settings(CY, notify="both")
        schedulers = [s.timers for s in services]
        clock.at(hours=1)
        await schedulers[0].tick()
        queued = await outbox(services[0])
        assert len(queued) == 2, "the waiting player's reminder: a mention and a DM"
        got = await asyncio.gather(*(s.deliveries() for s in schedulers * 3))
        ids = [n.id for batch in got for n in batch]
        assert sorted(ids) == [1, 2], "each once, none twice"
    finally:
        for s in stores:
            await s.close()


async def test_turns_lists_the_longest_wait_first_with_when_it_began(world, clock):
    service, _ = world
    other_table = Table(channel_id=5002, guild_id=9001)
    await service.lobby.create(TABLE, ADA, "skybridge")
    await service.lobby.join(TABLE, BOB)
    await service.lobby.start(TABLE, ADA)  # Ada to play here since noon
    clock.at(hours=2)
    await service.lobby.create(other_table, ADA, "skybridge")
    await service.lobby.join(other_table, CY)
    await service.lobby.start(other_table, ADA)  # and here since 14:00
    clock.at(hours=3)  # the first game changes without a move: Bob hands his seat to Dee
    await service.postal.replace_player(TABLE, BOB, BOB.user_id, DEE)
    turns = plain((await service.looking.my_turns(ADA)).text).splitlines()
    assert turns[1:] == [
        "1. **Skybridge** in channel 5001 — waiting since 2026-11-02 12:00 UTC (3 hours)",
        "2. **Skybridge** in channel 5002 — waiting since 2026-11-02 14:00 UTC (1 hour)",
    ]


async def test_forfeit_of_one_of_three_players_lets_the_others_carry_on(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(move_hours=24, policy="forfeit"), players=(ADA, BOB, CY))
    clock.at(hours=18)
    await scheduler.tick()  # the warning
    clock.at(hours=24)
    (item,) = await scheduler.tick()
    assert f"{first.name} ran out of time" in item.reply.text
    assert "Game over" not in item.reply.text
    row = await service.store.game(1)
    assert row.status == "active"
    (awaited,) = item.reply.awaiting
    assert awaited != first.user_id
    player = next(p for p in (ADA, BOB, CY) if p.user_id == awaited)
    await service.play.move(TABLE, player, (await service.play.legal_moves(TABLE, player))[0])
    assert len(await service.store.moves(1)) == 2


async def test_extend_by_less_than_an_hour_is_refused_and_changes_nothing(world):
    service, _ = world
    await start(service, Clocks(move_hours=24))
    before = await service.store.seats(1)
    mod = Caller(1, "Mod", manager=True)
    for hours in (0.5, 0, 24 * 61):
        with pytest.raises(Refused, match="between 1 hour and 60 days"):
            await service.postal.extend(TABLE, mod, hours)
    assert await service.store.seats(1) == before
    assert (await service.postal.extend(TABLE, mod, 1)).changed == (1,)


async def test_a_notice_claimed_by_a_deliverer_that_died_is_handed_out_again(world, clock):
    """A claim lasts ten minutes: a process killed mid-delivery does not lose the notice.
    A mention Discord refuses three times is given up, not retried for ever."""
    service, scheduler = world
    await start(service, Clocks(remind_hours=1))
    clock.at(hours=1)
    await scheduler.tick()
    (notice,) = await scheduler.deliveries()  # claimed, then the process dies
    clock.at(hours=1, minutes=9)
    assert await scheduler.deliveries() == []
    clock.at(hours=1, minutes=10)
    (again,) = await scheduler.deliveries()
    assert again.id == notice.id and again.attempts == 2
    assert await service.store.delivery_failed(again) == "retry"
    clock.at(hours=1, minutes=19)
    assert await scheduler.deliveries() == [], "the retry waits 5 minutes per attempt"
    clock.at(hours=1, minutes=20)
    (last,) = await scheduler.deliveries()
    assert last.attempts == 3
    assert await service.store.delivery_failed(last) == "dropped"
    clock.at(hours=5)
    assert await scheduler.deliveries() == []


async def test_a_warning_names_the_real_deadline_and_speaks_to_the_player(world, clock):
    """14 minutes left is not "within 1 hours"; and it is *your* move the bot plays."""
    service, scheduler = world
    await start(service, Clocks(move_hours=1, policy="random", remind_hours=1000))
    clock.at(minutes=46)
    await scheduler.tick()
    (warning,) = await scheduler.deliveries()
    deadline = int((T0 + timedelta(hours=1)).timestamp())
    assert for_discord(warning.text) == (
        f"⏰ Your move in **Skybridge #1** is due <t:{deadline}:f> (<t:{deadline}:R>); after "
        "that the game plays a random legal move for you."
    )


@pytest.mark.parametrize(
    ("policy", "outcome"),
    [("skip", "your turn is skipped."), ("forfeit", "you resign the game.")],
)
async def test_every_deadline_policy_is_told_in_the_second_person(world, clock, policy, outcome):
    service, scheduler = world
    await start(service, Clocks(move_hours=8, policy=policy, remind_hours=1000))
    clock.at(hours=7)
    await scheduler.tick()
    (warning,) = await scheduler.deliveries()
    assert warning.text.endswith(f"; after that {outcome}")
    assert "them" not in warning.text


async def test_a_reminder_counts_one_hour_as_one_hour(world, clock):
    service, scheduler = world
    await start(service, Clocks(remind_hours=1))
    clock.at(hours=1)
    await scheduler.tick()
    (reminder,) = await scheduler.deliveries()
    assert reminder.text == "Reminder: it has been your turn in **Skybridge #1** for 1 hour."


async def test_a_snooze_clicked_by_another_player_says_whose_turn_it_is(world, clock):
    service, scheduler = world
    first = await start(service, Clocks(remind_hours=1))
    other = BOB if first == ADA else ADA
    clock.at(hours=1)
    await scheduler.tick()
    (reminder,) = await scheduler.deliveries()
    game_id, since = reminder.game_id, reminder.turn_since
    with pytest.raises(Refused) as refused:
        await service.postal.snooze_turn(game_id, other, since)
    assert str(refused.value) == (
        f"This isn't your turn to snooze: only {first.name} is waited for."
    )
    await service.postal.snooze_turn(game_id, first, since)  # the awaited player may
    await service.play.move(TABLE, first, (await service.play.legal_moves(TABLE, first))[0])
    with pytest.raises(Refused, match="That turn is over"):
        await service.postal.snooze_turn(game_id, first, since)


async def test_a_changed_notice_setting_counts_from_the_very_next_turn(world):
    """Turn notices read each player's settings from a copy kept between moves: a change
    made with /settings replaces that copy at once, both ways."""
    service, _ = world
    first = await start(service)
    other = BOB if first == ADA else ADA

    async def play(caller):
        return await service.play.move(
            TABLE, caller, (await service.play.legal_moves(TABLE, caller))[0]
        )

    assert (await play(first)).mentions == (other.user_id,)
    await play(other)
    await service.postal.settings(other, notify="dm")
    assert (await play(first)).mentions == (), "a DM now, not a mention"
    assert [(u, k, v) for u, k, v, _due, _sent in await outbox(service)] == [
        (other.user_id, "turn", "dm")
    ]
    await play(other)
    await service.postal.settings(other, notify="channel")
    assert (await play(first)).mentions == (other.user_id,)
    assert len(await outbox(service)) == 1, "no DM any more"
