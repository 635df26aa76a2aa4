"""The daily Euler challenge, with the clock in the test's hands."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime, timedelta

import pytest

import engine
from bot.service import Caller, Refused, Service, Table
from bot.service.daily import WEEK, challenge_for, share_line, streak
from bot.service.marks import for_discord
from bot.store import SQLiteStore
from engine.seven_bridges.board import CITY, parse_square
from tests.conftest import ADA, BOB, Clock

SB = engine.get("seven-bridges")
MONDAY = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
SERVER = Table(channel_id=600, guild_id=60)


@pytest.fixture
async def daily(tmp_path):
    clock = Clock(MONDAY)
    store = await SQLiteStore.open(tmp_path / "daily.db", clock=clock)
    service = Service(store, images=False)
    yield service, service.daily, clock
    await store.close()


def dm(caller: Caller) -> Table:
    return Table(channel_id=900_000 + caller.user_id)


async def play_out(service: Service, table: Table, caller: Caller, rng: random.Random) -> list:
    """Random legal moves to the end; returns the moves, for playing them again."""
    played = []
    while await service.store.live_game(table.channel_id) is not None:
        move = rng.choice(await service.play.legal_moves(table, caller))
        played.append(move)
        await service.play.move(table, caller, move)
    return played


async def test_everyone_gets_the_same_dice_for_the_same_choices(daily):
    service, daily_, _ = daily
    first = await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    assert "Daily challenge 2026-11-02" in first.text and "Monday" in first.text
    await daily_.play(dm(BOB), BOB, SERVER.guild_id)
    rng = random.Random(8)
    for _ in range(12):
        ada_moves = await service.play.legal_moves(dm(ADA), ADA)
        assert await service.play.legal_moves(dm(BOB), BOB) == ada_moves, "same dice, same options"
        move = rng.choice(ada_moves)
        await service.play.move(dm(ADA), ADA, move)
        await service.play.move(dm(BOB), BOB, move)
    ada = await service.store.live_game(dm(ADA).channel_id)
    bob = await service.store.live_game(dm(BOB).channel_id)
    assert ada.state == bob.state


async def test_one_attempt_a_day_and_an_abandoned_game_is_a_loss(daily):
    service, daily_, clock = daily
    await daily_.play(dm(ADA), ADA, None)
    with pytest.raises(Refused, match="still going"):
        await daily_.play(Table(channel_id=5), ADA, None)
    await service.lobby.abandon(dm(ADA), ADA)
    await daily_.settle()
    with pytest.raises(Refused, match=r"played today's challenge \(lost\)"):
        await daily_.play(Table(channel_id=5), ADA, None)
    clock.now = MONDAY + timedelta(days=1)
    tuesday = await daily_.play(Table(channel_id=5), ADA, None)
    assert "Tuesday" in tuesday.text


def test_the_challenge_depends_on_the_day_and_the_secret_and_the_week_gets_harder():
    days = [(date(2026, 11, 2) + timedelta(days=n)).isoformat() for n in range(14)]
    secret = b"s" * 32
    for day in days:
        c = challenge_for(day, secret)
        assert c == challenge_for(day, secret), "the same for everyone"
        level = CITY.solo_levels[parse_square(c.start)]
        assert WEEK[date.fromisoformat(day).weekday()][0] <= level <= c.levels[1]
    assert challenge_for(days[0], secret).seed != challenge_for(days[0], b"t" * 32).seed
    assert len({challenge_for(d, secret).seed for d in days}) == 14
    assert challenge_for(days[0], secret).levels == (1, 1)
    assert challenge_for(days[6], secret).levels == (7, 9)


def test_streaks_count_consecutive_wins_and_a_missed_day_breaks_them():
    won = {"2026-11-01", "2026-11-02", "2026-11-03", "2026-11-05"}
    assert streak(won, "2026-11-05") == 1, "the 4th was missed"
    assert streak(won, "2026-11-03") == 3
    assert streak(won, "2026-11-04") == 3, "today still open: the run up to yesterday"
    assert streak(won, "2026-11-07") == 0


async def test_a_finished_game_is_scored_shared_without_spoilers_and_ranked(daily):
    service, daily_, clock = daily
    await daily_.setup(SERVER, Caller(1, "Mod", manager=True))
    with pytest.raises(Refused, match="server manager"):
        await daily_.setup(SERVER, ADA)
    await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    await play_out(service, dm(ADA), ADA, random.Random(1))
    (shared,) = await daily_.settle()
    assert shared.table == SERVER
    assert await daily_.settle() == [], "scored once"
    line = shared.reply.text
    assert line.startswith("Bridgekeeper daily 2026-11-02 (Monday): Ada ")
    assert not re.search(r"\b(i|ii|iii|iv)-\d-\d\b|\br\d+c\d+\b", line), "no squares"
    (entry,) = await service.store.entries(user_id=ADA.user_id)
    assert entry.status in ("won", "tied", "lost") and entry.total is not None
    board = await daily_.leaderboard()
    assert f"1. Ada {entry.margin:+d}" in board.text
    stats = await daily_.stats(ADA)
    assert stats.private and "1 daily game, " in stats.text
    with pytest.raises(Refused, match="not finished a daily challenge"):
        await daily_.stats(BOB)


async def test_stats_and_the_leaderboard_say_which_average_each_gives(daily):
    """One game: /daily stats' plain average is its margin, the leaderboard's steady
    average a sixth of it. Each says which it is, and stats gives the leaderboard's too,
    so a player sees why the two differ; counts read as people say them (1 game)."""
    service, daily_, _ = daily
    await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    await play_out(service, dm(ADA), ADA, random.Random(1))
    (entry,) = await service.store.entries(user_id=ADA.user_id)
    steady = f"{entry.margin / 6:+.1f}"
    board = (await daily_.leaderboard()).text.splitlines()
    header = board.index(next(line for line in board if line.startswith("**All time**")))
    steady_means = "steady average margin (margins added up and shared over the games played"
    assert f"{steady_means} plus 5, so one lucky day cannot top a steady record)" in board[header]
    wins = "1 win" if entry.status == "won" else "0 wins"
    run = int(entry.status == "won")
    assert board[header + 1] == f"1. Ada {steady} ({wins}, streak {run}, best {entry.margin:+d})"
    stats = (await daily_.stats(ADA)).text
    assert f"**Ada**: 1 daily game, {wins} over Euler" in stats
    assert f"Average margin {entry.margin:+.1f} a game" in stats
    assert f"on the all-time leaderboard {steady}, the steady average (margins added up" in stats


async def test_the_rollover_post_is_made_once_per_day_even_by_two_processes(daily, tmp_path):
    service, daily_, clock = daily
    await daily_.setup(SERVER, Caller(1, "Mod", manager=True))
    other_store = await SQLiteStore.open(tmp_path / "daily.db", clock=clock)
    try:
        other = Service(other_store, images=False).daily
        first, second = await daily_.rollover(), await other.rollover()
        assert len(first) + len(second) == 1
        post = (first or second)[0]
        assert "Play it with `/daily play`" in post.reply.text
        assert "Nobody played yesterday" in post.reply.text
        clock.now = MONDAY + timedelta(days=1)
        assert len(await other.rollover()) == 1 and await daily_.rollover() == []
    finally:
        await other_store.close()


def test_share_lines_never_carry_moves():
    from bot.store import Entry

    c = challenge_for("2026-11-08", b"x" * 32)
    entry = Entry("2026-11-08", 1, "Ada", 60, 1, "won", 120, 100, "finished", 5)
    assert share_line(entry, c, 3) == (
        "Bridgekeeper daily 2026-11-08 (Sunday): Ada beat Euler by 20 — 120 to 100, 3-day streak."
    )
    assert c.start not in share_line(entry, c, 3)


async def test_boards_in_a_dm_do_not_ping_the_dms_own_player(daily):
    """A DM notifies its reader by itself: a mention of them there is noise."""
    service, daily_, _ = daily
    started = await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    assert started.mentions == () and started.awaiting == (ADA.user_id,)
    moved = await service.play.move(dm(ADA), ADA, (await service.play.legal_moves(dm(ADA), ADA))[0])
    assert moved.mentions == () and moved.playable
    solo = await service.lobby.solo(dm(BOB), BOB, "seven-bridges")
    assert solo.mentions == ()
    assert await service.store.claim_notices("test") == [], "and no DM about a DM"


async def test_the_move_that_ends_the_daily_game_settles_the_attempt_with_it(daily):
    """No tick in between: `/daily play` right after the last move knows it is over."""
    service, daily_, _ = daily
    await daily_.setup(SERVER, Caller(1, "Mod", manager=True))
    await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    await play_out(service, dm(ADA), ADA, random.Random(2))
    (entry,) = await service.store.entries(user_id=ADA.user_id)
    assert entry.status in ("won", "tied", "lost") and entry.total is not None
    with pytest.raises(Refused, match=rf"played today's challenge \({entry.status}\)"):
        await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    (shared,) = await daily_.settle()
    assert shared.reply.text == share_line(
        entry, await daily_.challenge(), 1 if entry.status == "won" else 0
    )
    assert await daily_.settle() == [], "shared once"


async def test_calling_the_daily_game_off_is_a_loss_at_once(daily):
    service, daily_, _ = daily
    await daily_.play(dm(ADA), ADA, None)
    await service.lobby.abandon(dm(ADA), ADA)
    with pytest.raises(Refused, match=r"played today's challenge \(lost\)"):
        await daily_.play(Table(channel_id=5), ADA, None)


async def test_an_attempt_whose_game_ended_unsettled_is_settled_by_the_timer(daily):
    """A row from before moves settled attempts: the tick still scores and shares it."""
    service, daily_, _ = daily
    await daily_.setup(SERVER, Caller(1, "Mod", manager=True))
    await daily_.play(dm(ADA), ADA, SERVER.guild_id)
    await play_out(service, dm(ADA), ADA, random.Random(3))
    async with service.store.transaction() as db:
        await db.execute(
            "UPDATE daily_entries SET status = 'playing', total = NULL, euler = NULL, "
            "share_pending = 0"
        )
    (shared,) = await daily_.settle()
    (entry,) = await service.store.entries(user_id=ADA.user_id)
    assert entry.status != "playing" and shared.reply.text.startswith("Bridgekeeper daily")
    assert await daily_.settle() == []


async def test_a_daily_game_left_open_past_midnight_is_told_when_todays_challenge_closes(daily):
    """Not "your turn for 24 hours": the open game keeps the player from today's challenge."""
    service, daily_, clock = daily
    scheduler = service.timers
    await daily_.play(dm(ADA), ADA, None)
    clock.now = MONDAY + timedelta(hours=23)  # Tuesday 08:00 UTC, no reminder due yet
    await scheduler.tick()
    assert await scheduler.deliveries() == []
    clock.now = MONDAY + timedelta(hours=24)
    await scheduler.tick()
    (notice,) = await scheduler.deliveries()
    closes = int(datetime(2026, 11, 4, tzinfo=UTC).timestamp())  # Tuesday's end
    assert for_discord(notice.text) == (
        "Reminder: your daily **Seven Bridges** challenge of Monday 2026-11-02 is still open "
        "here. Today's "
        f"challenge closes at midnight UTC, <t:{closes}:R>: finish this game, or call it off "
        "with `/game abandon` (a loss), to play it with `/daily play`."
    )
    with pytest.raises(Refused, match="already have a game going in this DM"):
        await daily_.play(dm(ADA), ADA, None)  # what the notice warns of


async def test_an_ordinary_solo_game_keeps_the_ordinary_reminder(daily):
    service, _, clock = daily
    scheduler = service.timers
    await service.lobby.solo(dm(BOB), BOB, "seven-bridges")
    clock.now = MONDAY + timedelta(days=1)
    await scheduler.tick()
    (notice,) = await scheduler.deliveries()
    assert notice.text == "Reminder: it has been your turn in **Seven Bridges #1** for 24 hours."
