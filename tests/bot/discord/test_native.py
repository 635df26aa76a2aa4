"""What makes the bot feel native to Discord (issue 22, items 1, 2 and 4), through the fake
Discord: times as live timestamps, commands a reader clicks, and commands a person installs
to their own account and runs from a DM, a group DM or a server that never added the bot.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.discord.client import Bridgekeeper
from bot.discord.messages import parts_of
from bot.service import Caller, Reply, Service
from bot.store import SQLiteStore, parse_time
from bot.terminal.session import Console
from tests.bot.discord.discord_harness import (
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GROUP_DM_ID,
    OTHER_GUILD_CHANNEL_ID,
    Harness,
    text,
)

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
MO = Caller(1009, "Mo", manager=True)

#: the commands a person may install to their own account and use anywhere
PERSONAL = {"solo", "daily", "hand", "turns", "settings", "vacation"}
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "bridgekeeper.db") as harness:
        yield harness


def unix(stored: str) -> int:
    return int(parse_time(stored).timestamp())


# -- 1. time as Discord shows it -----------------------------------------------------------


async def test_the_pinned_deadline_is_a_timestamp_each_reader_sees_in_their_own_time(h):
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    row = await h.store.latest_game(CHANNEL_ID)
    (waiting,) = [s for s in await h.store.seats(row.id) if s.awaiting]
    at = unix(waiting.deadline)
    (status_id,) = h.pinned
    status = h.messages[status_id]["content"]
    assert f"Deadline: <t:{at}:f> (<t:{at}:R>)." in status
    assert "UTC" not in status and "{t:" not in status


async def test_vacation_end_and_the_wait_in_turns_are_timestamps(h):
    await h.slash("game", "new", game="skybridge", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    awaited = (await h.store.latest_game(CHANNEL_ID)).id
    (waiting,) = [s for s in await h.store.seats(awaited) if s.awaiting]
    who = ADA if waiting.user_id == ADA.user_id else BOB
    (wait,) = await h.store.awaiting(who.user_id)
    turns = (await h.slash("turns", user=who)).one
    assert turns.ephemeral and f"waiting since <t:{unix(wait.since)}:f>" in turns.text

    away = (await h.slash("vacation", days=3, user=who)).one
    until = (await h.store.settings(who.user_id)).vacation_until
    assert away.ephemeral and f"until <t:{unix(until)}:f>;" in away.text


async def test_a_league_starts_in_the_organisers_own_time_zone(h):
    await h.slash("settings", timezone="America/New_York", user=MO)
    day = (datetime.now(UTC) + timedelta(days=10)).date()
    typed = f"{day} 18:00"
    made = (
        await h.slash("league", "create", name="Cup", game="skybridge", format="swiss",
                      starts=typed, user=MO)
    ).one  # fmt: skip
    meant = datetime.fromisoformat(f"{day}T18:00").replace(tzinfo=ZoneInfo("America/New_York"))
    at = int(meant.timestamp())
    assert f"starts by itself at <t:{at}:f> (<t:{at}:R>)" in made.text
    # an explicit offset and a pasted Discord timestamp are read as written
    stamp = at + 3600
    other = (
        await h.slash("league", "create", name="Plate", game="skybridge", format="swiss",
                      starts=f"<t:{stamp}:f>", user=MO)
    ).one  # fmt: skip
    assert f"<t:{stamp}:f>" in other.text


async def test_a_start_nobody_can_read_is_refused_naming_every_form_and_the_zone(h):
    await h.slash("settings", timezone="Europe/Berlin", user=MO)
    refused = (
        await h.slash("league", "create", name="Cup", game="skybridge", format="swiss",
                      starts="next tuesday", user=MO)
    ).one  # fmt: skip
    assert refused.ephemeral
    for form in ("(Europe/Berlin, from", "`2026-12-01 18:00`", "UTC-5", "`<t:1796148000>`", "`3d`"):
        assert form in refused.text, form
    assert await h.store.leagues(9001) == []


async def test_the_terminal_prints_readable_times_and_no_discord_syntax(tmp_path):
    noon = datetime(2026, 11, 2, 12, tzinfo=UTC)
    store = await SQLiteStore.open(tmp_path / "console.db", clock=lambda: noon)
    out = io.StringIO()
    console = Console(Service(store, images=False, seed=lambda: 4242), tmp_path / "b", out)
    try:
        for line in (
            "ada: /new skybridge time_per_move=2d",
            "bob: /join",
            "ada: /start",
            "bob: /turns",
            "ada: /vacation days=1",
        ):
            await console.handle(line)
    finally:
        await store.close()
    printed = out.getvalue()
    assert "channel 1 — waiting since 2026-11-02 12:00 UTC" in printed
    assert "until 2026-11-03 12:00 UTC;" in printed
    assert "<t:" not in printed and "{t:" not in printed and "</" not in printed


# -- 2. commands you can click -------------------------------------------------------------


async def test_a_command_named_in_a_refusal_is_a_mention_with_the_id_discord_gave(h):
    await h.slash("game", "new", game="skybridge", user=ADA)
    refused = (await h.slash("game", "leave", user=ADA)).one
    game_id = next(c["id"] for c in h.syncs[-1] if c["name"] == "game")
    assert f"call it off with </game abandon:{game_id}> instead" in refused.text
    # after a restart Discord answers the sync again, and the mentions follow its ids
    await h.restart()
    again = (await h.slash("game", "leave", user=ADA)).one
    new_id = next(c["id"] for c in h.syncs[-1] if c["name"] == "game")
    assert new_id != game_id and f"</game abandon:{new_id}>" in again.text


async def test_a_command_with_arguments_keeps_them_as_code_after_its_mention(h):
    made = (await h.slash("vacation", days=2, user=ADA)).one
    assert f"{h.mention('vacation')} `days:0` comes back early" in made.text


async def test_before_the_commands_are_synced_a_command_stays_plain_text(h):
    unsynced = Bridgekeeper(h.service).tree  # a bot Discord has not yet answered
    (part,) = parts_of(Reply("Use `/game board move:3`."), mention=unsynced.mention)
    assert part.content == "Use `/game board move:3`."
    (part,) = parts_of(Reply("Use `/game board move:3`."), mention=h.bot.tree.mention)
    assert part.content == f"Use {h.mention('game board')} `move:3`."


# -- 4. installable by a user ----------------------------------------------------------------


async def test_synced_commands_say_where_they_install_and_run(h):
    synced = {c["name"]: c for c in h.syncs[-1]}
    for name, command in synced.items():
        installs, contexts = command["integration_types"], command["contexts"]
        if name in PERSONAL:
            assert installs == [GUILD_INSTALL, USER_INSTALL], name
            assert contexts == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
        elif name in ("game", "move"):  # a channel's game; solo and daily games in the DM
            assert installs == [GUILD_INSTALL] and contexts == [GUILD, BOT_DM], name
        else:  # leagues and ratings belong to a server
            assert installs == [GUILD_INSTALL] and contexts == [GUILD], name
    assert set(synced) >= PERSONAL


async def test_solo_installed_to_an_account_and_run_in_the_dm_with_the_bot(h):
    board = (await h.slash("solo", user=ADA, channel=DM_CHANNEL_ID, user_install=True)).public
    assert len(board) == 1 and board[0].images, "the game starts right there, with its board"
    assert (await h.store.latest_game(DM_CHANNEL_ID)).status == "active"
    hand = (await h.slash("hand", user=ADA, channel=DM_CHANNEL_ID, user_install=True)).one
    assert hand.ephemeral and hand.images, "the player's own sheet, in the DM"


async def test_solo_from_a_group_dm_goes_to_the_players_dm_and_says_so_privately(h):
    said = (await h.slash("solo", user=ADA, channel=GROUP_DM_ID, user_install=True)).one
    assert said.ephemeral and "waiting in our DM" in said.text
    asked, board, *status = h.dms(ADA.user_id)
    assert text(asked) == "Here is the game you asked me for, to play in our DM:"
    assert board["attachments"], "the board is in Ada's DM with the bot, under those words"
    assert (await h.store.latest_game(DM_CHANNEL_ID + ADA.user_id)).status == "active"
    assert await h.store.latest_game(GROUP_DM_ID) is None


async def test_personal_commands_answer_in_a_server_that_never_added_the_bot(h):
    where = {"channel": OTHER_GUILD_CHANNEL_ID, "user_install": True}
    shown = (await h.slash("settings", timezone="Europe/Berlin", user=ADA, **where)).one
    assert shown.ephemeral and "time zone Europe/Berlin" in shown.text
    turns = (await h.slash("turns", user=ADA, **where)).one
    assert turns.ephemeral and "No game is waiting for you." in turns.text
    away = (await h.slash("vacation", days=1, user=ADA, **where)).one
    assert away.ephemeral and "paused for 1 day, " in away.text
    daily = (await h.slash("daily", "play", user=ADA, **where)).one
    assert daily.ephemeral and "waiting in your DMs" in daily.text
    asked, challenge, *status = h.dms(ADA.user_id)
    assert text(asked) == "Here is today's challenge, which you asked me for:"
    assert text(challenge).startswith("**Daily challenge")
    (entry,) = await h.store.entries(user_id=ADA.user_id)
    assert entry.guild_id is None, "a server that never added the bot has no daily channel"


async def test_daily_setup_is_refused_where_the_bot_cannot_post(h):
    refused = (
        await h.slash("daily", "setup", user=MO, channel=OTHER_GUILD_CHANNEL_ID, user_install=True)
    ).one
    assert refused.ephemeral and "not a member of this server" in refused.text
    assert await h.store.daily_channels() == {}


async def test_a_deadline_warning_posted_by_the_timers_is_a_timestamp(h):
    await h.slash("game", "new", game="skybridge", time_per_move="1h", user=ADA)
    await h.slash("game", "join", user=BOB)
    await h.slash("game", "start", user=ADA)
    game = await h.store.latest_game(CHANNEL_ID)
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=10)
    async with h.store.transaction() as db:  # ten minutes left: inside the warning's window
        await db.execute(
            "UPDATE seats SET deadline = ?, due_at = '' WHERE game_id = ? AND awaiting = 1",
            (soon.isoformat(timespec="microseconds"), game.id),
        )
    await h.bot.get_cog("Postal").run_once()
    at = int(soon.timestamp())
    (warning,) = [m for m in h.messages.values() if "⏰" in (m.get("content") or "")]
    due = f"Your move in **Skybridge #1** is due <t:{at}:f> (<t:{at}:R>); after that"
    assert due in warning["content"]


async def test_the_daily_post_names_its_reset_as_a_timestamp_and_its_command_to_click(h):
    await h.slash("daily", "setup", user=MO)
    await h.bot.get_cog("Postal").run_once()
    (post,) = [h.messages[m] for m in h.posted if "**Daily challenge" in text(h.messages[m])]
    midnight = datetime.combine(datetime.now(UTC).date() + timedelta(days=1), datetime.min.time())
    at = int(midnight.replace(tzinfo=UTC).timestamp())
    assert f"Play it with {h.mention('daily play')} until <t:{at}:f> (<t:{at}:R>)." in (text(post))


async def test_a_bot_that_stops_lets_the_daily_lease_go_for_the_next_one(h):
    """The daily posts are one process's at a time; a bot shut down cleanly gives that
    up at once, so the next one (restarted, or another shard process) need not wait
    for it to run out before posting the day's challenge."""
    await h.slash("daily", "setup", user=MO)
    await h.bot.get_cog("Postal").run_once()
    later = h.store.clock() + timedelta(minutes=1)
    assert not await h.store.take_lease("daily", "another process", later), "held while up"
    await h.restart()
    assert await h.store.take_lease("daily", "another process", later), "let go on the way down"
