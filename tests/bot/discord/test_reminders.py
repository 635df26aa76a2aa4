"""Layer 2: reminders as each player asks for them, through the real bot and the fake
Discord, with the store's clock in the test's hands: ``/settings`` as synced (typed
options, choices for what is a fixed set, suggestions for a cadence), the daily digest
at the player's own hour (and held by their quiet hours), the "you're next" heads-up
once a turn, and every DM naming its game with a link to it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.config import Web
from bot.service import Caller, Table
from bot.web.serving import serving
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, Harness
from tests.bot.discord.test_commands import assert_refused, board_of
from tests.conftest import Clock

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
CY = Caller(1003, "Cy")
T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC; Berlin is UTC+1
TUESDAY_8_BERLIN = datetime(2026, 11, 3, 7, 0, tzinfo=UTC)
LINK = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"
OTHER_LINK = f"https://discord.com/channels/{GUILD_ID}/{OTHER_CHANNEL_ID}"


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def h(tmp_path, clock):
    async with Harness(tmp_path / "bridgekeeper.db", clock=clock) as harness:
        yield harness


def unix(moment: datetime | str) -> int:
    return int((datetime.fromisoformat(moment) if isinstance(moment, str) else moment).timestamp())


async def a_move(h: Harness, player: Caller, channel: int = CHANNEL_ID) -> None:
    """``/move`` with the player's first legal move."""
    move = (await h.service.play.legal_moves(Table(channel, GUILD_ID), player))[0]
    board_of(await h.slash("move", notation=move, user=player, channel=channel))


async def waiting_for(h: Harness, first: Caller, other: Caller, channel: int, **options) -> None:
    """A Skybridge game of ``first`` and ``other`` at ``channel``, waiting for ``first``."""
    await h.slash("game", "new", game="skybridge", user=first, channel=channel, **options)
    await h.slash("game", "join", user=other, channel=channel)
    start = await h.slash("game", "start", user=first, channel=channel)
    board_of(start)
    if first.user_id not in start.pinged:  # the draw picked the other: they play a move
        await a_move(h, other, channel)


async def tick(h: Harness) -> None:
    await h.bot.get_cog("Postal").run_once()


async def test_settings_offers_the_reminder_options_typed_and_suggests_cadences(h, clock):
    options = {o["name"]: o for o in h._command("settings")["options"]}
    reminders, hour, heads_up = options["reminders"], options["digest_hour"], options["heads_up"]
    assert (reminders["type"], reminders.get("autocomplete"), reminders["max_length"]) == (
        3,
        True,
        40,
    ), "a cadence is free text, suggested as it is typed"
    assert (hour["type"], hour["min_value"], hour["max_value"]) == (4, 0, 23)
    assert heads_up["type"] == 3 and [c["value"] for c in heads_up["choices"]] == ["on", "off"]
    assert all(1 <= len(o["description"]) <= 100 for o in options.values())

    offered = await h.autocomplete("settings", "reminders", "", user=ADA)
    assert offered.choice_values == ["game", "digest", "12h", "24h", "3d"]
    assert offered.choices[2]["name"] == "12h — every 12 hours"
    typed = await h.autocomplete("settings", "reminders", "2d", user=ADA)
    assert typed.choices == [{"name": "2d — every 2 days", "value": "2d"}]
    (refusal,) = (await h.autocomplete("settings", "reminders", "weekly", user=ADA)).choices
    assert refusal["name"].startswith("✗ reminders: `weekly` is not a choice")
    assert len(refusal["name"]) <= 100

    assert_refused(await h.slash("settings", reminders="weekly", user=ADA), "`weekly`")
    assert_refused(
        await h.slash("settings", reminders="20m", user=ADA), "between 1 hour and 14 days"
    )
    assert_refused(await h.slash("settings", digest_hour=8, user=ADA), "ask for the digest with it")
    assert await h.store.settings(ADA.user_id) == await h.store.settings(CY.user_id)

    shown = (
        await h.slash("settings", reminders="digest", digest_hour=8, timezone="Europe/Berlin",
                      heads_up="on", user=ADA)
    ).one  # fmt: skip
    at = unix(TUESDAY_8_BERLIN)
    assert shown.ephemeral
    assert (
        f"Reminders: one digest a day instead, at 8:00 Europe/Berlin, next <t:{at}:f> "
        f'(<t:{at}:R>); "you\'re next" heads-up: on.' in shown.text
    )
    stored = await h.store.settings(ADA.user_id)
    assert (stored.digest_hour, stored.heads_up, stored.remind_hours) == (8, True, None)
    shown = (await h.slash("settings", reminders="12h", heads_up="off", user=ADA)).one
    assert (
        "Reminders: every 12 hours (in every game)" in shown.text and "heads-up: off" in shown.text
    )


async def test_the_digest_comes_at_the_players_hour_with_every_game_a_link_and_timestamps(h, clock):
    await h.slash("settings", reminders="digest", digest_hour=8, timezone="Europe/Berlin", user=ADA)
    await waiting_for(h, ADA, BOB, CHANNEL_ID, time_per_move="2d")
    await waiting_for(h, ADA, BOB, OTHER_CHANNEL_ID)
    await tick(h)
    assert h.dms(ADA.user_id) == [], "turn notices go to the channel: no DM yet"
    clock.now = TUESDAY_8_BERLIN - timedelta(minutes=1)
    await tick(h)
    assert h.dms(ADA.user_id) == []
    clock.now = TUESDAY_8_BERLIN
    await tick(h)
    await tick(h)
    (digest,) = h.dms(ADA.user_id)
    since, due = unix(T0), unix(T0 + timedelta(days=2))
    assert digest["content"].splitlines() == [
        "📬 Your daily digest: 2 games wait for your move.",
        f"• **Skybridge** in {LINK} — waiting since <t:{since}:f> (19 hours), "
        f"due <t:{due}:f> (<t:{due}:R>)",
        f"• **Skybridge** in {OTHER_LINK} — waiting since <t:{since}:f> (19 hours)",
    ]
    assert not digest["components"], "no Snooze: it is about every game"
    await h.restart()  # the next process sends nothing again this minute
    await tick(h)
    assert len(h.dms(ADA.user_id)) == 1
    clock.now = TUESDAY_8_BERLIN + timedelta(days=1)
    await tick(h)
    assert len(h.dms(ADA.user_id)) == 2 and "(43 hours)" in h.dms(ADA.user_id)[1]["content"]


async def test_quiet_hours_hold_the_digest_until_they_end(h, clock):
    await h.slash(
        "settings", reminders="digest", digest_hour=8, timezone="Europe/Berlin",
        quiet_start=6, quiet_end=9, user=ADA,
    )  # fmt: skip
    await waiting_for(h, ADA, BOB, CHANNEL_ID)
    for moment in (TUESDAY_8_BERLIN, TUESDAY_8_BERLIN + timedelta(minutes=59)):
        clock.now = moment
        await tick(h)
        assert h.dms(ADA.user_id) == [], "08:00 Berlin is in Ada's quiet hours"
    clock.now = TUESDAY_8_BERLIN + timedelta(hours=1)  # 09:00 Berlin
    await tick(h)
    (digest,) = h.dms(ADA.user_id)
    assert digest["content"].startswith("📬 Your daily digest: 1 game waits for your move.")


async def test_a_digest_discord_refuses_is_retried_then_dropped_never_posted_in_a_channel(h, clock):
    await h.slash("settings", reminders="digest", digest_hour=7, user=ADA)
    await waiting_for(h, ADA, BOB, CHANNEL_ID)
    h.closed_dms.add(ADA.user_id)
    clock.now = datetime(2026, 11, 3, 7, tzinfo=UTC)
    refused = 0
    for _ in range(5):
        sent = len(h.calls)
        await tick(h)
        posts = [c for c in h.calls[sent:] if c.method == "POST" and "/messages" in c.url]
        refused += sum(c.status == 403 for c in posts)
        assert not [c for c in posts if "daily digest" in str(c.payload) and c.status == 200]
        clock.now += timedelta(minutes=20)  # each retry's wait is over
    assert refused == 3, "three tries, then dropped: no one channel may show it"


async def test_every_dm_names_its_game_and_links_to_it_and_the_heads_up_comes_once(h, clock):
    """Turn notice, heads-up, reminder and warning, each a DM with the game's name and a
    link to its channel; the heads-up once a turn, whatever happens meanwhile."""
    for player in (ADA, BOB, CY):
        await h.slash("settings", notify="dm", heads_up="on", user=player)
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=ADA)
    for player in (BOB, CY):
        await h.slash("game", "join", user=player)
    await h.slash("game", "start", user=ADA)
    row = await h.store.latest_game(CHANNEL_ID)
    players = {p.user_id: p for p in (ADA, BOB, CY)}
    seats = [players[s.user_id] for s in await h.store.seats(row.id)]
    (first,) = [s.seat for s in await h.store.seats(row.id) if s.awaiting]
    order = [seats[(first + i) % 3] for i in range(3)]
    await tick(h)
    await tick(h)
    due = unix(T0 + timedelta(days=2))
    turn = f"Your move in **Skybridge #1** — the game begins; due <t:{due}:R>.\n{LINK}"
    assert [d["content"] for d in h.dms(order[0].user_id)] == [turn]
    assert [d["content"] for d in h.dms(order[1].user_id)] == [
        f"⏭️ You're next in **Skybridge #1**: {order[0].name} is playing now, due <t:{due}:R>."
        f"\n{LINK}"
    ], "once, however many passes"
    assert h.dms(order[2].user_id) == []

    move = (await h.service.play.legal_moves(Table(CHANNEL_ID, GUILD_ID), order[0]))[0]
    await a_move(h, order[0])
    await tick(h)
    played = f"{order[0].name} placed {move}"
    assert h.dms(order[1].user_id)[-1]["content"] == (
        f"Your move in **Skybridge #1** — {played}; due <t:{due}:R>.\n{LINK}"
    )
    assert [d["content"] for d in h.dms(order[2].user_id)] == [
        f"⏭️ You're next in **Skybridge #1**: {played}; {order[1].name} is playing now, "
        f"due <t:{due}:R>.\n{LINK}"
    ]
    clock.at(hours=24)  # a day on: a reminder for the one to play
    await tick(h)
    reminder = h.dms(order[1].user_id)[-1]
    assert reminder["content"].startswith(
        f"Reminder: it has been your turn in **Skybridge #1** for 24 hours, since "
        f"{order[0].name} played `{move}`; due <t:{due}:R>."
    )
    assert reminder["content"].endswith(f"\n{LINK}")
    clock.at(hours=36)  # 12 hours before the deadline
    await tick(h)
    warning = h.dms(order[1].user_id)[-1]
    assert warning["content"].startswith(
        f"⏰ Your move in **Skybridge #1** ({order[0].name} played `{move}`) is due <t:{due}:f>"
    )
    assert warning["content"].endswith(f"\n{LINK}")
    assert len(h.dms(order[2].user_id)) == 1, "told once this turn"
    assert all("{t:" not in d["content"] for p in order for d in h.dms(p.user_id))


async def test_dms_reminders_and_the_digest_link_to_each_games_page(h, clock):
    """Served behind a public address, every notice of a game links to its page: a DM
    beside the channel's link, a reminder in the channel under its first line, the
    digest on each game's line. The address is the game's: the same for every seat."""
    async with serving(h.service, Web("127.0.0.1", 0, public_url="https://games.example.org")):
        await waiting_for(h, BOB, ADA, CHANNEL_ID, time_per_move="2d")
        await waiting_for(h, BOB, ADA, OTHER_CHANNEL_ID)
        await h.slash("settings", notify="dm", user=ADA)
        await a_move(h, BOB)  # Ada's turn, told in a DM
        page = "https://games.example.org" + await h.service.pages.path(1)
        other = "https://games.example.org" + await h.service.pages.path(2)
        await tick(h)
        dm = h.dms(ADA.user_id)[0]["content"]
        assert dm.startswith("Your move in **Skybridge #1**")
        assert dm.endswith(f"\n{LINK} · [Game page](<{page}>)"), dm
        clock.at(hours=24)
        await tick(h)
        (reminder,) = [d for d in h.dms(ADA.user_id) if d["content"].startswith("Reminder")]
        assert reminder["content"].endswith(f"\n{LINK} · [Game page](<{page}>)")
        posts = [c for c in h.calls if c.path == "/channels/{channel_id}/messages"]
        (bobs,) = [c for c in posts if c.text.startswith(f"<@{BOB.user_id}> Reminder")]
        first, link = bobs.text.split("\n")
        assert "**Skybridge #2**" in first and link == f"[Game page](<{other}>)"
        await h.slash("settings", reminders="digest", digest_hour=8, user=ADA)
        clock.now = datetime(2026, 11, 4, 8, tzinfo=UTC)
        await tick(h)
        (digest,) = [d for d in h.dms(ADA.user_id) if "daily digest" in d["content"]]
    lines = digest["content"].splitlines()
    assert lines[1].endswith(f" · [Game page](<{page}>)") and f"in {LINK} " in lines[1], lines
    assert len(lines) == 2, "the one game waiting for Ada"
