"""Layer 2: every ping carries its words, in a message a phone's notification shows.

A mention inside a Components v2 card notifies with no text at all (discord-api-docs
#7854), so a card pings nobody: whoever a board is for is pinged by one plain message
right before it, naming the game, the move just made and the deadline, and the card,
with its Play button, follows as the newest message. Reminders, deadline warnings and
the "you're next" heads-up are plain messages that say as much. These tests read every
REST call the real bot made (``discord_harness``): exactly one message mentions the
player, it is plain, it pings them and no other message does.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.service import Caller, Table
from tests.bot.discord.discord_harness import CHANNEL_ID, GUILD_ID, Call, Harness, pinged
from tests.bot.discord.discord_limits import COMPONENTS_V2
from tests.bot.discord.test_reminders import T0, tick
from tests.conftest import Clock

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
CY = Caller(1003, "Cy")
CREATES = (
    "/channels/{channel_id}/messages",
    "/webhooks/{webhook_id}/{webhook_token}",
    "/interactions/{webhook_id}/{webhook_token}/callback",
)


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def h(tmp_path, clock):
    async with Harness(tmp_path / "bridgekeeper.db", clock=clock) as harness:
        yield harness


def created(h: Harness, since: int) -> list[Call]:
    """The messages the bot created after its call number ``since``, in order: what
    Discord notifies anyone from (an edit notifies nobody)."""
    return [
        c
        for c in h.calls[since:]
        if c.method == "POST"
        and c.status == 200
        and c.path in CREATES
        and (not c.path.endswith("/callback") or c.payload.get("type") == 4)
    ]


async def a_pass(h: Harness) -> list[Call]:
    """The messages the bot created in one pass of its timers."""
    since = len(h.calls)
    await tick(h)
    return created(h, since)


def the_ping(calls: list[Call], user: Caller) -> Call:
    """The one message of ``calls`` that mentions ``user``: plain (its words are its
    content), pinging them; no other message pings them."""
    mentioning = [c for c in calls if f"<@{user.user_id}>" in c.text]
    assert len(mentioning) == 1, [c.text for c in mentioning]
    (ping,) = mentioning
    assert not (ping.message.get("flags") or 0) & COMPONENTS_V2, "not a card: its own words"
    assert f"<@{user.user_id}>" in ping.message["content"]
    assert [c for c in calls if user.user_id in pinged(c.message)] == [ping]
    return ping


def turn_ping(user: Caller, game: int, happened: str, due: int) -> str:
    """What the ping to ``user`` says after a move (``happened``) in game ``game``."""
    return f"<@{user.user_id}>, your move in **Skybridge #{game}** — {happened}; due <t:{due}:R>."


def card_after(calls: list[Call], ping: Call) -> Call:
    """The card right after ``ping``, the newest public message, pinging nobody."""
    card = calls[calls.index(ping) + 1]
    assert (card.message.get("flags") or 0) & COMPONENTS_V2 and card.custom_ids
    public = [c for c in calls if not (c.message.get("flags") or 0) & 64]
    assert public[-1] is card, "the card, with the Play button, is the newest message"
    assert pinged(card.message) == set() and card.message["allowed_mentions"]["users"] == []
    return card


async def seated(h: Harness, *players: Caller, **options) -> list[Caller]:
    """A Skybridge game of ``players`` with two days a move, started: the players in
    turn order, the one to move first."""
    await h.slash("game", "new", game="skybridge", time_per_move="2d", user=players[0], **options)
    for player in players[1:]:
        await h.slash("game", "join", user=player)
    await h.slash("game", "start", user=players[0])
    row = await h.store.latest_game(CHANNEL_ID)
    seats = await h.store.seats(row.id)
    by_id = {p.user_id: p for p in players}
    (first,) = [s.seat for s in seats if s.awaiting]
    return [by_id[seats[(first + i) % len(seats)].user_id] for i in range(len(seats))]


async def first_move(h: Harness, player: Caller) -> str:
    return (await h.service.play.legal_moves(Table(CHANNEL_ID, GUILD_ID), player))[0]


async def deadline_of(h: Harness, player: Caller) -> tuple[int, int]:
    """(the game's id, ``player``'s deadline as a Unix time) as stored."""
    row = await h.store.latest_game(CHANNEL_ID)
    (seat,) = [s for s in await h.store.seats(row.id) if s.user_id == player.user_id]
    return row.id, int(datetime.fromisoformat(seat.deadline).timestamp())


@pytest.mark.parametrize("expired", [False, True], ids=["answered", "posted-by-the-bot"])
async def test_a_move_pings_the_next_player_once_in_words_then_the_card_follows(h, expired):
    """Answered through the interaction, or (Discord gave up on it) posted in the
    channel by the bot itself: the same two messages, the ping then the card."""
    mover, waiting = await seated(h, ADA, BOB)
    notation = await first_move(h, mover)
    since = len(h.calls)
    await h.slash("move", notation=notation, user=mover, expired=expired)
    calls = created(h, since)
    game, due = await deadline_of(h, waiting)
    ping = the_ping(calls, waiting)
    assert ping.message["content"] == turn_ping(
        waiting, game, f"{mover.name} placed {notation}", due
    )
    card = card_after(calls, ping)
    assert f"{mover.name} placed {notation}.\nTo play: {waiting.name}." in card.text
    assert f"<@{waiting.user_id}>" not in card.text, "the card names the player, pings nobody"
    assert not [c for c in calls if mover.user_id in pinged(c.message)]


async def test_a_reminder_and_a_warning_each_ping_once_naming_game_move_and_deadline(h, clock):
    mover, waiting = await seated(h, ADA, BOB)
    notation = await first_move(h, mover)
    await h.slash("move", notation=notation, user=mover)
    game, due = await deadline_of(h, waiting)

    clock.at(hours=24)  # the game's reminder, a day into the turn
    reminder = the_ping(await a_pass(h), waiting)
    assert reminder.message["content"] == (
        f"<@{waiting.user_id}> Reminder: it has been your turn in **Skybridge #{game}** for "
        f"24 hours, since {mover.name} played `{notation}`; due <t:{due}:R>."
    )
    assert reminder.custom_ids and reminder.custom_ids[0].startswith("bk:snooze:")

    clock.at(hours=36)  # a quarter of the time per move before the deadline
    warning = the_ping(await a_pass(h), waiting)
    assert warning.message["content"] == (
        f"<@{waiting.user_id}> ⏰ Your move in **Skybridge #{game}** ({mover.name} played "
        f"`{notation}`) is due <t:{due}:f> (<t:{due}:R>); after that the game plays a random "
        "legal move for you."
    )


async def test_the_heads_up_pings_once_naming_game_move_and_the_deadline_it_waits_on(h):
    for player in (ADA, BOB, CY):
        await h.slash("settings", heads_up="on", user=player)
    mover, playing, after = await seated(h, ADA, BOB, CY)
    await tick(h)  # the heads-up of the first turn goes out
    notation = await first_move(h, mover)
    since = len(h.calls)
    await h.slash("move", notation=notation, user=mover)
    await tick(h)
    calls = created(h, since)
    game, due = await deadline_of(h, playing)
    heads_up = the_ping(calls, after)
    assert heads_up.message["content"] == (
        f"<@{after.user_id}> ⏭️ You're next in **Skybridge #{game}**: {mover.name} placed "
        f"{notation}; {playing.name} is playing now, due <t:{due}:R>."
    )
    card_after(calls[: calls.index(heads_up)], the_ping(calls, playing))


async def test_a_move_the_timer_makes_pings_the_next_player_once_then_the_card(h, clock):
    late, waiting = await seated(h, ADA, BOB)
    clock.at(hours=36)
    await tick(h)  # the warning
    clock.at(hours=48)
    calls = await a_pass(h)
    row = await h.store.latest_game(CHANNEL_ID)
    (played,) = await h.store.moves(row.id)
    game, due = await deadline_of(h, waiting)
    ping = the_ping(calls, waiting)
    placed = f"{late.name} placed {played.action}"
    assert ping.message["content"] == turn_ping(waiting, game, placed, due)
    card = card_after(calls, ping)
    assert card.text.startswith(f"⏰ {late.name} ran out of time: the game played a random")
    assert due == int((T0 + timedelta(hours=48 + 48)).timestamp()), "two days from the move"
